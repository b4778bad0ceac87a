import { Alert, Snackbar } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';

export { fieldError } from '../../../lib/api-client.ts';

/** A translated alert for a failed save: field errors point at the fields, other errors say why. */
export function SaveError({ error }: { error: unknown }) {
  const { t } = useTranslation('console');
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  const known = api && t(`errors.${api.code}`, { defaultValue: '' });
  const message = api?.isNetwork
    ? t('errors.NETWORK')
    : known ||
      (api && Object.keys(api.fieldErrors).length
        ? t('errors.VALIDATION_FAILED')
        : (api?.message ?? t('errors.generic')));
  return (
    <Alert severity="error" role="alert" sx={{ my: 1 }}>
      {message}
    </Alert>
  );
}

/**
 * "Saved." for a few seconds after a save, at the bottom of the screen where it is seen whatever
 * the scroll (issue 29: event settings, points and categories saved without a word). Give it the
 * mutation's `isSuccess` and `submittedAt` (a new save shows it again).
 */
export function SavedSnackbar({ saved, at }: { saved: boolean; at: number }) {
  const { t } = useTranslation('console');
  const [closedAt, setClosedAt] = useState(0);
  return (
    <Snackbar
      open={saved && at > closedAt}
      autoHideDuration={4000}
      onClose={(_e, reason) => reason !== 'clickaway' && setClosedAt(at)}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert severity="success" variant="filled" role="status" onClose={() => setClosedAt(at)}>
        {t('form.saved')}
      </Alert>
    </Snackbar>
  );
}
