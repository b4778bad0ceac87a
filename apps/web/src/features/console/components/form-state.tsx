import { Alert } from '@mui/material';
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
