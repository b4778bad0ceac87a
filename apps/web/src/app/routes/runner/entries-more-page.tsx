import { useParams } from 'react-router';
import NotFoundPage from '../not-found-page.tsx';
import EntriesStartListPage from './entries-start-list-page.tsx';
import TeamPage from './team-page.tsx';

/** `/entries/{event}/team/{token}` and `/entries/{event}/start-list` (issue 38): one lazy route. */
export default function EntriesMorePage() {
  const { event, view, token } = useParams();
  // Keyed: another team's link opened from this one starts afresh (its form closed, no old error).
  if (view === 'team' && token) return <TeamPage key={`${event}/${token}`} />;
  if (view === 'start-list' && !token) return <EntriesStartListPage />;
  return <NotFoundPage />;
}
