import { Alert, Box, Button, List, ListItem, Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConsoleRace, LapTable, LegTable, ReviewAnomaly } from '@tempora/contracts';
import { formatDateTime, formatDuration, formatPace } from '@tempora/domain';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../../lib/api-client.ts';
import {
  applyReviewFix,
  type ReviewFix,
  setCutoffOverride,
  setRunnerStatus,
  useReview,
} from '../api/review.ts';
import { SaveError } from './form-state.tsx';

type Action =
  | { kind: 'fix'; fix: ReviewFix }
  | { kind: 'reinstate'; bib: string }
  | { kind: 'status'; bib: string; status: 'DNF' | 'DNS' | 'DSQ' }
  | { kind: 'cutoff'; bib: string; pointKey: string; reinstated: boolean };

/** The missing read's time, by distance between the reads around it; null without both. */
function estimate(a: ReviewAnomaly, race: ConsoleRace): number | null {
  const at = (key: string | null) => race.points.find((p) => p.key === key)?.distanceM;
  const d = at(a.pointId);
  // Without a read before it, from the gun (issue 43: a finisher missing the only split).
  const gun = race.gunTimeMs === null ? undefined : { pointId: '', timeMs: race.gunTimeMs };
  const [before, after] = a.reads.length > 1 ? a.reads : [gun, a.reads[0]];
  if (d === undefined || !before || !after) return null;
  const d0 = before.pointId === '' ? 0 : at(before.pointId);
  const d1 = at(after.pointId);
  if (d0 === undefined || d1 === undefined || d1 <= d0) return null;
  return Math.round(before.timeMs + ((after.timeMs - before.timeMs) * (d - d0)) / (d1 - d0));
}

/** The anomalies a voided read fixes (issue 31; issue 43's field and context checks). */
const VOIDABLE = new Set<ReviewAnomaly['kind']>([
  'tooFast',
  'outOfOrder',
  'readAfterStop',
  'tooSlow',
  'aheadOfField',
  'unknownRead',
  'beforeStart',
  'sharedChip',
  'otherCourse',
]);
/** The anomalies a status fixes (issue 43): a DNF or DNS candidate, a finish no one could run. */
const STATUS_FIX: Partial<Record<ReviewAnomaly['kind'], 'DNF' | 'DNS' | 'DSQ'>> = {
  dnfCandidate: 'DNF',
  dnsCandidate: 'DNS',
  aheadOfField: 'DSQ',
};
const STATUS_FIX_LABEL = { DNF: 'markDNF', DNS: 'markDNS', DSQ: 'disqualify' } as const;

/** A row of the spectators' lap or leg table (issue 31): the review lists those that missed a cut-off. */
type CutRow = LapTable['rows'][number] | LegTable['rows'][number];

/**
 * The review before results are official (issue 31): each anomaly of the race (missing read, a
 * segment too fast, reads out of order, reads after a stop) with the reads behind it and a
 * one-click fix through the desk's corrections (void a read, add the missing one estimated from
 * the reads around it, reinstate a runner); and for a race with cut-offs, who missed one, with
 * the desk's reinstatement. Race-day access (`desk`).
 */
