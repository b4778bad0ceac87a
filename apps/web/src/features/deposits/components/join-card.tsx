import { Alert, Button, Paper, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useJoinPreview } from '../api/deposits.ts';

/** Someone who opened the captain's link: the team it leads to and a Join button. */
export function JoinCard({ code, onJoin }: { code: string; onJoin: () => Promise<unknown> }) {
  const { t } = useTranslation('deposits');
  const preview = useJoinPreview(code);
  const [error, setError] = useState<string | null>(null);
  if (preview.isError) return <Alert severity="error">{t('join.unknown')}</Alert>;
  if (!preview.data) return null;
  const join = async () => {
    try {
      setError(null);
      await onJoin();
    } catch (e) {
      setError(
        e instanceof ApiError ? t(`errors.${e.code}`, { defaultValue: e.message }) : t('errors.generic'),
      );
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 3, mb: 2, maxWidth: 560 }}>
      <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
        {t('join.title', { team: preview.data.teamName })}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('join.text', { event: preview.data.eventName })}</Typography>
      {preview.data.open ? (
        <Button variant="contained" onClick={join}>
          {t('join.button')}
        </Button>
      ) : (
        <Alert severity="info">{t('join.closed')}</Alert>
      )}
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
    </Paper>
  );
}
