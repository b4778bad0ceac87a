import { Box, Button, FormControlLabel, Link, Paper, Switch, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { useSetPublicPage } from '../api/my-results.ts';

/** My public runner page: off by default; on, a short link to share. */
export function PublicPageToggle({ slug }: { slug: string | null }) {
  const { t } = useTranslation('runner');
  const set = useSetPublicPage();
  const [copied, setCopied] = useState(false);
  const link = slug ? `${window.location.origin}${window.location.pathname}#${paths.runnerPage(slug)}` : '';
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={slug !== null}
            disabled={set.isPending}
            onChange={(_e, checked) => set.mutate(checked)}
            slotProps={{ input: { 'aria-describedby': 'public-page-help' } }}
          />
        }
        label={t('publicPage')}
      />
      <Typography id="public-page-help" variant="body2" color="text.secondary">
        {t('publicPageHelp')}
      </Typography>
      {slug && (
        <Box sx={{ mt: 1, display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <Typography variant="body2">{t('publicLink')}</Typography>
          <Link href={link} data-testid="public-page-link">
            {link}
          </Link>
          <Button
            size="small"
            onClick={() => void navigator.clipboard?.writeText(link).then(() => setCopied(true))}
          >
            {copied ? t('copied') : t('copy')}
          </Button>
        </Box>
      )}
    </Paper>
  );
}
