import type { ReportTable } from '@tempora/contracts';
import { useEventDetail } from '../../../features/live/api.ts';
import { RaceViewLinks } from '../../../features/live/race-view-links.tsx';
import { useFavorites } from '../../../features/results/hooks/use-favorites.ts';

/**
 * The live views of a report's race, above its table (issue 19: every view reachable from a
 * report page): the race is the report's group, else the only race of its context.
 */
export function ReportLinks({ eventId, table }: { eventId: string; table: ReportTable }) {
  const event = useEventDetail(eventId);
  const { favorites } = useFavorites(eventId);
  const races = event.data?.races ?? [];
  const inContext = races.filter((r) => r.db === table.db);
  const race = races.find((r) => r.id === table.group) ?? (inContext.length === 1 ? inContext[0] : undefined);
  if (!race) return null;
  return (
    <RaceViewLinks
      eventId={eventId}
      race={race}
      favorites={favorites.size}
      series={event.data?.series}
      withEvent
    />
  );
}

/** Whether `ReportLinks` has what it shows (its event): the report waits for it, not to shift. */
export function useReportLinksReady(eventId: string): boolean {
  return !useEventDetail(eventId).isLoading;
}
