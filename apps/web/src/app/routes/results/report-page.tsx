import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { ReportView } from '../../../features/results/components/report-view.tsx';
import { hasTimes } from './has-times.ts';
import { ReportLinks, useReportLinksReady } from './report-links.tsx';
import { useResultsBase } from './use-results-base.ts';

// A live race's note before its first split (issue 43) loads only when it shows: the first JS.
const BeforeFirstTimes = lazy(() =>
  import('./before-first-times.tsx').then((m) => ({ default: m.BeforeFirstTimes })),
);

// The download menu (menu, dialog, snackbar) loads after the table: issue 19, the first JS.
const ExportButtons = lazy(() =>
  import('../../../features/exports/components/export-buttons.tsx').then((m) => ({
    default: m.ExportButtons,
  })),
);

/**
 * `…/reportlist/group/{group}/report/{report}` (with page chrome) and
 * `…/reportlist/table/{group}/report/{report}` (the bare full table, for embedding).
 */
export default function ReportPage() {
  const { eventId = '', group = '', report = '' } = useParams();
  const { pathname } = useLocation();
  const { t } = useTranslation('results');
  const linksReady = useReportLinksReady(eventId);
  const base = useResultsBase(eventId);
  const bare = pathname.includes('/reportlist/table/');
  return (
    <ReportView
      key={`${eventId}/${group}/${report}`}
      source={{ eventId, group, report }}
      eventId={eventId}
      links={(table) => (
        <>
          <ReportLinks eventId={eventId} db={table.db} group={table.group} />
          {/* Issue 43: a live race before its first split says when the first times come. */}
          {!hasTimes(table) && (
            <Suspense fallback={null}>
              <BeforeFirstTimes eventId={eventId} table={table} />
            </Suspense>
          )}
        </>
      )}
      linksReady={linksReady}
      chrome={!bare}
      crumbs={[[t('reportList'), `${base}/reportlist`]]}
      actions={(query) =>
        !bare && (
          <Suspense fallback={null}>
            <ExportButtons eventId={eventId} group={group} report={report} query={query} />
          </Suspense>
        )
      }
    />
  );
}