export function ReviewPanel({ race, desk }: { race: ConsoleRace; desk: boolean }) {
  const { t, i18n } = useTranslation('console');
  const lng = i18n.language.startsWith('fr') ? 'fr' : 'en';
  const client = useQueryClient();
  const review = useReview(race.id);
  // A lap race's cut-offs (lap k by a time) are judged in its lap table, the others in the legs'.
  const lapCutoffs = 'lapCutoffs' in race.format && (race.format.lapCutoffs?.length ?? 0) > 0;
  const hasCutoffs = lapCutoffs || ('cutoffs' in race.format && (race.format.cutoffs?.length ?? 0) > 0);
  const cuts = useQuery({
    queryKey: ['console', 'race', race.id, 'cutoffs', lapCutoffs],
    enabled: hasCutoffs,
    queryFn: ({ signal }) =>
      apiGet<LapTable | LegTable>(
        'resultsApiUrlBase',
        `results/contexts/${encodeURIComponent(race.db)}/races/${encodeURIComponent(race.id)}/${lapCutoffs ? 'laps' : 'legs'}`,
        { signal },
      ),
  });
  const act = useMutation({
    mutationFn: async (a: Action) => {
      const reason = t('review.reason');
      if (a.kind === 'fix') return applyReviewFix(race.db, a.fix);
      if (a.kind === 'reinstate') return setRunnerStatus(race.db, race.id, a.bib, 'registered', reason);
      if (a.kind === 'status') return setRunnerStatus(race.db, race.id, a.bib, a.status, reason);
      return setCutoffOverride(race.id, { bib: a.bib, pointKey: a.pointKey, reinstated: a.reinstated });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['console', 'race', race.id] }),
  });
  const pointName = (key: string | null) => {
    const p = race.points.find((x) => x.key === key);
    return p ? p.name[lng] : (key ?? '');
  };
  // Read times in the event's zone, named (issue 43).
  const clock = (ms: number) => formatDateTime(ms, race.timeZone, lng, { date: false, seconds: true });
  // A road race's cut-off (issue 43): "slower than the cut-off" says which.
  const cutoffMinutes = race.format.kind === 'road' ? race.format.cutoffMinutes : undefined;
  const kindText = (a: ReviewAnomaly) => {
    const point = a.pointName?.[lng] ?? pointName(a.pointId);
    return a.kind === 'tooSlow' && cutoffMinutes
      ? t('review.kinds.tooSlowCutoff', { point, cutoff: formatDuration(cutoffMinutes * 60_000) })
      : t(`review.kinds.${a.kind}`, { point });
  };
  const fix = (f: ReviewFix) => act.mutate({ kind: 'fix', fix: f });
  const reason = t('review.reason');
  if (review.isPending) return <Typography color="text.secondary">{t('review.loading')}</Typography>;
  if (review.isError) return <SaveError error={review.error} />;
  const { anomalies } = review.data;
  const cut = ((cuts.data?.rows ?? []) as readonly CutRow[]).filter((r) => r.cutoff);
  return (
    <Box>
      <SaveError error={act.error} />
      {anomalies.length === 0 ? (
        <Alert severity="success" sx={{ mb: 1 }}>
          {t('review.none')}
        </Alert>
      ) : (
        <Typography color="text.secondary">{t('review.count', { count: anomalies.length })}</Typography>
      )}
      <List dense aria-label={t('review.anomalies')}>
        {anomalies.map((a) => {
          const estimated = a.kind === 'missingRead' ? estimate(a, race) : null;
          return (
            <ListItem
              key={`${a.kind}-${a.bib}-${a.pointId}-${a.reads.map((r) => r.id).join()}`}
              divider
              sx={{ display: 'block' }}
            >
              <Typography sx={{ fontWeight: 600 }}>
                #{a.bib}
                {a.kind === 'unknownRead' ? ` (${t('review.nobody')})` : ''} — {kindText(a)}
                {a.paceMsPerKm !== null && ` (${t('review.pace', { pace: formatPace(a.paceMsPerKm) })})`}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {a.reads
                  .map(
                    (r) =>
                      `${r.pointId === a.pointId && a.pointName ? a.pointName[lng] : pointName(r.pointId)} ${clock(r.timeMs)}`,
                  )
                  .join(' · ')}
              </Typography>
              {desk && (
                <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mt: 0.5 }}>
                  {VOIDABLE.has(a.kind) &&
                    a.reads.map((r) => (
                      <Button
                        key={r.id}
                        size="small"
                        variant="outlined"
                        disabled={act.isPending}
                        onClick={() => fix({ action: 'void', passingId: r.id, reason })}
                      >
                        {t('review.void', {
                          point:
                            r.pointId === a.pointId && a.pointName ? a.pointName[lng] : pointName(r.pointId),
                          time: clock(r.timeMs),
                        })}
                      </Button>
                    ))}
                  {STATUS_FIX[a.kind] && (
                    <Button
                      size="small"
                      variant="outlined"
                      disabled={act.isPending}
                      onClick={() => act.mutate({ kind: 'status', bib: a.bib, status: STATUS_FIX[a.kind]! })}
                    >
                      {t(`review.${STATUS_FIX_LABEL[STATUS_FIX[a.kind]!]}`)}
                    </Button>
                  )}
                  {a.kind === 'readAfterStop' && (
                    <Button
                      size="small"
                      variant="outlined"
                      disabled={act.isPending}
                      onClick={() => act.mutate({ kind: 'reinstate', bib: a.bib })}
                    >
                      {t('review.reinstate')}
                    </Button>
                  )}
                  {a.kind === 'missingRead' && estimated !== null && a.pointId && (
                    <Button
                      size="small"
                      variant="outlined"
                      disabled={act.isPending}
                      onClick={() =>
                        fix({ action: 'add', bib: a.bib, pointKey: a.pointId!, timeMs: estimated, reason })
                      }
                    >
                      {t('review.add', { point: pointName(a.pointId), time: clock(estimated) })}
                    </Button>
                  )}
                </Stack>
              )}
            </ListItem>
          );
        })}
      </List>
      {hasCutoffs && (
        <>
          <Typography variant="subtitle1" component="h3" sx={{ mt: 2 }}>
            {t('review.cutoffs')}
          </Typography>
          {cut.length === 0 && <Typography color="text.secondary">{t('review.noCutoffs')}</Typography>}
          <List dense aria-label={t('review.cutoffs')}>
            {cut.map((r) => (
              <ListItem key={r.bib} divider sx={{ display: 'block' }}>
                <Typography>
                  #{r.bib} {r.name} —{' '}
                  {r.cutoff!.pointKey.startsWith('lap:')
                    ? t(`review.lapCut.${r.cutoff!.reason}`, { n: r.cutoff!.pointKey.slice(4) })
                    : t(`review.cut.${r.cutoff!.reason}`, { point: pointName(r.cutoff!.pointKey) })}
                  {r.cutoff!.overridden ? ` (${t('review.reinstated')})` : ''}
                </Typography>
                {desk && (
                  <Button
                    size="small"
                    variant="outlined"
                    disabled={act.isPending}
                    onClick={() =>
                      act.mutate({
                        kind: 'cutoff',
                        bib: r.bib,
                        pointKey: r.cutoff!.pointKey,
                        reinstated: !r.cutoff!.overridden,
                      })
                    }
                  >
                    {r.cutoff!.overridden ? t('review.undoReinstate') : t('review.reinstate')}
                  </Button>
                )}
              </ListItem>
            ))}
          </List>
        </>
      )}
    </Box>
  );
}
