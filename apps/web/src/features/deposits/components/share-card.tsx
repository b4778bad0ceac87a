import { Alert, Box, Button, Paper, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShare } from '../api/deposits.ts';

/** The captain's share link, join code and QR code (an SVG drawn by our server's qrcode). */
export function ShareCard({ depositId }: { depositId: string }) {
  const { t } = useTranslation('deposits');
  const share = useShare(depositId, true);
  const [copied, setCopied] = useState(false);
  if (!share.data) return null;
  const copy = async () => {
    await navigator.clipboard?.writeText(share.data.url).catch(() => undefined);
    setCopied(true);
  };
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, mb: 2, display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}
    >
      <Box
        role="img"
        aria-label={t('share.qr')}
        sx={{ width: 140, height: 140, flexShrink: 0, '& svg': { width: '100%', height: '100%' } }}
        // The SVG comes from our own server's QR encoder (no user markup in it).
        // biome-ignore lint/security/noDangerouslySetInnerHtml: trusted server-generated SVG
        dangerouslySetInnerHTML={{ __html: share.data.qrSvg }}
      />
      <Box sx={{ flex: 1, minWidth: 240 }}>
        <Typography variant="h6" component="h2" sx={{ fontSize: 18 }}>
          {t('share.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {t('share.help')}
        </Typography>
        <TextField
          fullWidth
          size="small"
          label={t('share.link')}
          value={share.data.url}
          slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'share-link' } }}
        />
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 1, flexWrap: 'wrap' }}>
          <Button variant="outlined" onClick={copy}>
            {t('share.copy')}
          </Button>
          <Typography>
            {t('share.code')} <strong data-testid="join-code">{share.data.code}</strong>
          </Typography>
        </Box>
        {copied && (
          <Alert severity="success" sx={{ mt: 1 }}>
            {t('share.copied')}
          </Alert>
        )}
      </Box>
    </Paper>
  );
}
