import { Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { formatDateTime, formatDuration } from '@tempora/domain';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useLaps } from '../../../features/live/api/get-laps.ts';
import { numberFormat } from '../../../lib/intl.ts';
import { runnerName } from '../../../lib/runner-name.ts';

/** The lap chart's own chunk: the table shows first, the chart when it arrives. */
const LapChart = lazy(() => import('./lap-chart.tsx'));

const km = (m: number, language: string) =>
  numberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(m / 1000);

/**
 * `/laps/{db}/race/{race}`: a lap race live (issue 31) — criterium, 24 h or backyard: rank, laps,
 * last and best lap, and for time-limited races the distance and the projected final distance.
 */
export default function LapsPage() {
  const { t, i18n } = useTranslation('live');
  const { db = '', race = '' } = useParams();
  const table = useLaps(db, race);
  if (table.isPending) return <PageLoading />;
  if (table.isError) return <PageError error={table.error} />;
  const data = table.data;
  const byDistance = data.format === 'timeLimited';
  // Times of day in the event's zone, named (issue 43).
  const clock = (ms: number) => formatDateTime(ms, data.timeZone, i18n.language, { date: false });
  return (
    <>
      <PageHeader
        title={`${t('laps.title')} — ${data.name}`}
        crumbs={[[t('leaders'), paths.leaders(db)], [data.name]]}
      />
      <Chip
        size="small"
        color={data.publication.state === 'official' ? 'success' : 'default'}
        sx={{ mb: 1 }}
        label={t(`laps.publication.${data.publication.state}`, {
          time: data.publication.protestEndsMs ? clock(data.publication.protestEndsMs) : '',
        })}
      />
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {data.lapsToGo !== null
          ? t('laps.toGo', { count: data.lapsToGo })
          : t('laps.leader', { count: data.leaderLaps })}
      </Typography>
      <Table size="small" aria-label={t('laps.title')}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 32 }}>{t('laps.rank')}</TableCell>
            <TableCell>{t('laps.name')}</TableCell>
            <TableCell align="right">{t('laps.laps')}</TableCell>
            {/* A time-limited race on a phone: laps and km matter most; the last lap on wider screens. */}
            <TableCell
              align="right"
              sx={byDistance ? { display: { xs: 'none', sm: 'table-cell' } } : undefined}
            >
              {t('laps.lastLap')}
            </TableCell>
            <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
              {t('laps.bestLap')}
            </TableCell>
            {byDistance && <TableCell align="right">{t('laps.distance')}</TableCell>}
            {byDistance && (
              <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                {t('laps.projected')}
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {data.rows.map((row) => (
            <TableRow key={row.bib}>
              <TableCell sx={{ fontWeight: 700 }}>{row.rank ?? ''}</TableCell>
              <TableCell>
                {runnerName(row.name)}{' '}
                <Typography component="span" variant="caption" color="text.secondary">
                  #{row.bib}
                </Typography>
                {row.lapsDown > 0 && row.laps > 0 && (
                  <Chip size="small" sx={{ ml: 1 }} label={t('laps.down', { count: row.lapsDown })} />
                )}
                {row.status !== 'onCourse' && row.status !== 'finished' && row.status !== 'notStarted' && (
                  <Chip
                    size="small"
                    sx={{ ml: 1 }}
                    color={row.cutoff && !row.cutoff.overridden ? 'warning' : 'default'}
                    label={t(`laps.status.${row.status}`, row.status)}
                  />
                )}
                {row.cutoff && (
                  <Typography
                    variant="caption"
                    sx={{ display: 'block' }}
                    color={row.cutoff.overridden ? 'text.secondary' : 'warning.dark'}
                  >
                    {t(`laps.cutoff.${row.cutoff.reason}`, {
                      lap: row.cutoff.lap,
                      time: clock(row.cutoff.deadlineMs),
                    })}
                    {row.cutoff.overridden ? ` — ${t('laps.cutoff.reinstated')}` : ''}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 700 }}>
                {row.laps}
              </TableCell>
              <TableCell
                align="right"
                sx={{
                  fontVariantNumeric: 'tabular-nums',
                  ...(byDistance ? { display: { xs: 'none', sm: 'table-cell' } } : {}),
                }}
              >
                {formatDuration(row.lastLapMs)}
              </TableCell>
              <TableCell
                align="right"
                sx={{ fontVariantNumeric: 'tabular-nums', display: { xs: 'none', sm: 'table-cell' } }}
              >
                {formatDuration(row.bestLapMs)}
              </TableCell>
              {byDistance && (
                <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {km(row.distanceM, i18n.language)}
                </TableCell>
              )}
              {byDistance && (
                <TableCell
                  align="right"
                  sx={{ fontVariantNumeric: 'tabular-nums', display: { xs: 'none', sm: 'table-cell' } }}
                >
                  {row.projectedDistanceM === null ? '' : km(row.projectedDistanceM, i18n.language)}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {data.chart.length > 0 && (
        <Suspense fallback={null}>
          <LapChart riders={data.chart} />
        </Suspense>
      )}
    </>
  );
}
