import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { LapChartRider } from '@tempora/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { runnerName } from '../../../lib/runner-name.ts';

/** Distinct, contrasted line colours (Okabe–Ito, readable by colour-blind spectators). */
const COLOURS = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#000000',
  '#8C564B',
  '#7F7F7F',
  '#B8860B',
];
const LAP_W = 34;
const ROW_H = 26;
const LEFT = 40;
const TOP = 34;
const RIGHT = 56;

/**
 * The lap chart (issue 31): each top rider's position after each lap, one line per rider, as a
 * small SVG (title and description for screen readers) scrolling sideways inside its own box on a
 * phone, with the same figures as a table below (folded) for those who prefer one.
 */
export default function LapChart({ riders }: { riders: LapChartRider[] }) {
  const { t } = useTranslation('live');
  const id = useId();
  const laps = riders.reduce((m, r) => Math.max(m, r.positions.length), 0);
  if (!riders.length || laps === 0) return null;
  const maxPos = riders.reduce((m, r) => Math.max(m, ...r.positions.map((p) => p ?? 0)), riders.length);
  /** Lap numbers 1..laps and positions 1..maxPos: the chart's axes. */
  const lapNos = Array.from({ length: laps }, (_, k) => k + 1);
  const posNos = Array.from({ length: maxPos }, (_, p) => p + 1);
  const width = LEFT + laps * LAP_W + RIGHT;
  const height = TOP + maxPos * ROW_H + 8;
  const x = (k: number) => LEFT + (k + 0.5) * LAP_W;
  const y = (p: number) => TOP + (p - 0.5) * ROW_H;
  return (
    <Box component="section" aria-labelledby={`${id}-h`} sx={{ my: 2 }}>
      <Typography id={`${id}-h`} variant="h6" component="h2">
        {t('laps.chart.title')}
      </Typography>
      <Box sx={{ overflowX: 'auto', maxWidth: '100%' }} data-testid="lap-chart-scroll">
        <svg
          role="img"
          aria-labelledby={`${id}-t ${id}-d`}
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          style={{ display: 'block' }}
        >
          <title id={`${id}-t`}>{t('laps.chart.title')}</title>
          <desc id={`${id}-d`}>{t('laps.chart.desc', { count: riders.length, laps })}</desc>
          <text x={LEFT - 6} y={12} fontSize={11} textAnchor="end" fill="#555">
            {t('laps.chart.lapAxis')}
          </text>
          <text x={4} y={TOP - 4} fontSize={11} fill="#555">
            {t('laps.chart.positionAxis')}
          </text>
          {lapNos.map((n) => (
            <text key={`l${n}`} x={x(n - 1)} y={12} fontSize={12} textAnchor="middle" fill="#555">
              {n}
            </text>
          ))}
          {posNos.map((p) => (
            <text key={`p${p}`} x={LEFT - 6} y={y(p) + 4} fontSize={12} textAnchor="end" fill="#555">
              {p}
            </text>
          ))}
          {riders.map((r, i) => {
            const colour = COLOURS[i % COLOURS.length];
            const points = r.positions.flatMap((p, k) => (p === null ? [] : [`${x(k)},${y(p)}`]));
            const lastK = r.positions.length - 1;
            const lastP = r.positions[lastK];
            return (
              <g key={r.bib}>
                <polyline points={points.join(' ')} fill="none" stroke={colour} strokeWidth={2} />
                {lapNos.map((n) => {
                  const p = r.positions[n - 1];
                  return p == null ? null : <circle key={n} cx={x(n - 1)} cy={y(p)} r={3} fill={colour} />;
                })}
                {lastP != null && (
                  <text x={x(lastK) + 8} y={y(lastP) + 3} fontSize={12} fill={colour} fontWeight={700}>
                    #{r.bib}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </Box>
      <Box component="details" sx={{ mt: 1 }}>
        <summary>{t('laps.chart.asTable')}</summary>
        <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>
          <Table size="small" aria-label={t('laps.chart.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('laps.name')}</TableCell>
                {lapNos.map((n) => (
                  <TableCell key={n} align="right">
                    {t('laps.chart.lapN', { n })}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {riders.map((r) => (
                <TableRow key={r.bib}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {runnerName(r.name)} #{r.bib}
                  </TableCell>
                  {lapNos.map((n) => (
                    <TableCell key={n} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {r.positions[n - 1] ?? '–'}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </Box>
    </Box>
  );
}
