import { Box, Typography } from '@mui/material';
import { type ReportTable as Table, windowsCovering } from '@tempora/contracts';
import { joinTitle } from '@tempora/domain';
import {
  lazy,
  type ReactNode,
  Suspense,
  startTransition,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { PageError, PageHeader, PageLoading } from '../../../components/page-state.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { paths } from '../../../config/paths.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { useFavorites } from '../../../lib/favorites/use-favorites.ts';
import { useEndPrePaint } from '../../../lib/pre-paint.ts';
import { expectFirstRows, firstRowsShown } from '../api/first-rows.ts';
import { type ReportSource, reportPath } from '../api/get-report.ts';
import { useReportList } from '../api/get-report-list.ts';
import { useLiveReport } from '../hooks/use-live-report.ts';
import { searchRows } from '../patch.ts';
import { rankFieldOf } from './rank-field.ts';
import { ReportTable } from './report-table.tsx';

/**
 * The jump control loads beside the table (the report page is at its JavaScript budget); the
 * pre-paint and the fallback hold its place, so nothing moves when it comes.
 */
const JumpToRow = lazy(() => import('./jump-to-row.tsx').then((m) => ({ default: m.JumpToRow })));

/** How long the table stays still before its live windows follow the scroll (issue 28). */
const FOLLOW_MS = 300;

/** What a live report page shows. */
export interface ReportViewProps {
  source: ReportSource;
  /** The event whose favourites the stars keep. */
  eventId: string;
  /** Page chrome (title, breadcrumbs); off for the embeddable `table` route. */
  chrome: boolean;
  /** Breadcrumbs before the report's title. */
  crumbs?: [string, string?][];
  /** Links to the race's other views, under the title (the page composes them). */
  links?: (table: Table) => ReactNode;
  /** Controls beside the search (the export menu), given the search typed. */
  actions?: (query: string) => ReactNode;
  /**
   * False while what `links` needs is still loading: the page then appears whole, its table not
   * pushed down by the links and the title arriving after it (issue 19: no layout shift).
   */
  linksReady?: boolean;
}

/** Off screen but read by screen readers (sizes as strings: in `sx`, 1 means 100%). */
const srOnly = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/**
 * A live report: title, search-as-you-type (name or bib, exact bib first), the virtual table.
 * This part holds what reads stores (the report's queries, the report list, the favourites) and
 * what the body's own state changes ask of them; `ReportBody` draws. The body's transitions (the
 * table deferred) then render without a store's hook in them: React renders a transition again,
 * blocking, when a store it read changed meanwhile — a query's answer during the table's first
 * render, on every page load (issue 28: a 90 ms task unthrottled).
 */
export function ReportView(props: ReportViewProps) {
  const { source, eventId } = props;
  const { favorites, toggle } = useFavorites(eventId);
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  // Issue 28: the table keeps live only the rank windows on its screen (the top window at first),
  // following the scroll once it rests; searched, the whole report.
  const [range, setRange] = useState<readonly [number, number]>([0, 0]);
  const follow = useRef<ReturnType<typeof setTimeout>>(undefined);
  const handleVisibleRange = useCallback((start: number, end: number) => {
    clearTimeout(follow.current);
    // A transition: outside an event a state change renders the whole view in one blocking task.
    follow.current = setTimeout(
      () => startTransition(() => setRange((r) => (r[0] === start && r[1] === end ? r : [start, end]))),
      FOLLOW_MS,
    );
  }, []);
  useEffect(() => () => clearTimeout(follow.current), []);
  const windows = useMemo(() => windowsCovering(range[0], range[1]), [range]);
  const report = useLiveReport(source, deferred ? 'all' : windows);
  const list = useReportList(eventId);
  return (
    <ReportBody
      {...props}
      report={report}
      list={list}
      favorites={favorites}
      onToggleFavorite={toggle}
      query={query}
      onQuery={setQuery}
      searched={deferred}
      onVisibleRange={handleVisibleRange}
    />
  );
}

/** What the body is given by `ReportView`. */
interface ReportBodyProps extends ReportViewProps {
  report: ReturnType<typeof useLiveReport>;
  list: ReturnType<typeof useReportList>;
  favorites: ReadonlySet<string>;
  onToggleFavorite(key: string, trackingKey?: string): void;
  query: string;
  onQuery(query: string): void;
  /** The search, deferred (what the rows are filtered by). */
  searched: string;
  onVisibleRange(start: number, end: number): void;
}

function ReportBody({
  source,
  chrome,
  crumbs = [],
  links,
  actions,
  linksReady = true,
  eventId,
  report,
  list,
  favorites,
  onToggleFavorite: toggle,
  query,
  onQuery: setQuery,
  searched: deferred,
  onVisibleRange: handleVisibleRange,
}: ReportBodyProps) {
  const { t, i18n } = useTranslation('results');
  const lng = i18n.language === 'en' ? 'en' : 'fr';
  // Issue 27: jump to a rank or a bib.
  const [target, setTarget] = useState<{ key: string }>();
  // The table as shown lags what came by one render: the rest of a big table and each live patch
  // re-render it as a transition, in slices that give the main thread back (issue 28: Lighthouse
  // TBT — the whole table's arrival was one 500 ms task on a throttled phone). `partial` holds
  // while the rows shown are not yet all that came (a jump waits for them).
  // Deferred from the first render too (`null` first): the table mounts in slices even when its
  // page mounts in a blocking render (a query's answer re-renders synchronously).
  const data = useDeferredValue<Table | null | undefined>(report.shown, null) ?? undefined;
  const partial = report.partial || data !== report.shown;
  const rankField = useMemo(() => (data ? rankFieldOf(data.columns, data.rows) : -1), [data]);
  const handleJump = useCallback(
    (index: number) => {
      if (!data) return;
      setQuery('');
      setTarget({ key: String(data.rows[index]![data.keyField]) });
    },
    [data, setQuery],
  );
  const rows = useMemo(
    () => (data ? searchRows(data.rows, data.keyField, deferred, data.columns) : []),
    [data, deferred],
  );
  // The bare table (embed) is titled like the page (issue 28): PageHeader titles the page otherwise.
  const race = list.data?.groups.find((g) => g.key === data?.group)?.name[lng];
  const title = data ? joinTitle([list.data?.event.name, race, data.title[lng]]) : '';
  useDocumentTitle(chrome ? null : title);
  // The title (event and race names) and the links come with the first rows, not after them.
  const above = chrome && (list.isLoading || (links && !linksReady));
  // The rest of a big table comes once the first rows are on screen (first-rows.ts).
  const path = reportPath(source);
  useEffect(() => expectFirstRows(path), [path]);
  // The page's content mounts as a transition too (`false` first): the report list's answer (a
  // query: a blocking render) can be the one that lets it show, after the rows came (issue 28).
  const showing = useDeferredValue(!!data && !above, false);
  useEffect(() => {
    if (showing) firstRowsShown(path);
  }, [showing, path]);
  // The boot script's picture of this page (src/pre-paint/) goes once this one is laid out at its
  // width and painted beneath it (two frames: the table measures its width after its first
  // commit), or at once when the page failed.
  const failed = !data && report.isError;
  useEndPrePaint(showing, failed);
  if (failed) return <PageError error={report.error} />;
  if (!data || above || !showing) return <PageLoading />;
  // Issue 19: the title names the event and the race ("Demo City Run · Marathon · Overall").
  // Issue 27: a part already said is not repeated, and the breadcrumbs keep the event (title above).
  const eventCrumb: [string, string][] = list.data ? [[list.data.event.name, paths.eventHome(eventId)]] : [];
  return (
    <>
      {chrome && <PageHeader title={title} crumbs={[...eventCrumb, ...crumbs, [data.title[lng]]]} />}
      {chrome && links && <Box sx={{ mb: 1.5 }}>{links(data)}</Box>}
      {/* A flex Box, not a Stack: the same row, without Stack's 1 KB of gzip (issue 19 budget). */}
      <Box
        sx={{
          display: 'flex',
          gap: 1.5,
          mb: 1,
          alignItems: 'center',
          flexWrap: 'wrap',
          px: chrome ? 0 : 1,
          pt: chrome ? 0 : 1,
        }}
      >
        <SearchField
          value={query}
          onChange={setQuery}
          label={t('search')}
          placeholder={t('searchPlaceholder')}
          sx={{ flex: '1 1 220px', maxWidth: 360 }}
        />
        <Typography variant="body2" color="text.secondary" role="status" aria-live="polite">
          {deferred.trim()
            ? t('matchCount', { count: rows.length, total: data.total })
            : t('rowCount', { count: data.total })}
          {/* Heard, not shown: a longer line would wrap and move the table when the rest came. */}
          {data.rows.length < data.total && (
            <Box component="span" sx={srOnly}>
              {` · ${t('loadingRest', { count: data.total - data.rows.length })}`}
            </Box>
          )}
        </Typography>
        <Suspense fallback={<Box sx={{ minHeight: 30, minWidth: 240 }} />}>
          <JumpToRow
            rows={data.rows}
            keyField={data.keyField}
            rankField={rankField}
            loading={partial}
            onJump={handleJump}
          />
        </Suspense>
        {actions?.(deferred)}
      </Box>
      <ReportTable
        table={data}
        rows={rows}
        favorites={favorites}
        onToggleFavorite={toggle}
        changed={report.changed}
        totalRows={data.rows.length < data.total ? data.total : undefined}
        onVisibleRange={handleVisibleRange}
        target={target}
        height={chrome ? undefined : 'calc(100dvh - 64px)'}
      />
    </>
  );
}
