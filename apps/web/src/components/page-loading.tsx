import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** A centred spinner with an accessible label (the layouts' Suspense fallback). */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }} role="status" aria-live="polite">
      <CircularProgress aria-label={t('state.loading')} />
    </Box>
  );
}
