import { useLocation } from 'react-router';

/** Base of the report routes: `/results/{eventId}` or `/events/{eventId}` (spec §2 has both). */
export function useResultsBase(eventId: string): string {
  const { pathname } = useLocation();
  const root = pathname.startsWith('/results/') ? 'results' : 'events';
  return `/${root}/${encodeURIComponent(eventId)}`;
}
