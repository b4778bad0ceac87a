import { useParams } from 'react-router';
import { ReportList } from '../../../features/results/components/report-list.tsx';
import { useResultsBase } from './use-results-base.ts';

/** `/results/{eventId}/reportlist` and `/events/{eventId}/reportlist`: groups → report links. */
export default function ReportListPage() {
  const { eventId = '' } = useParams();
  const base = useResultsBase(eventId);
  return <ReportList eventId={eventId} base={base} />;
}
