import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/page-state.tsx';

/** `/confirmation/home` (requireAuth): every registration document the user may see. */
export default function ConfirmationHomePage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.confirmation')} crumbs={[[t('pages.confirmation')]]} />;
}
