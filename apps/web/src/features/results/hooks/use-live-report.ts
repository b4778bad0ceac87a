import { useQuery, useQueryClient } from '@tanstack/react-query';
import { liveChannels, type ReportPatch, type ReportTable, TOP_WINDOW_ROWS } from '@tempora/contracts';
import { startTransition, useCallback, useEffect, useMemo, useState } from 'react';
import {
  useChannelEvent,
  useReconnectCatchUp,
  useSubscribedCatchUp,
} from '../../../lib/realtime/realtime-provider.tsx';
import {
  getReportWindow,
  type ReportSource,
  reportHeadKey,
  reportQuery,
  requireFreshReport,
  requireReportVersion,
} from '../api/get-report.ts';

type PatchCode = typeof import('@tempora/contracts/report-patch');
let patchCode: PatchCode | undefined;
let patchCodeLoading: Promise<PatchCode> | undefined;
/**
 * The code that folds patches into a table, loaded once a table subscribes to its live channel
 * (a finished race never needs it: it left the report page's first JavaScript, the budget of
 * scripts/bundle-budget.mjs). Patches wait for it in order (`useLiveReport`'s queue).
 */
export function loadPatchCode(): Promise<PatchCode> {
  patchCodeLoading ??= import('@tempora/contracts/report-patch').then((code) => {
    patchCode = code;
    return code;
  });
  return patchCodeLoading;
}

/** The queue of heard patches when none waits for the patch code. */
const settled: Promise<unknown> = Promise.resolve();

/** How long a row changed by a live patch stays highlighted. */
export const HIGHLIGHT_MS = 2500;

/**
 * Tables kept live by rank windows (issue 28: window patches and window fetches changed some of
 * their rows only): the version the table was whole at (`base`) and each window's own version
 * since. A patch of the whole report does not apply to one: it is fetched again.
 */
interface WindowVersions {
  base: number;
  held: ReadonlyMap<number, number>;
}
const windowed = new WeakMap<ReportTable, WindowVersions>();

/** The version a table holds rank window `k` at. */
function heldAt(table: ReportTable, k: number): number {
  const state = windowed.get(table);
  return state ? (state.held.get(k) ?? state.base) : table.version;
}

/** `next`, a table whose window `k` is now at `version` (tagged: a catch-up probe never takes it as whole). */
function withWindow(table: ReportTable, next: ReportTable, k: number, version: number): ReportTable {
  const state = windowed.get(table) ?? { base: table.version, held: new Map<number, number>() };
  const out = windowed.has(table) ? next : { ...next, tag: `${table.tag ?? ''}~w` };
  windowed.set(out, { base: state.base, held: new Map(state.held).set(k, version) });
  return out;
}

/**
 * What of a report a page keeps live (issue 28, channels follow views): the rank windows on its
 * screen (`liveChannels.reportWindow`, 0: the top), or `all` (searched, or a page using every row).
 */
export type LiveWindow = readonly number[] | 'all';

/**
 * Fetches rank window `k` of a report (its catch-up, issue 28: after subscribing, a gap or a
 * reload) and puts it into the cached table, unless the table already holds it newer.
 */
export async function refreshWindow(
  client: ReturnType<typeof useQueryClient>,
  queryKey: readonly unknown[],
  source: ReportSource,
  k: number,
  minVersion = 0,
): Promise<void> {
  const offset = k * TOP_WINDOW_ROWS;
  const page = await getReportWindow(source, { offset, limit: TOP_WINDOW_ROWS }, minVersion);
  const table = client.getQueryData<ReportTable>(queryKey);
  // Still loading: the load itself comes from a state caught up after the subscription.
  if (!table) return requireFreshReport(source);
  if (heldAt(table, k) > page.version) return;
  // Nothing moved (a finished race): the table stays whole, so a search needs no refetch.
  if (!windowed.has(table) && page.version === table.version && page.tag === table.tag) return;
  const { mergeWindow } = await loadPatchCode();
  const merged = mergeWindow(table, offset, TOP_WINDOW_ROWS, page.rows);
  const next = { ...merged, version: Math.max(table.version, page.version) };
  client.setQueryData(queryKey, withWindow(table, next, k, page.version));
}

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
  k?: number,
): string[] | null {
  const table = client.getQueryData<ReportTable>(queryKey);
  if (!table) {
    // Issue 20: the table is still loading (its request may have been answered before this
    // change): the load then fetches it again at this version rather than land behind it.
    if (source && concerns(source, patch)) requireReportVersion(source, patch.version);
    return null;
  }
  if (patch.group !== table.group || patch.report !== table.report) return null;
  // Not loaded yet (`useLiveReport` waits for it; a direct caller may not): fetched again instead.
  if (!patchCode) {
    if (source) requireReportVersion(source, patch.version);
    void client.invalidateQueries({ queryKey, exact: true });
    return null;
  }
  const { applyReportPatch, applyWindowPatch } = patchCode;
  // A window's patch or reload (issue 28): only that window moves, a gap refetches only it.
  const window = 'reload' in patch ? k : patch.window === undefined ? undefined : (patch.offset ?? 0);
  if (window !== undefined) {
    const w = k ?? Math.floor(window / TOP_WINDOW_ROWS);
    if (heldAt(table, w) >= patch.version) return null; // already have it
    const next = 'reload' in patch ? null : applyWindowPatch(table, patch, heldAt(table, w));
    if (!next) {
      if (source) void refreshWindow(client, queryKey, source, w, patch.version).catch(() => undefined);
      return null;
    }
    client.setQueryData(queryKey, withWindow(table, next, w, patch.version));
    return 'upserts' in patch ? patch.upserts.map((row) => String(row[table.keyField])) : [];
  }
  if (!('reload' in patch) && patch.version <= table.version) return null; // already have it
  const next = windowed.has(table) ? null : applyReportPatch(table, patch);
  if (!next) {
    if (source) requireReportVersion(source, patch.version);
    void client.invalidateQueries({ queryKey, exact: true });
    return null;
  }
  client.setQueryData(queryKey, next);
  return 'upserts' in patch ? patch.upserts.map((row) => String(row[table.keyField])) : [];
}

