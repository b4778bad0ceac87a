import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { ExportButtons } from '../../../features/exports/components/export-buttons.tsx';
import { ReportView } from '../../../features/results/components/report-view.tsx';
import { ReportLinks } from './report-links.tsx';
import { useResultsBase } from './use-results-base.ts';

/**
 * `…/reportlist/group/{group}/report/{report}` (with page chrome) and
 * `…/reportlist/table/{group}/report/{report}` (the bare full table, for embedding).
 */
export default function ReportPage() {
  const { eventId = '', group = '', report = '' } = useParams();
  const { pathname } = useLocation();
  const { t } = useTranslation('results');
  const base = useResultsBase(eventId);
  const bare = pathname.includes('/reportlist/table/');
  return (
    <ReportView
      key={`${eventId}/${group}/${report}`}
      source={{ eventId, group, report }}
      eventId={eventId}
      links={(table) => <ReportLinks eventId={eventId} table={table} />}
      chrome={!bare}
      crumbs={[[t('reportList'), `${base}/reportlist`]]}
      actions={(query) =>
        !bare && <ExportButtons eventId={eventId} group={group} report={report} query={query} />
      }
    />
  );
}
