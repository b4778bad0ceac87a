import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../../components/page-state.tsx';

/** `/payment/home` (requireAuth): the user's orders and receipts. */
export default function PaymentPage() {
  const { t } = useTranslation();
  return <ComingSoon title={t('pages.payments')} crumbs={[[t('pages.payments')]]} />;
}
