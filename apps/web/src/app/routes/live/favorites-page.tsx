import { Box, FormControlLabel, Switch, Typography } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useEventDetail } from '../../../features/live/api.ts';
import { FavoritePassingNotifier, useNotifyChoice } from '../../../features/live/favorite-notifications.tsx';
import { ReportTable } from '../../../features/results/components/report-table.tsx';
import { useFavorites } from '../../../features/results/hooks/use-favorites.ts';
import { useLiveReport } from '../../../features/results/hooks/use-live-report.ts';

// Messages only: loaded when one shows (issue 19: this page's first JS is at its budget).
const Alert = lazy(() => import('@mui/material/Alert'));

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

/**
 * Opt-in browser notifications when a favourite passes a timing point (issue 7): asked for only
 * when the spectator turns the switch on; the choice is kept per event.
 */
function NotifySwitch({
  eventId,
  dbs,
  favorites,
}: {
  eventId: string;
  dbs: string[];
  favorites: ReadonlySet<string>;
}) {
  const { t } = useTranslation('live');
  const [on, setOn] = useNotifyChoice(eventId);
  const [denied, setDenied] = useState(false);
  if (typeof Notification === 'undefined') return null;
  const active = on && Notification.permission === 'granted';
  return (
    <Box sx={{ mb: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={active}
            onChange={async (e) => {
              if (!e.target.checked) return setOn(false);
              const permission =
                Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
              setDenied(permission !== 'granted');
              setOn(permission === 'granted');
            }}
          />
        }
        label={t('notify.switch')}
      />
      {denied && (
        <Suspense fallback={<Typography sx={{ mt: 1 }}>{t('notify.denied')}</Typography>}>
          <Alert severity="warning" sx={{ mt: 1 }}>
            {t('notify.denied')}
          </Alert>
        </Suspense>
      )}
      {active && dbs.map((db) => <FavoritePassingNotifier key={db} db={db} favorites={favorites} />)}
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
        crumbs={[[event.data.name, paths.eventHome(eventId)], [t('favorites')]]}
      />
      {favorites.size > 0 && <NotifySwitch eventId={eventId} dbs={dbs} favorites={favorites} />}
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
