import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ReportView } from '../../../features/results/components/report-view.tsx';
import { ReportLinks, useReportLinksReady } from './report-links.tsx';

/** `/events/{eventId}/ctx/{db}/generic/{path}/home/{key}`: report `key` of context `db`. */
export default function GenericReportPage() {
  const { eventId = '', db = '', key = '' } = useParams();
  const { t } = useTranslation('results');
  const linksReady = useReportLinksReady(eventId);
  return (
    <ReportView
      key={`${db}/${key}`}
      source={{ db, report: key }}
      eventId={eventId}
      links={(table) => <ReportLinks eventId={eventId} db={table.db} group={table.group} />}
      linksReady={linksReady}
      chrome
      crumbs={[[t('reportList'), `/events/${encodeURIComponent(eventId)}/reportlist`]]}
    />
  );
}
