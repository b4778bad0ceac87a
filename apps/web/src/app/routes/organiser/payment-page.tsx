import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-state.tsx';
import { MyPayments } from '../../../features/payments/components/my-payments.tsx';
import { StaffPayments } from '../../../features/payments/components/staff-payments.tsx';

/** `/payment/home` (requireAuth): the user's orders, receipts and refunds; organiser staff's payments. */
export default function PaymentPage() {
  const { t } = useTranslation('payments');
  return (
    <>
      <PageHeader title={t('title')} crumbs={[[t('title')]]} />
      <MyPayments />
      <StaffPayments />
    </>
  );
}
