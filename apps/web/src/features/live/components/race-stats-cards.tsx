import {
  Box,
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { RaceStats } from '@tempora/contracts';
import { formatCount, formatDuration, formatGap, formatPace } from '@tempora/domain';
import { useTranslation } from 'react-i18next';
import { pointName } from '../../../lib/point-name.ts';

/**
 * Horizontal bars (CSS, no chart library) that are also an accessible table: each row a label
 * (row header), its bar (decorative) and its value, scaled to the largest.
 */
function Bars({ label, items }: { label: string; items: { label: string; value: number }[] }) {
  const { i18n } = useTranslation();
  const max = Math.max(1, ...items.map((i) => i.value));
  return (
    <Box
      component="table"
      aria-label={label}
      sx={{ display: 'block', width: '100%', borderCollapse: 'collapse' }}
    >
      <Box component="tbody" sx={{ display: 'grid', gap: 0.5 }}>
        {items.map((item) => (
          <Box
            component="tr"
            key={item.label}
            sx={{
              display: 'grid',
              gridTemplateColumns: '110px 1fr 56px',
              alignItems: 'center',
              gap: 1,
              fontSize: 13,
            }}
          >
            <Box component="th" scope="row" sx={{ fontWeight: 400, textAlign: 'left', p: 0 }}>
              {item.label}
            </Box>
            <Box component="td" aria-hidden sx={{ p: 0 }}>
              <Box
                sx={{
                  height: 14,
                  bgcolor: 'primary.main',
                  borderRadius: 0.5,
                  width: `${(item.value / max) * 100}%`,
                  minWidth: item.value ? 2 : 0,
                }}
              />
            </Box>
            <Box component="td" sx={{ textAlign: 'right', p: 0, fontVariantNumeric: 'tabular-nums' }}>
              {formatCount(item.value, i18n.language)}
            </Box>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/**
 * A race's live statistics (the stats page): counts, per point, finish-time histogram,
 * categories, average pace, leaders' gaps — as bars and as accessible tables.
 */
export function RaceStatsCards({ stats: s }: { stats: RaceStats }) {
  const { t, i18n } = useTranslation('live');
  const countItems = (['registered', 'started', 'onCourse', 'finished', 'dnf', 'dns'] as const).map((k) => ({
    label: t(`counts.${k}`),
    value: s.counts[k],
  }));
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('participants')}
          </Typography>
          <Bars label={t('participants')} items={countItems} />
          {s.averagePaceMsPerKm !== null && (
            <Typography sx={{ mt: 1 }}>
              {t('averagePace', { pace: formatPace(s.averagePaceMsPerKm) })}
            </Typography>
          )}
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('perPoint')}
          </Typography>
          <Bars
            label={t('perPoint')}
            items={s.points.map((p) => ({ label: pointName(p, i18n.language), value: p.passed }))}
          />
          <Table size="small" aria-label={t('atPoints.title')} sx={{ mt: 2 }}>
            <TableHead>
              <TableRow>
                <TableCell>{t('point')}</TableCell>
                <TableCell align="right">{t('atPoints.passed')}</TableCell>
                <TableCell align="right">{t('atPoints.onCourse')}</TableCell>
                <TableCell align="right">{t('atPoints.dnf')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {s.points.map((p) => (
                <TableRow key={p.key}>
                  <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                    {pointName(p, i18n.language)}
                  </TableCell>
                  <TableCell align="right">{formatCount(p.passed, i18n.language)}</TableCell>
                  <TableCell align="right">{formatCount(p.onCourse, i18n.language)}</TableCell>
                  <TableCell align="right">{formatCount(p.dnf, i18n.language)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('histogram')}
          </Typography>
          {s.histogram.length === 0 ? (
            <Typography color="text.secondary">{t('nobodyYet')}</Typography>
          ) : (
            <Bars
              label={t('histogram')}
              items={s.histogram.map((h) => ({
                label: `${formatDuration(h.fromMs)}–${formatDuration(h.toMs)}`,
                value: h.count,
              }))}
            />
          )}
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('categories')}
          </Typography>
          <Table size="small" aria-label={t('categories')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('category')}</TableCell>
                <TableCell align="right">{t('counts.registered')}</TableCell>
                <TableCell align="right">{t('counts.finished')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {s.categories.map((c) => (
                <TableRow key={c.id}>
                  <TableCell>{c.name}</TableCell>
                  <TableCell align="right">{formatCount(c.registered, i18n.language)}</TableCell>
                  <TableCell align="right">{formatCount(c.finished, i18n.language)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
      <Card variant="outlined" sx={{ gridColumn: { md: 'span 2' } }}>
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('leaderGaps')}
          </Typography>
          <Table size="small" aria-label={t('leaderGaps')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('point')}</TableCell>
                {[2, 3, 5, 10].map((r) => (
                  <TableCell key={r} align="right">
                    {t('gapTo', { rank: r })}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {s.leaderGaps.map((g) => (
                <TableRow key={g.key}>
                  <TableCell>
                    {pointName(s.points.find((p) => p.key === g.key) ?? { name: g.key }, i18n.language)}
                  </TableCell>
                  {g.gaps.map((gap, k) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the columns are the fixed ranks 2, 3, 5, 10.
                    <TableCell key={k} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {gap === null ? '' : formatGap(gap, i18n.language)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </Box>
  );
}
