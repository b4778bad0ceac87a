import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { MyResult, PersonalBest } from '@tempora/contracts';
import { formatDuration } from '@tempora/domain';
import { useTranslation } from 'react-i18next';

/** Groups results by a key (Map.groupBy is ES2024). */
function groupBy<K>(list: readonly MyResult[], key: (r: MyResult) => K): Map<K, MyResult[]> {
  const groups = new Map<K, MyResult[]>();
  for (const r of list) {
    const k = key(r);
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return groups;
}

const km = (m: number, lng: string) => (m / 1000).toLocaleString(lng, { maximumFractionDigits: 3 });

/** My best finish per distance. */
export function PersonalBests({ bests }: { bests: readonly PersonalBest[] }) {
  const { t, i18n } = useTranslation('runner');
  if (!bests.length) return null;
  return (
    <Box component="section" aria-labelledby="personal-bests" sx={{ mb: 3 }}>
      <Typography id="personal-bests" variant="h6" component="h2">
        {t('bests')}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3 }} data-testid="personal-bests">
        {bests.map((b) => (
          <li key={b.distanceM}>
            {t('bestAt', {
              distance: t('distance', { km: km(b.distanceM, i18n.language) }),
              time: formatDuration(b.netMs),
              event: b.eventName,
              year: b.date.slice(0, 4),
            })}
          </li>
        ))}
      </Box>
    </Box>
  );
}

/**
 * My finish times over the years: one dot per finished race, by date (x) and time (y, faster
 * higher), one line per distance; the same list in words for screen readers.
 */
export function TimesChart({ results }: { results: readonly MyResult[] }) {
  const { t } = useTranslation('runner');
  const finished = results.filter((r) => r.status === 'finished' && r.netMs !== null);
  if (finished.length < 2) return null;
  const x = finished.map((r) => Date.parse(r.date));
  const y = finished.map((r) => r.netMs!);
  const [x0, x1] = [Math.min(...x), Math.max(...x)];
  const [y0, y1] = [Math.min(...y), Math.max(...y)];
  const W = 320;
  const H = 140;
  const px = (v: number) => 20 + ((v - x0) / Math.max(1, x1 - x0)) * (W - 40);
  const py = (v: number) => 20 + ((v - y0) / Math.max(1, y1 - y0)) * (H - 40);
  const byDistance = groupBy(finished, (r) => r.distanceM ?? 0);
  const words = finished.map((r) => `${r.date.slice(0, 4)} ${formatDuration(r.netMs)}`).join(', ');
  return (
    <Box component="figure" sx={{ m: 0, mb: 3 }}>
      <Typography component="figcaption" variant="h6">
        {t('chart')}
      </Typography>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        style={{ maxWidth: 480 }}
        role="img"
        aria-label={t('chartLabel', { list: words })}
      >
        {[...byDistance.values()].map((list) => {
          const sorted = [...list].sort((a, b) => a.date.localeCompare(b.date));
          return (
            <g key={sorted[0]!.participantId}>
              <polyline
                fill="none"
                stroke="#1f6f99"
                strokeWidth="2"
                points={sorted.map((r) => `${px(Date.parse(r.date))},${py(r.netMs!)}`).join(' ')}
              />
              {sorted.map((r) => (
                <g key={r.participantId}>
                  <circle cx={px(Date.parse(r.date))} cy={py(r.netMs!)} r="4" fill="#b33a17" />
                  <text x={px(Date.parse(r.date))} y={py(r.netMs!) - 8} fontSize="10" textAnchor="middle">
                    {formatDuration(r.netMs)}
                  </text>
                  <text x={px(Date.parse(r.date))} y={H - 4} fontSize="10" textAnchor="middle">
                    {r.date.slice(0, 4)}
                  </text>
                </g>
              ))}
            </g>
          );
        })}
      </svg>
    </Box>
  );
}

/** The same distance year after year, side by side: one column per year. */
export function YearAfterYear({ results }: { results: readonly MyResult[] }) {
  const { t, i18n } = useTranslation('runner');
  const finished = results.filter((r) => r.status === 'finished' && r.distanceM);
  const groups = [...groupBy(finished, (r) => r.distanceM!).entries()].filter(([, list]) => list.length > 1);
  if (!groups.length) return null;
  return (
    <Box component="section" aria-labelledby="year-after-year" sx={{ mb: 3, overflowX: 'auto' }}>
      <Typography id="year-after-year" variant="h6" component="h2">
        {t('sideBySide')}
      </Typography>
      {groups.map(([distance, list]) => {
        const sorted = [...list].sort((a, b) => a.date.localeCompare(b.date));
        return (
          <Table key={distance} size="small" aria-label={t('distance', { km: km(distance, i18n.language) })}>
            <TableHead>
              <TableRow>
                <TableCell>{t('distance', { km: km(distance, i18n.language) })}</TableCell>
                {sorted.map((r) => (
                  <TableCell key={r.participantId}>{r.date.slice(0, 4)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              <TableRow>
                <TableCell component="th">{t('time')}</TableCell>
                {sorted.map((r) => (
                  <TableCell key={r.participantId}>{formatDuration(r.netMs)}</TableCell>
                ))}
              </TableRow>
              <TableRow>
                <TableCell component="th">{t('rankOverall')}</TableCell>
                {sorted.map((r) => (
                  <TableCell key={r.participantId}>{r.rankOverall ?? '—'}</TableCell>
                ))}
              </TableRow>
            </TableBody>
          </Table>
        );
      })}
    </Box>
  );
}
