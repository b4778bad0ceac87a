import { Alert, Button, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadRefused } from '../api/imports.ts';

/**
 * The refused rows of an import as a file (issue 29): CSV or XLSX, the file's own columns then
 * the line and the reason, in the interface's language.
 */
export function RefusedDownloads({ eventId, importId }: { eventId: string; importId: string }) {
  const { t, i18n } = useTranslation('participants');
  const [error, setError] = useState('');
  const lng = i18n.language?.startsWith('fr') ? 'fr' : 'en';
  const get = (format: 'csv' | 'xlsx') => {
    setError('');
    downloadRefused(eventId, importId, format, lng).catch((e: Error) =>
      setError(t('import.downloadFailed', { message: e.message })),
    );
  };
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button size="small" variant="outlined" onClick={() => get('csv')}>
          {t('import.downloadCsv')}
        </Button>
        <Button size="small" variant="outlined" onClick={() => get('xlsx')}>
          {t('import.downloadXlsx')}
        </Button>
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}
