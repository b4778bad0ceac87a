import { useParams } from 'react-router';
import { PageError, PageLoading } from '../../../components/page-state.tsx';
import { useConsoleEvent } from '../../../features/console/api/events.ts';
import { EventEditor } from '../../../features/console/components/event-editor.tsx';

/** `/console/events/{eventId}`: the event's details, place, time zone, branding, visibility, status. */
export default function EventDetailsPage() {
  const { eventId = '' } = useParams();
  const event = useConsoleEvent(eventId);
  if (event.isPending) return <PageLoading />;
  if (event.isError) return <PageError error={event.error} />;
  // Keyed by the event's state so that a saved change resets the form to the server's values.
  return <EventEditor key={JSON.stringify(event.data)} event={event.data} />;
}
