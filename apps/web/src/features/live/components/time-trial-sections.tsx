import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { TimeTrialBoard } from '@tempora/contracts';
import {
  countdownMs,
  formatDateTime,
  formatDuration,
  formatGap,
  predictedFinishShown,
  tickRaceClock,
  wallClock,
} from '@tempora/domain';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pointName } from '../../../lib/point-name.ts';
import { HotSeat, num, RiderName, Section } from './time-trial-parts.tsx';

/** The clock, once a second (elapsed times of riders on course, countdowns to the next starts). */
function useNow(everyMs = 1000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * A time trial's live board (the `/live/clm` page): the hot seat, the riders on course with their
 * rank and gap at their last point and a predicted finish, the latest finishers, the standings and
 * the next starters. `fetchedAt`: when the board was fetched, from which its race clock ticks on.
 */
export function TimeTrialSections({ board: b, fetchedAt }: { board: TimeTrialBoard; fetchedAt: number }) {
  const { t, i18n } = useTranslation('live');
  const wallNow = useNow();
  // Race time ticks on from the board's clock, at the race's rate (a replay runs faster); times
  // of day on the wall clock, in the event's zone (packages/domain live-boards).
  const now = tickRaceClock(b.now, fetchedAt, wallNow, b.clockRate);
  // Start times named with the zone (issue 43): a reader may be elsewhere.
  const clock = (raceMs: number) =>
    formatDateTime(wallClock(b.gunTimeMs, b.clockRate, raceMs), b.timeZone, i18n.language, {
      date: false,
      seconds: true,
    });
  const gap = (ms: number | null | undefined) => formatGap(ms, i18n.language);
  const reachedPoint = (p: number) =>
    p >= 0 ? (b.points[p] ? pointName(b.points[p], i18n.language) : '') : t('clm.started');
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr', lg: '2fr 1fr' },
        alignItems: 'start',
      }}
    >
      <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
        <HotSeat rider={b.hotSeat} />
        <Section title={t('clm.onCourse')} count={b.onCourseCount}>
          {b.onCourse.length === 0 ? (
            <Typography color="text.secondary">{t('clm.nobodyOnCourse')}</Typography>
          ) : (
            <Box sx={{ overflowX: 'auto' }}>
              <Table
                size="small"
                aria-label={t('clm.onCourse')}
                sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}
              >
                <TableHead>
                  <TableRow>
                    <TableCell>{t('clm.rider')}</TableCell>
                    <TableCell align="right">{t('clm.elapsed')}</TableCell>
                    <TableCell>{t('clm.lastPoint')}</TableCell>
                    <TableCell align="right">{t('time')}</TableCell>
                    <TableCell align="right">{t('rank')}</TableCell>
                    <TableCell align="right">{t('gap')}</TableCell>
                    <TableCell align="right">{t('clm.predicted')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {b.onCourse.map((r) => {
                    const elapsed = r.startMs !== null && now > r.startMs ? now - r.startMs : null;
                    return (
                      <TableRow key={r.bib} data-bib={r.bib}>
                        <TableCell>
                          <RiderName rider={r} />
                        </TableCell>
                        <TableCell align="right" sx={num} data-testid="clm-elapsed">
                          {elapsed === null ? '' : formatDuration(elapsed)}
                        </TableCell>
                        <TableCell>{reachedPoint(r.lastPoint)}</TableCell>
                        <TableCell align="right" sx={num}>
                          {formatDuration(r.netMs)}
                        </TableCell>
                        <TableCell align="right" sx={{ ...num, fontWeight: 700 }}>
                          {r.rank ?? ''}
                        </TableCell>
                        <TableCell
                          align="right"
                          sx={{ ...num, color: r.gapMs === 0 ? 'success.main' : undefined }}
                        >
                          {r.gapMs === 0 ? t('clm.best') : gap(r.gapMs)}
                        </TableCell>
                        <TableCell align="right" sx={num} data-testid="clm-predicted">
                          {formatDuration(predictedFinishShown(r.predictedFinishNetMs, elapsed))}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </Box>
          )}
        </Section>
        {/* The count is every finisher's (issue 27); the board lists the first of them. */}
        <Section title={t('clm.standings')} count={b.finishers ?? b.standings.length}>
          {b.standings.length === 0 ? (
            <Typography color="text.secondary">{t('clm.nobodyFinished')}</Typography>
          ) : (
            <Table size="small" aria-label={t('clm.standings')}>
              <TableBody>
                {b.standings.map((r) => (
                  <TableRow key={r.bib}>
                    <TableCell sx={{ fontWeight: 700, width: 40 }}>{r.rank}</TableCell>
                    <TableCell>
                      <RiderName rider={r} />
                    </TableCell>
                    <TableCell align="right" sx={{ ...num, fontWeight: 700 }}>
                      {formatDuration(r.netMs)}
                    </TableCell>
                    <TableCell align="right" sx={num}>
                      {gap(r.gapMs)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {b.finishers > b.standings.length && (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ mt: 1 }}
              data-testid="clm-standings-more"
            >
              {t('clm.firstOf', { shown: b.standings.length, count: b.finishers })}
            </Typography>
          )}
        </Section>
      </Box>
      <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
        <Section title={t('clm.latest')} count={b.latestFinishers.length}>
          {b.latestFinishers.length === 0 ? (
            <Typography color="text.secondary">{t('clm.nobodyFinished')}</Typography>
          ) : (
            <Table size="small" aria-label={t('clm.latest')}>
              <TableBody>
                {b.latestFinishers.map((r) => (
                  <TableRow key={r.bib}>
                    <TableCell>
                      <RiderName rider={r} />
                    </TableCell>
                    <TableCell align="right" sx={num}>
                      {formatDuration(r.netMs)}
                    </TableCell>
                    <TableCell align="right" sx={{ fontWeight: 700 }}>
                      {r.rank ? `${r.rank}` : ''}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Section>
        <Section title={t('clm.nextStarters')} count={b.nextStarters.length}>
          {b.nextStarters.length === 0 ? (
            <Typography color="text.secondary">{t('clm.nobodyWaiting')}</Typography>
          ) : (
            <Table size="small" aria-label={t('clm.nextStarters')}>
              <TableBody>
                {b.nextStarters.map((r) => (
                  <TableRow key={r.bib}>
                    <TableCell>
                      <RiderName rider={r} />
                    </TableCell>
                    <TableCell align="right" sx={num}>
                      {clock(r.startAt)}
                    </TableCell>
                    <TableCell align="right" sx={num}>
                      {countdownMs(r.startAt, now) ? `−${formatDuration(countdownMs(r.startAt, now))}` : ''}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Section>
      </Box>
    </Box>
  );
}
