import {
  Alert,
  Box,
  Chip,
  Paper,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { seriesQuery, useSeries } from '../../../features/content/api/series.ts';
import { dateTimeFormat, numberFormat } from '../../../lib/intl.ts';
import { useChannelEvent, useReconnectCatchUp } from '../../../lib/realtime/realtime-provider.tsx';

/**
 * `/misc/crac/{context}`: a challenge's standings per category: points per race (from the
 * series' points table) and the total; ties share a rank. Live: `standings-changed` on
 * `series-{context}` refetches while one of its races is live.
 */
export default function SeriesPage() {
  const { t, i18n } = useTranslation('content');
  const { context = '' } = useParams();
  const client = useQueryClient();
  const series = useSeries(context);
  const [tab, setTab] = useState(0);
  const refresh = () => void client.invalidateQueries({ queryKey: seriesQuery(context).queryKey });
  useChannelEvent(`series-${context}`, 'standings-changed', refresh);
  useReconnectCatchUp(refresh);
  if (series.isPending) return <PageLoading />;
  if (series.isError)
    return (
      <>
        <PageHeader title={t('series.title')} crumbs={[[t('series.title')]]} />
        <PageError error={series.error} />
      </>
    );
  const s = series.data;
  const date = dateTimeFormat(i18n.language.startsWith('fr') ? 'fr-BE' : 'en-GB', {
    dateStyle: 'medium',
    timeZone: 'UTC',
  });
  const number = numberFormat(i18n.language);
  const category = s.categories[Math.min(tab, s.categories.length - 1)];
  return (
    <>
      <PageHeader
        title={s.name}
        crumbs={[[t('series.title')], [s.name]]}
        actions={s.live ? <Chip color="error" label={t('status.live')} /> : null}
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="h6" component="h2" sx={{ fontSize: 17, mb: 1 }}>
          {t('series.races')}
        </Typography>
        <Box component="ol" sx={{ m: 0, pl: 3 }}>
          {s.races.map((race) => (
            <li key={race.key}>
              {race.name} · {date.format(new Date(race.date))}{' '}
              {race.live && <Chip size="small" color="error" label={t('status.live')} sx={{ ml: 1 }} />}
            </li>
          ))}
        </Box>
        <Typography color="text.secondary" sx={{ mt: 1, fontSize: 14 }}>
          {t('series.pointsTable', { points: s.pointsTable.map((p) => number.format(p)).join(' · ') })}
        </Typography>
      </Paper>
      {s.categories.length === 0 || !category ? (
        <Alert severity="info">{t('series.empty')}</Alert>
      ) : (
        <>
          <Tabs
            value={Math.min(tab, s.categories.length - 1)}
            onChange={(_, v: number) => setTab(v)}
            variant="scrollable"
            aria-label={t('series.categories')}
            sx={{ mb: 1 }}
          >
            {s.categories.map((c) => (
              <Tab key={c.category} label={c.category} />
            ))}
          </Tabs>
          {/* Focusable and named: it scrolls sideways on a phone (issue 19, axe scrollable-region-focusable). */}
          <TableContainer
            component={Paper}
            variant="outlined"
            tabIndex={0}
            role="region"
            aria-label={t('series.standingsOf', { category: category.category })}
          >
            <Table size="small" aria-label={t('series.standingsOf', { category: category.category })}>
              <TableHead>
                <TableRow>
                  <TableCell align="right">{t('series.rank')}</TableCell>
                  <TableCell>{t('series.name')}</TableCell>
                  {/* Issue 19: the total beside the name, so a phone shows it without scrolling. */}
                  <TableCell align="right" sx={{ fontWeight: 700 }}>
                    {t('series.total')}
                  </TableCell>
                  {s.races.map((race) => (
                    <TableCell key={race.key} align="right">
                      {race.name}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {category.standings.map((row) => (
                  <TableRow key={row.athleteKey} hover>
                    <TableCell align="right">{row.rank}</TableCell>
                    <TableCell sx={{ fontWeight: 500 }}>{row.name}</TableCell>
                    <TableCell align="right" sx={{ fontWeight: 700 }}>
                      {number.format(row.total)}
                    </TableCell>
                    {s.races.map((race) => (
                      <TableCell key={race.key} align="right">
                        {race.key in row.points ? number.format(row.points[race.key]!) : '–'}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
    </>
  );
}
