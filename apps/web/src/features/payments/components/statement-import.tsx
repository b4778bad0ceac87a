import { Alert, Paper, Typography } from '@mui/material';
import type { StatementImportResult } from '@tempora/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileDrop } from '../../../components/file-drop.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { paymentsApi, useStaffMutation } from '../api/payments.ts';

/** Staff import a bank statement (CODA or camt.053); lines are matched at once. */
export function StatementImport({ eventId }: { eventId: string }) {
  const { t } = useTranslation('payments');
  const [result, setResult] = useState<StatementImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useStaffMutation((file: File) => paymentsApi.importStatement(eventId, file));
  const handleFile = async (file: File) => {
    setError(null);
    setResult(null);
    try {
      setResult(await upload.mutateAsync(file));
    } catch (e) {
      setError(
        e instanceof ApiError
          ? `${t(`errors.${e.code}`, { defaultValue: e.code })}: ${e.message}`
          : t('errors.generic'),
      );
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography sx={{ mb: 1 }}>{t('import.help')}</Typography>
      <FileDrop
        label={t('import.choose')}
        accept=".xml,.cod,.coda,.txt,.csv"
        disabled={upload.isPending}
        buttonProps={{ variant: 'contained' }}
        onFile={(file) => void handleFile(file)}
      />
      {result && (
        <Alert
          severity={result.manual ? 'warning' : 'success'}
          role="status"
          sx={{ mt: 2 }}
          data-testid="import-result"
        >
          {t('import.result', {
            format: result.format === 'coda' ? 'CODA' : 'camt.053',
            account: result.account,
            movements: result.movements,
            matched: result.matched,
            manual: result.manual,
            duplicates: result.duplicates,
          })}
        </Alert>
      )}
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
    </Paper>
  );
}
