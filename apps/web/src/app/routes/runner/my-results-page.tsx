import { Alert, Box, FormControlLabel, Link, Paper, Stack, Switch, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useConfirmClaim } from '../../../features/runner/api/claims.ts';
import { useMyResults, useSetHideAll, useSetResultPrivacy } from '../../../features/runner/api/my-results.ts';
import { ClaimSuggestions } from '../../../features/runner/components/claim-suggestions.tsx';
import { MyAlertsToggle } from '../../../features/runner/components/my-alerts-toggle.tsx';
import { MyResultCard } from '../../../features/runner/components/my-result-card.tsx';
import {
  PersonalBests,
  TimesChart,
  YearAfterYear,
} from '../../../features/runner/components/personal-bests.tsx';
import { PublicPageToggle } from '../../../features/runner/components/public-page-toggle.tsx';

/** The claim link of the code mail (`?claim=…&code=…`): confirmed once on opening. */
function useClaimFromLink() {
  const [params, setParams] = useSearchParams();
  const confirm = useConfirmClaim();
  const asked = useRef(false);
  const claimId = params.get('claim');
  const code = params.get('code');
  useEffect(() => {
    if (!claimId || !code || asked.current) return;
    asked.current = true;
    confirm.mutate({ claimId, code }, { onSettled: () => setParams({}, { replace: true }) });
  }, [claimId, code, confirm, setParams]);
  return confirm;
}

/**
 * `/me/results` (issue 40, the runner's own space): every result linked to my account, across
 * events and organisations, with personal bests, a chart over the years, the same distance side
 * by side, results that may be mine to claim, the public page and my privacy choices.
 */
export default function MyResultsPage() {
  const { t } = useTranslation(['runner', 'privacy']);
  const results = useMyResults();
  const one = useSetResultPrivacy();
  const all = useSetHideAll();
  const fromLink = useClaimFromLink();
  const title = t('title');
  if (results.isPending) return <PageLoading />;
  if (results.isError) return <PageError error={results.error} />;
  const { hideAll, results: list, personalBests, publicSlug } = results.data;
  const busy = one.isPending || all.isPending;
  return (
    <>
      <PageHeader title={title} crumbs={[[title]]} />
      {fromLink.isSuccess && (
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('claimed')}
        </Alert>
      )}
      {fromLink.isError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {t('codeInvalid')}
        </Alert>
      )}
      {(one.isError || all.isError) && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {t('saveFailed')}
        </Alert>
      )}
      <ClaimSuggestions />
      <PersonalBests bests={personalBests} />
      <TimesChart results={list} />
      <YearAfterYear results={list} />
      {list.length === 0 ? (
        <Typography sx={{ mb: 2 }}>{t('empty')}</Typography>
      ) : (
        <Box component="ul" sx={{ p: 0, m: 0, mb: 3 }}>
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
      <PublicPageToggle slug={publicSlug} />
      <MyAlertsToggle />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Link component={RouterLink} to={paths.myData()} data-testid="my-data-link">
          {t('privacy:link')}
        </Link>
      </Paper>
    </>
  );
}
