import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  applyReportPatch,
  applyWindowPatch,
  liveChannels,
  type ReportPatch,
  type ReportTable,
} from '@tempora/contracts';
import { useCallback, useEffect, useState } from 'react';
import {
  useChannelEvent,
  useReconnectCatchUp,
  useSubscribedCatchUp,
} from '../../../lib/realtime/realtime-provider.tsx';
import {
  type ReportSource,
  reportHeadKey,
  reportQuery,
  requireFreshReport,
  requireReportVersion,
} from '../api/get-report.ts';

/** How long a row changed by a live patch stays highlighted. */
export const HIGHLIGHT_MS = 2500;

/**
 * Tables whose rows below the top window are not live (issue 28: a window patch changed their
 * top only). A patch of the whole report does not apply to one: it is fetched again.
 */
const liveTopOnly = new WeakSet<ReportTable>();

/**
 * What of a report a page keeps live (issue 28, channels follow views): `top`, its first rows
 * (`liveChannels.reportTop`: a table scrolled to its top), or `all` (scrolled further, searched,
 * or a page using every row).
 */
export type LiveWindow = 'top' | 'all';

/**
 * Folds one `report-patch` into the cached table (style.md: live pages patch the query, never a
 * second copy): patches of other reports are ignored; a reload or a version gap refetches, asking
 * for at least the patch's version (issue 20: the node answering may lag the one that published).
 * Returns the keys of the upserted rows, or null when nothing was applied.
 */
export function receivePatch(
  client: ReturnType<typeof useQueryClient>,
  queryKey: readonly unknown[],
  patch: ReportPatch,
  source?: ReportSource,
): string[] | null {
  const table = client.getQueryData<ReportTable>(queryKey);
  if (!table) {
    // Issue 20: the table is still loading (its request may have been answered before this
    // change): the load then fetches it again at this version rather than land behind it.
    if (source && concerns(source, patch)) requireReportVersion(source, patch.version);
    return null;
  }
  if (patch.group !== table.group || patch.report !== table.report) return null;
  if (!('reload' in patch) && patch.version <= table.version) return null; // already have it
  const windowed = !('reload' in patch) && patch.window !== undefined;
  let next = windowed
    ? applyWindowPatch(table, patch)
    : liveTopOnly.has(table)
      ? null
      : applyReportPatch(table, patch);
  // Its rows below the window are not live: another tag (a catch-up probe then fetches it whole).
  if (windowed && next) next = { ...next, tag: `${table.tag ?? ''}~top` };
  if (!next) {
    if (source) requireReportVersion(source, patch.version);
    void client.invalidateQueries({ queryKey, exact: true });
    return null;
  }
  if (windowed) liveTopOnly.add(next);
  client.setQueryData(queryKey, next);
  return 'upserts' in patch ? patch.upserts.map((row) => String(row[table.keyField])) : [];
}

/** Whether a patch may be of the report `source` names (a context's reports name no group). */
function concerns(source: ReportSource, patch: ReportPatch): boolean {
  return patch.report === source.report && (!('group' in source) || patch.group === source.group);
}

/**
 * A report kept live: row patches of its channel (`liveChannels.report`, or its top window's for
 * `live` 'top') go into the query cache; after a reconnection or a change of channel the report is
 * refetched (issue 5: live pages catch up). `changed` holds the keys of rows changed in the last
 * moments, for a brief highlight.
 */
export function useLiveReport(source: ReportSource, live: LiveWindow = 'all') {
  const client = useQueryClient();
  const options = reportQuery(source, client);
  const query = useQuery(options);
  // The first page, while the whole table loads (progressive loading, get-report.ts).
  const head = useQuery<ReportTable>({
    queryKey: reportHeadKey(source),
    queryFn: () => Promise.reject(new Error('the first page comes with the table')),
    enabled: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const { queryKey } = options;
  const [changed, setChanged] = useState<ReadonlyMap<string, number>>(() => new Map());
  const loaded = query.data ?? head.data;
  // The channel is known from the first rows (their db and group), so the subscription starts after.
  const channel = !loaded
    ? null
    : live === 'top'
      ? liveChannels.reportTop(loaded.db, loaded.group, loaded.report)
      : liveChannels.report(loaded.db, loaded.group, loaded.report);

  useChannelEvent(channel, 'report-patch', (patch) => {
    const keys = receivePatch(client, queryKey, patch, source);
    if (!keys?.length) return;
    const now = Date.now();
    setChanged((previous) => {
      const map = new Map(previous);
      for (const key of keys) map.set(key, now);
      return map;
    });
  });

  // Drop highlights once they are old.
  useEffect(() => {
    if (changed.size === 0) return;
    const oldest = Math.min(...changed.values());
    const timer = setTimeout(
      () => {
        const now = Date.now();
        setChanged((previous) => new Map([...previous].filter(([, at]) => now - at < HIGHLIGHT_MS)));
      },
      Math.max(50, oldest + HIGHLIGHT_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [changed]);

  // After subscribing or reconnecting, patches published before were not heard: the table is
  // fetched again (one row first: a 304 when nothing moved) from a state caught up after the
  // subscription — on several nodes the one answering may lag the one that published (issue 20).
  const catchUp = useCallback(() => {
    requireFreshReport(source);
    void client.invalidateQueries({ queryKey, exact: true });
  }, [client, queryKey, source]);
  useReconnectCatchUp(catchUp);
  useSubscribedCatchUp(channel, catchUp);

  // `shown`: the whole table, else its first page (`partial` until the rest has come). Pages that
  // need every row (favourites, scroller) use `data`, the whole table.
  const shown = query.data ?? head.data;
  return { ...query, shown, partial: !query.data && !!head.data, changed };
}
