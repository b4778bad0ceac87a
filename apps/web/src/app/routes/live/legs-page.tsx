import { Box, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { formatDateTime, formatDuration } from '@tempora/domain';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useLegs } from '../../../features/live/api/get-legs.ts';
import { runnerName } from '../../../lib/runner-name.ts';

const num = { fontVariantNumeric: 'tabular-nums' } as const;
const wide = { display: { xs: 'none', sm: 'table-cell' } } as const;

/**
 * `/legs/{db}/race/{race}`: a triathlon (duathlon, swimrun…) or a relay live (issue 31) — per
 * athlete or team the overall rank and time and each leg's time with its rank; a triathlon's
 * split columns (swim, T1, bike, T2, run). On a phone the legs fold under the name; a relay team
 * shows its members and who is on course; a missed cut-off shows its reason.
 */
export default function LegsPage() {
  const { t, i18n } = useTranslation('live');
  const lng = i18n.language === 'fr' ? 'fr' : 'en';
  const { db = '', race = '' } = useParams();
  const table = useLegs(db, race);
  if (table.isPending) return <PageLoading />;
  if (table.isError) return <PageError error={table.error} />;
  const data = table.data;
  // Times of day in the event's zone, named (issue 43).
  const clock = (ms: number) => formatDateTime(ms, data.timeZone, i18n.language, { date: false });
  // A relay's leg is "Leg n" (its end point is an exchange's mat); a multisport leg is its name.
  const legName = (k: number) =>
    data.format === 'relay' ? t('legs.legN', { n: k + 1 }) : (data.legs[k]?.name[lng] ?? '');
  const relay = data.format === 'relay';
  return (
    <>
      <PageHeader
        title={`${t(relay ? 'legs.relayTitle' : 'legs.title')} — ${data.name}`}
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
      <Table size="small" aria-label={t(relay ? 'legs.relayTitle' : 'legs.title')}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 32 }}>{t('laps.rank')}</TableCell>
            <TableCell>{t(relay ? 'legs.team' : 'laps.name')}</TableCell>
            {data.legs.map((leg, k) => (
              <TableCell key={leg.key} align="right" sx={wide}>
                {legName(k)}
              </TableCell>
            ))}
            <TableCell align="right">{t('legs.total')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.rows.map((row) => {
            const out = row.status !== 'onCourse' && row.status !== 'finished' && row.status !== 'notStarted';
            return (
              <TableRow key={row.bib} sx={{ verticalAlign: 'top' }}>
                <TableCell sx={{ fontWeight: 700 }}>{row.rank ?? ''}</TableCell>
                <TableCell>
                  {runnerName(row.name)}{' '}
                  <Typography component="span" variant="caption" color="text.secondary">
                    #{row.bib}
                  </Typography>
                  {out && (
                    <Chip
                      size="small"
                      sx={{ ml: 1 }}
                      color="warning"
                      label={t(`legs.status.${row.status}`, row.status)}
                    />
                  )}
                  {row.currentLeg !== null && (
                    <Chip
                      size="small"
                      sx={{ ml: 1 }}
                      color="info"
                      label={
                        relay
                          ? t('legs.onRelayLeg', { n: row.currentLeg + 1 })
                          : t('legs.onLeg', { leg: legName(row.currentLeg) })
                      }
                    />
                  )}
                  {row.cutoff && (
                    <Typography
                      variant="caption"
                      sx={{ display: 'block' }}
                      color={row.cutoff.overridden ? 'text.secondary' : 'warning.dark'}
                    >
                      {t(`legs.cutoff.${row.cutoff.reason}`, {
                        point:
                          data.legs.find((l) => l.key === row.cutoff!.pointKey)?.name[lng] ??
                          row.cutoff.pointKey,
                        time: clock(row.cutoff.deadlineMs),
                      })}
                      {row.cutoff.overridden ? ` — ${t('legs.cutoff.reinstated')}` : ''}
                    </Typography>
                  )}
                  {relay && row.onCourse.length > 0 && (
                    <Typography variant="caption" sx={{ display: 'block' }} color="info.dark">
                      {t('legs.onCourse', { names: row.onCourse.join(', ') })}
                    </Typography>
                  )}
                  {/* The legs folded under the name on a phone. */}
                  <Box
                    component="ul"
                    aria-label={t('legs.splitsOf', { name: row.name })}
                    sx={{
                      display: { xs: 'flex', sm: 'none' },
                      flexWrap: 'wrap',
                      gap: 0.5,
                      listStyle: 'none',
                      p: 0,
                      m: 0,
                      mt: 0.5,
                    }}
                  >
                    {row.legs.map((cell, k) => (
                      <Typography
                        key={data.legs[k]?.key ?? k}
                        component="li"
                        variant="caption"
                        sx={{ ...num, bgcolor: 'action.hover', borderRadius: 1, px: 0.75 }}
                      >
                        {legName(k)}
                        {relay && row.members[k]?.length ? ` · ${row.members[k]!.join(' & ')}` : ''}{' '}
                        {formatDuration(cell.timeMs) || '–'}
                        {cell.rank !== null ? ` (${cell.rank})` : ''}
                      </Typography>
                    ))}
                  </Box>
                </TableCell>
                {row.legs.map((cell, k) => (
                  <TableCell key={data.legs[k]?.key ?? k} align="right" sx={{ ...num, ...wide }}>
                    {formatDuration(cell.timeMs)}
                    {cell.rank !== null && (
                      <Typography
                        component="span"
                        variant="caption"
                        color="text.secondary"
                        sx={{ display: 'block' }}
                      >
                        {t('legs.rankOf', { rank: cell.rank })}
                      </Typography>
                    )}
                    {relay && row.members[k]?.length ? (
                      <Typography
                        component="span"
                        variant="caption"
                        color="text.secondary"
                        sx={{ display: 'block' }}
                      >
                        {row.members[k]!.join(' & ')}
                      </Typography>
                    ) : null}
                  </TableCell>
                ))}
                <TableCell align="right" sx={{ ...num, fontWeight: 700 }}>
                  {formatDuration(row.totalMs)}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </>
  );
}
