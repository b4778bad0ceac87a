import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ComingSoon } from '../../../components/page-state.tsx';

/** `/confirmation/event/{id}` (requireAuth): the documents of one event. */
export default function ConfirmationEventPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  return (
    <ComingSoon
      title={`${t('pages.confirmation')} — ${id}`}
      crumbs={[[t('pages.confirmation'), '/confirmation/home'], [id]]}
    />
  );
}