/** Whether a patch may be of the report `source` names (a context's reports name no group). */
function concerns(source: ReportSource, patch: ReportPatch): boolean {
  return patch.report === source.report && (!('group' in source) || patch.group === source.group);
}

/**
 * A report kept live: row patches of its channel (`liveChannels.report`, or of the rank windows in
 * `live`) go into the query cache; after a reconnection or a change of channel the report (or the
 * window subscribed) is refetched (issue 5: live pages catch up). `changed` holds the keys of rows
 * changed in the last moments, for a brief highlight.
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
  // The channels are known from the first rows (their db and group), so the subscription starts after.
  const db = loaded?.db;
  const group = loaded?.group;
  const key = loaded?.report;
  const windowKey = live === 'all' ? 'all' : live.join(',');
  const channels = useMemo(() => {
    if (db === undefined || group === undefined || key === undefined) return null;
    if (windowKey === 'all') return [liveChannels.report(db, group, key)];
    return windowKey.split(',').map((k) => liveChannels.reportWindow(db, group, key, Number(k)));
  }, [db, group, key, windowKey]);
  const windowOfChannel = useCallback(
    (channel: string) => {
      const at = channels?.indexOf(channel) ?? -1;
      return windowKey === 'all' || at < 0 ? undefined : Number(windowKey.split(',')[at]);
    },
    [channels, windowKey],
  );

  // The patch code loads as the table subscribes; patches heard before it came wait, in order.
  const [queue] = useState(() => ({ tail: settled }));
  useEffect(() => {
    if (channels) void loadPatchCode();
  }, [channels]);
  useChannelEvent(channels, 'report-patch', (patch, channel) => {
    if (patchCode && queue.tail === settled) return applyHeard(patch, channel);
    const tail = queue.tail.then(loadPatchCode).then(
      () => applyHeard(patch, channel),
      () => applyHeard(patch, channel), // no code (offline): receivePatch refetches the table
    );
    queue.tail = tail;
    void tail.then(() => {
      if (queue.tail === tail) queue.tail = settled;
    });
  });
  function applyHeard(patch: ReportPatch, channel: string) {
    const keys = receivePatch(client, queryKey, patch, source, windowOfChannel(channel));
    if (!keys?.length) return;
    const now = Date.now();
    // Highlights are transitions, as the table's rows (report-view.tsx): a socket message's state
    // change renders in one blocking task otherwise (issue 28).
    startTransition(() =>
      setChanged((previous) => {
        const map = new Map(previous);
        for (const key of keys) map.set(key, now);
        return map;
      }),
    );
  }

  // Drop highlights once they are old.
  useEffect(() => {
    if (changed.size === 0) return;
    const oldest = Math.min(...changed.values());
    const timer = setTimeout(
      () => {
        const now = Date.now();
        startTransition(() =>
          setChanged((previous) => new Map([...previous].filter(([, at]) => now - at < HIGHLIGHT_MS))),
        );
      },
      Math.max(50, oldest + HIGHLIGHT_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [changed]);

  // After subscribing or reconnecting, patches published before were not heard: the table is
  // fetched again (one row first: a 304 when nothing moved) from a state caught up after the
  // subscription — on several nodes the one answering may lag the one that published (issue 20).
  // A rank window catches up alone: its 30 rows, not the whole table.
  const catchUp = useCallback(
    (channel?: string) => {
      const k = channel === undefined ? undefined : windowOfChannel(channel);
      if (k !== undefined) return void refreshWindow(client, queryKey, source, k).catch(() => undefined);
      if (windowKey !== 'all' && channel === undefined) {
        for (const c of channels ?? []) catchUp(c);
        return;
      }
      requireFreshReport(source);
      void client.invalidateQueries({ queryKey, exact: true });
    },
    [client, queryKey, source, windowOfChannel, windowKey, channels],
  );
  useReconnectCatchUp(catchUp);
  useSubscribedCatchUp(channels, catchUp);

  // `shown`: the whole table, else its first page (`partial` until the rest has come). Pages that
  // need every row (favourites, scroller) use `data`, the whole table.
  const shown = query.data ?? head.data;
  return { ...query, shown, partial: !query.data && !!head.data, changed };
}
