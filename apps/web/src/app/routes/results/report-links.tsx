import type { ReportTable } from '@tempora/contracts';
import { memo, startTransition, useEffect, useState } from 'react';
import { useEventDetail } from '../../../features/live/api.ts';
import { useFavorites } from '../../../lib/favorites/use-favorites.ts';

/**
 * The links' module is asked for as soon as a report page's code runs, beside the report's own
 * calls, but out of its first JavaScript (issue 19's 200 KB budget); the report waits for it as it
 * waits for the event (`useReportLinksReady`), so nothing shifts when the links appear.
 */
type LinksModule = typeof import('../../../features/live/race-view-links.tsx');
/**
 * The module once loaded, rendered as it is: a `lazy` component suspended once more at its first
 * render, after the report had waited for the module, and the links came a frame after the table,
 * pushing it down (CLS 0.14 on a phone, seen under a 4× slower CPU).
 */
let linksLoaded: LinksModule | null = null;
const linksModule = () => {
  const pending = import('../../../features/live/race-view-links.tsx');
  void pending.then((m) => {
    linksLoaded = m;
  });
  return pending;
};
let linksPending: ReturnType<typeof linksModule> | null = null;
const loadLinks = () => {
  linksPending ??= linksModule();
  return linksPending;
};
if (typeof window !== 'undefined') void loadLinks();

/**
 * The live views of a report's race, above its table (issue 19: every view reachable from a
 * report page): the race is the report's group, else the only race of its context. Memoised on
 * the report's keys: the rows' arrivals and patches (transitions) then leave it — and the queries
 * it reads — out of their renders (issue 28: a store changing during a transition that read it
 * makes React render the whole transition again, blocking).
 */
export const ReportLinks = memo(function ReportLinks({
  eventId,
  db,
  group,
}: {
  eventId: string;
  db: ReportTable['db'];
  group: ReportTable['group'];
}) {
  const event = useEventDetail(eventId);
  const { favorites } = useFavorites(eventId);
  const races = event.data?.races ?? [];
  const inContext = races.filter((r) => r.db === db);
  const race = races.find((r) => r.id === group) ?? (inContext.length === 1 ? inContext[0] : undefined);
  // The page shows the links once the module is in (`useReportLinksReady`).
  const RaceViewLinks = linksLoaded?.RaceViewLinks;
  if (!race || !RaceViewLinks) return null;
  return (
    <RaceViewLinks
      eventId={eventId}
      race={race}
      favorites={favorites.size}
      series={event.data?.series}
      map={event.data?.available?.map ?? true}
      timeZone={event.data?.timeZone}
      withEvent
      folded
    />
  );
});

/** Whether `ReportLinks` has what it shows (its event): the report waits for it, not to shift. */
export function useReportLinksReady(eventId: string): boolean {
  const [loaded, setLoaded] = useState(linksLoaded !== null);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    // As a transition: outside an event a state change re-renders the page in one blocking task.
    const done = () => live && startTransition(() => setLoaded(true));
    loadLinks().then(done, done); // a failed chunk shows no links rather than no report
    return () => {
      live = false;
    };
  }, [loaded]);
  return !useEventDetail(eventId).isLoading && loaded;
}
