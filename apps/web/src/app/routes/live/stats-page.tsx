import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { paths } from '../../../config/paths.ts';
import { useContextRaces } from '../../../features/live/api/get-context-races.ts';
import { useRaceStats } from '../../../features/live/api/get-race-stats.ts';
import { useEventName } from '../../../features/live/api.ts';
import { RaceStatsCards } from '../../../features/live/components/race-stats-cards.tsx';
import { TeamStandings } from '../../../features/live/components/team-standings.tsx';

/**
 * `…/ctx/{db}/generic/{path}/stats/{key}`: live statistics of race `key` of context `db` (the
 * context's first race when `key` names none): counts, per point, finish-time histogram,
 * categories, average pace, leaders' gaps — as bars and as accessible tables.
 */
export default function StatsPage() {
  const { t } = useTranslation('live');
  const { eventId = '', db = '', key = '', path = 'results' } = useParams();
  const eventName = useEventName(eventId);
  const races = useContextRaces(db);
  const raceId = races.data?.find((r) => r.id === key)?.id ?? races.data?.[0]?.id;
  const stats = useRaceStats(db, raceId);
  if (races.isError || stats.isError) return <PageError error={races.error ?? stats.error} />;
  if (!stats.data) return <PageLoading />;
  const s = stats.data;
  return (
    <>
      <PageHeader
        title={`${t('stats')} — ${s.name}`}
        documentTitle={`${eventName} · ${s.name} · ${t('stats')}`}
        crumbs={[[eventName, paths.eventHome(eventId)], [t('stats')]]}
      />
      <RaceStatsCards stats={s} />
      {raceId && <TeamStandings eventId={eventId} db={db} path={path} raceId={raceId} />}
    </>
  );
}
