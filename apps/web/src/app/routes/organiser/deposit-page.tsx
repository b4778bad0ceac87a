import { useTranslation } from 'react-i18next';
import { Outlet, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-state.tsx';

/** `/deposit/{event}` (requireAuth): a group entry file kept by a team captain; children below. */
export default function DepositPage() {
  const { t } = useTranslation();
  const { event = '' } = useParams();
  return (
    <>
      <PageHeader title={`${t('pages.deposit')} — ${event}`} crumbs={[[t('pages.deposit')], [event]]} />
      <Outlet />
    </>
  );
}
