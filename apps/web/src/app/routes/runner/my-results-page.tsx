import { Alert, Box, FormControlLabel, Paper, Stack, Switch, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { useMyResults, useSetHideAll, useSetResultPrivacy } from '../../../features/runner/api/my-results.ts';
import { MyResultCard } from '../../../features/runner/components/my-result-card.tsx';

/**
 * `/me/results` (issue 40, the runner's own space): every result linked to my account, across
 * events and organisations, and my privacy choices (per result, or for all).
 */
export default function MyResultsPage() {
  const { t } = useTranslation('runner');
  const results = useMyResults();
  const one = useSetResultPrivacy();
  const all = useSetHideAll();
  const title = t('title');
  if (results.isPending) return <PageLoading />;
  if (results.isError) return <PageError error={results.error} />;
  const { hideAll, results: list } = results.data;
  const busy = one.isPending || all.isPending;
  return (
    <>
      <PageHeader title={title} crumbs={[[title]]} />
      {(one.isError || all.isError) && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {t('saveFailed')}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <FormControlLabel
          control={
            <Switch
              checked={hideAll}
              disabled={busy}
              onChange={(_e, checked) => all.mutate(checked)}
              slotProps={{ input: { 'aria-describedby': 'hide-all-help' } }}
            />
          }
          label={t('hideAll')}
        />
        <Typography id="hide-all-help" variant="body2" color="text.secondary">
          {t('hideAllHelp')}
        </Typography>
      </Paper>
      {list.length === 0 ? (
        <Typography>{t('empty')}</Typography>
      ) : (
        <Box component="ul" sx={{ p: 0, m: 0 }}>
          <Stack spacing={2}>
            {list.map((result) => (
              <MyResultCard
                key={result.participantId}
                result={result}
                busy={busy}
                onHide={(hidden) => one.mutate({ participantId: result.participantId, hidden })}
              />
            ))}
          </Stack>
        </Box>
      )}
    </>
  );
}
