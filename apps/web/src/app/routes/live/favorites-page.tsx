import { Box, Typography } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useEventDetail } from '../../../features/live/api.ts';
import { ReportTable } from '../../../features/results/components/report-table.tsx';
import { useFavorites } from '../../../lib/favorites/use-favorites.ts';
import { useLiveReport } from '../../../features/results/hooks/use-live-report.ts';

// Messages only: loaded when one shows (issue 19: this page's first JS is at its budget).
const Alert = lazy(() => import('@mui/material/Alert'));
// The notifications switch follows the table (issue 19: the page's first JS under 200 KB).
const NotifySwitch = lazy(() =>
  import('../../../features/live/notify-switch.tsx').then((m) => ({ default: m.NotifySwitch })),
);

function RaceFavorites({ eventId, raceId, name }: { eventId: string; raceId: string; name: string }) {
  const { t } = useTranslation('live');
  const report = useLiveReport({ eventId, group: raceId, report: 'LIVE1' });
  const { favorites, toggle } = useFavorites(eventId);
  if (report.isPending) return <PageLoading />;
  if (report.isError) return <PageError error={report.error} />;
  const rows = report.data.rows.filter((row) => favorites.has(String(row[report.data.keyField])));
  if (rows.length === 0) return null;
  // As tall as its rows (issue 19: a fixed 300 px left a blank area under two favourites on a
  // phone), scrolling past 70 % of the screen.
  return (
    <Box sx={{ mb: 3, '& [data-testid=report-table]': { minHeight: 0, maxHeight: '70dvh' } }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {name}
      </Typography>
      <ReportTable
        table={report.data}
        rows={rows}
        favorites={favorites}
        onToggleFavorite={toggle}
        changed={report.changed}
        height="auto"
      />
      <Typography variant="caption" color="text.secondary">
        {t('favoritesCount', { count: rows.length })}
      </Typography>
    </Box>
  );
}

/** `/events/{eventId}/favorites`: the event's starred rows (spec §3: a set of row keys), live. */
export default function FavoritesPage() {
  const { t } = useTranslation('live');
  const { eventId = '' } = useParams();
  const event = useEventDetail(eventId);
  const { favorites } = useFavorites(eventId);
  if (event.isPending) return <PageLoading />;
  if (event.isError) return <PageError error={event.error} />;
  const dbs = [...new Set(event.data.contexts.map((c) => c.db))];
  return (
    <>
      <PageHeader
        title={t('favorites')}
        documentTitle={`${event.data.name} · ${t('favorites')}`}
        crumbs={[[event.data.name, paths.eventHome(eventId)], [t('favorites')]]}
      />
      {favorites.size > 0 && typeof Notification !== 'undefined' && (
        // As tall as the switch meanwhile: the table below does not move when it shows.
        <Suspense fallback={<Box sx={{ height: 38, mb: 2 }} />}>
          <NotifySwitch eventId={eventId} dbs={dbs} favorites={favorites} />
        </Suspense>
      )}
      {favorites.size === 0 ? (
        <Suspense fallback={<Typography>{t('noFavorites')}</Typography>}>
          <Alert severity="info">{t('noFavorites')}</Alert>
        </Suspense>
      ) : (
        event.data.races.map((race) => (
          <RaceFavorites key={race.id} eventId={eventId} raceId={race.id} name={race.name} />
        ))
      )}
    </>
  );
}
