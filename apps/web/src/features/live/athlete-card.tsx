import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { AthleteCard as Card } from '@tempora/contracts';
import {
  formatDateTime,
  formatDuration,
  formatGap,
  formatPaceIn,
  formatRange,
  paceUnitOf,
} from '@tempora/domain';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyCorrectionsNote } from '../../components/corrections-note-lazy.tsx';
import { numberFormat } from '../../lib/intl.ts';
import { pointName } from '../../lib/point-name.ts';
import { runnerName } from '../../lib/runner-name.ts';
import { FinishSummary, finishSplit } from './components/finish-summary.tsx';

/**
 * One athlete live (issue 7): status, last point, ranks at every point, pace, gaps, predicted
 * arrival at the points ahead and at the finish, estimated distance covered; a share link.
 */
export function AthleteCard({ card, actions }: { card: Card; actions?: ReactNode }) {
  const { t, i18n } = useTranslation('live');
  const lng = i18n.language;
  const [copied, setCopied] = useState(false);
  // Times of day in the event's zone, whatever the browser's (issue 19), named: a reader may be
  // elsewhere (issue 43: Boston's "at 12:09:37" is Eastern time).
  const clock = (ms: number | null) => formatDateTime(ms, card.timeZone, lng, { date: false, seconds: true });
  const reached = card.splits.filter((s) => s.netMs !== null);
  const last = reached.at(-1);
  const lastPoint = last ? card.race.points.find((p) => p.key === last.pointKey) : undefined;
  const predicted = new Map(card.prediction?.points.map((p) => [p.pointKey, p]) ?? []);
  const share = `${window.location.origin}${window.location.pathname}#/tracking/${card.athlete.trackingKey}`;
  // Issue 43: the pace in the event's unit (min/mile for a US race).
  const unit = paceUnitOf(card.timeZone);
  const summary = card.status === 'finished' && finishSplit(card) !== null;
  const buttons = (
    <>
      <Button
        variant="outlined"
        onClick={async () => {
          if (navigator.share)
            await navigator.share({ title: runnerName(card.athlete), url: share }).catch(() => undefined);
          else await navigator.clipboard?.writeText(share).catch(() => undefined);
          setCopied(true);
        }}
      >
        {copied ? t('shared') : t('share')}
      </Button>
      {actions}
    </>
  );
  const progress =
    card.estimatedDistanceM !== null
      ? Math.min(100, (card.estimatedDistanceM / card.race.distanceM) * 100)
      : 0;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }} data-testid="athlete-card">
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'flex-start', gap: 1, flexWrap: 'wrap' }}
      >
        <Box>
          <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
            {runnerName(card.athlete)}
          </Typography>
          <Typography color="text.secondary">
            {t('bib')} {card.athlete.bib} · {card.race.name}
            {card.athlete.category ? ` · ${card.athlete.category}` : ''}
            {card.athlete.club ? ` · ${card.athlete.club}` : ''}
          </Typography>
        </Box>
        <Chip
          label={t(`status.${card.status}`)}
          color={card.status === 'finished' ? 'success' : card.status === 'onCourse' ? 'primary' : 'default'}
        />
      </Stack>
      {/* A finisher's summary first, with the certificate, on a phone's first screen (issue 43). */}
      {summary && <FinishSummary card={card} unit={unit} actions={buttons} />}
      {/* Issue 43: official results corrected since — said on the card, not only on the list. */}
      <LazyCorrectionsNote corrections={card.corrections} timeZone={card.timeZone} />
      <Box sx={{ my: 2 }}>
        <Typography variant="body2" sx={{ mb: 0.5 }}>
          {last && lastPoint
            ? t('lastPoint', {
                point: pointName(lastPoint, lng),
                time: formatDuration(last.netMs ?? 0),
                clock: clock(last.timeOfDay),
              })
            : t('notYet')}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={progress}
          aria-label={t('progress')}
          sx={{ height: 8, borderRadius: 4 }}
        />
        {card.estimatedDistanceM !== null && card.status === 'onCourse' && (
          <Typography variant="caption" color="text.secondary">
            {t('estimated', {
              km: numberFormat(lng, { maximumFractionDigits: 1 }).format(card.estimatedDistanceM / 1000),
            })}
          </Typography>
        )}
      </Box>
      {card.prediction && (
        <Alert severity="info" icon={false} sx={{ mb: 2 }}>
          {t('predictedFinish', {
            time: formatDuration(card.prediction.finishNetMs),
            clock: clock(card.prediction.finishTimeOfDay),
          })}
          {card.prediction.finishRangeNetMs &&
            ` · ${t('predictedRange', { range: formatRange(...card.prediction.finishRangeNetMs) })}`}
        </Alert>
      )}
      {/* Issue 19: on a phone the gender rank gives way and cells tighten, so Category, Gap and
          Pace stay in view; the region scrolls (and is focusable) only when it must. */}
      <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('splits')}>
        <Table
          size="small"
          aria-label={t('splits')}
          sx={{
            '& td, & th': { px: { xs: 0.5, sm: 2 }, fontSize: { xs: 13, sm: 14 } },
            '& td:first-of-type, & th:first-of-type': { whiteSpace: 'nowrap', pl: { xs: 0.5, sm: 2 } },
            '& .gender-rank': { display: { xs: 'none', sm: 'table-cell' } },
          }}
        >
          <TableHead>
            <TableRow>
              <TableCell>{t('point')}</TableCell>
              <TableCell align="right">{t('time')}</TableCell>
              <TableCell align="right">{t('rank')}</TableCell>
              <TableCell align="right" className="gender-rank">
                {t('rankGender')}
              </TableCell>
              <TableCell align="right">{t('rankCategory')}</TableCell>
              <TableCell align="right">{t('gap')}</TableCell>
              <TableCell align="right">{t(`paceIn_${unit}`)}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {card.race.points.map((point, k) => {
              const split = card.splits[k];
              const ahead = predicted.get(point.key);
              const done = split && split.netMs !== null;
              return (
                <TableRow key={point.key} sx={{ opacity: done ? 1 : 0.75 }}>
                  <TableCell component="th" scope="row">
                    {pointName(point, lng)}
                  </TableCell>
                  {done ? (
                    <>
                      <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 700 }}>
                        {formatDuration(split.netMs ?? 0)}
                      </TableCell>
                      <TableCell align="right">{split.rankOverall ?? ''}</TableCell>
                      <TableCell align="right" className="gender-rank">
                        {split.rankGender ?? ''}
                      </TableCell>
                      <TableCell align="right">
                        {split.rankCategory ?? ''}
                        {/* The category's own gap, from its first (issue 27), beneath its rank,
                            saying from whom (issue 43: "7 +0:01" read as the overall gap). */}
                        {split.gapCategoryMs ? (
                          <Box component="span" className="cat-gap" sx={{ display: 'block', fontSize: 12 }}>
                            {t('gapCategoryFrom', {
                              gap: formatGap(split.gapCategoryMs, lng),
                              category: card.athlete.category ?? '',
                            })}
                          </Box>
                        ) : null}
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {formatGap(split.gapMs, lng)}
                      </TableCell>
                      <TableCell align="right">{formatPaceIn(split.paceMsPerKm, unit)}</TableCell>
                    </>
                  ) : (
                    // A point ahead: its prediction on one line across the columns it has no
                    // value in yet, so it never widens the Time column (issue 19).
                    <>
                      <TableCell
                        colSpan={5}
                        className="prediction"
                        sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                      >
                        {ahead
                          ? t('predictedAt', {
                              time: formatDuration(ahead.netMs),
                              clock: clock(ahead.timeOfDay),
                            })
                          : ''}
                      </TableCell>
                      <TableCell className="gender-rank" />
                    </>
                  )}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
      {!summary && (
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
          {buttons}
        </Stack>
      )}
    </Paper>
  );
}
