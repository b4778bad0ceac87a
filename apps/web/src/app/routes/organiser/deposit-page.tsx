import { useTranslation } from 'react-i18next';
import { Outlet, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useOffer } from '../../../features/deposits/api/deposits.ts';

/** `/deposit/{event}` (requireAuth): a group entry file kept by a team captain; children below. */
export default function DepositPage() {
  const { t } = useTranslation('deposits');
  const { event = '' } = useParams();
  const offer = useOffer(event);
  const name = offer.data?.eventName ?? event;
  return (
    <>
      <PageHeader
        title={t('title', { event: name })}
        crumbs={[
          [name, paths.eventHome(event)],
          [t('crumb'), paths.deposit(event)],
        ]}
      />
      <Outlet />
    </>
  );
}
