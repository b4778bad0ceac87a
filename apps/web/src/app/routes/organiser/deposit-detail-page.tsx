import { Alert, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';

/**
 * `/deposit/{event}/{id}d`: the read-only detail of deposit `{id}` (spec §2's "variant whose id is
 * followed by the letter d"). React Router cannot mix a parameter and a literal in one segment, so
 * the route is `:id` and this page branches on the trailing `d`; without it, the deposit's
 * overview is the natural destination.
 */
export default function DepositDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  if (!id.endsWith('d') || id.length < 2) return <Navigate to="overview" relative="path" replace />;
  return (
    <>
      <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
        {t('pages.depositDetail', { id: id.slice(0, -1) })}
      </Typography>
      <Alert severity="info">{t('state.comingSoon')}</Alert>
    </>
  );
}
