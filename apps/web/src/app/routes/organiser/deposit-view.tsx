import { Alert, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';

/** The deposit views of spec §2: `{id}/collect`, `{id}/message`, `{id}/overview`, `{id}/paymentok`. */
export const DEPOSIT_VIEWS = ['collect', 'message', 'overview', 'paymentok'] as const;

/** One view of deposit `{id}`; its content comes with the deposits issue. */
export default function DepositView() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const view = useLocation().pathname.split('/').pop() ?? 'overview';
  return (
    <>
      <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
        {t(`pages.depositViews.${view}`, { id })}
      </Typography>
      <Alert severity="info">{t('state.comingSoon')}</Alert>
    </>
  );
}
