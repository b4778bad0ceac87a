import {
  bundleResults,
  CHANGED_EVENT,
  type ChangedEvent,
  liveChannels,
  type PassingEvent,
  RESULTS_EVENT,
  type ReportPatch,
  TOP_WINDOW_ROWS,
} from '@tempora/contracts';
import type { ContextState, RaceLive, ReportWatch } from '../context-state.ts';
import { type ClusterNotice, claim, notify, publishes, type ResultsCore } from './core.ts';
import { invalidate } from './state.ts';

/**
 * Publication of a context's changes (issue 30, split from service.ts): coalescing windows
 * (issue 20: one `results` event per window), the live channels each patch goes to (issue 28),
 * and the notice that tells the cluster's other nodes what was published.
 */

/**
 * Publishes what a context staged (issue 20: one `results` event per window, see `publishMs`),
 * now: at the window's end, or before a live read answers (its version must be one that
 * patches start from). Computed at once, sent in order behind the previous publications.
 */
export function flush(core: ResultsCore, db: string, ctx: ContextState): void {
  const { cluster, windows, announced, publishing } = core;
  const open = windows.get(db);
  if (open) {
    clearTimeout(open.timer);
    windows.delete(db);
    // A window opened on a state since rebuilt (`invalidate`): what it holds goes out first.
    if (open.ctx !== ctx) flush(core, db, open.ctx);
  }
  if (cluster && !publishes(core, db)) {
    // Not sure of the lease any more (a renewal late: a busy event loop): asked again. Gone to
    // another node meanwhile, that node publishes these changes in its chain.
    if (ctx.hasPending)
      void claim(core, db)
        .then((mine) => (mine && cluster.leases.holds(db) ? flush(core, db, ctx) : ctx.dropPending()))
        .catch(() => ctx.dropPending());
    return;
  }
  // In a cluster, the other nodes hear of every state this node publishes, even one without a
  // patch (reads that changed no table): their readers wait for it (see `followerState`).
  const announce = cluster !== undefined && ctx.lastSeq > (announced.get(db) ?? 0);
  if (!ctx.hasPending && !announce) return;
  let publication: ReturnType<ContextState['flush']> = null;
  // Publication lag (metrics): from the oldest read staged to its changes going out — or to
  // their being dropped here because no view is watched (nothing to send, nobody waiting).
  const since = ctx.hasPending ? core.stagedSince.get(db) : undefined;

  core.stagedSince.delete(db);
  const lag = () => {
    if (since === undefined) return;
    const lagMs = Date.now() - since;
    notify(core, (o) => o.published?.(db, lagMs));
  };
  if (ctx.hasPending) {
    core.publishedAt.set(db, Date.now());
    try {
      publication = ctx.flush(core.maxPatchBytes);
    } catch (error) {
      console.error('results: publishing passings failed', error);
      invalidate(core, db);
      return;
    }
  }
  let notice: ClusterNotice | undefined;
  if (announce) {
    announced.set(db, ctx.lastSeq);
    notice = { kind: 'published', db, seq: ctx.lastSeq, versions: ctx.versionsOf() };
  }
  if (!publication && !notice) {
    lag();
    return;
  }
  const { patches, windows: tops, passed } = publication ?? { patches: [], windows: [], passed: [] };
  const next = (publishing.get(db) ?? Promise.resolve())
    .then(() => {
      // Before the events, on the same connection: a node hears of the state before its
      // sockets deliver its patches (a reader sent back by one finds it there).
      if (notice) cluster?.send(notice);
      return publish(core, ctx, patches, tops, passed);
    })
    .then(lag)
    .catch((error) => console.error('results: publishing passings failed', error));
  publishing.set(db, next);
  void next.then(() => {
    if (publishing.get(db) === next) publishing.delete(db);
  });
}

/**
 * Publishes a context's staged changes at most once per `publishMs`: at once when the last
 * publication is older than that (a lone passing waits for nothing), else at the end of the
 * window that publication opened, together with everything staged meanwhile.
 */
export function schedule(core: ResultsCore, db: string, ctx: ContextState): void {
  const { windows, publishMs } = core;
  const open = windows.get(db);
  if (open?.ctx === ctx) return;
  const wait = (core.publishedAt.get(db) ?? 0) + publishMs - Date.now();
  if (open || publishMs <= 0 || wait <= 0) {
    flush(core, db, ctx);
    return;
  }
  const timer = setTimeout(() => {
    if (windows.get(db)?.timer === timer) windows.delete(db);
    flush(core, db, ctx);
  }, wait);
  timer.unref?.();
  windows.set(db, { timer, ctx });
}

/**
 * Publishes a context's pending changes now, without waiting for the window's end, and
 * resolves once everything it staged is published (tests; a node stopping).
 */
export async function settle(core: ResultsCore, db: string): Promise<void> {
  const open = core.windows.get(db);
  if (open) {
    await open.ctx.applying;
    flush(core, db, open.ctx);
  }
  const pending = core.loaded.get(db);
  if (pending) {
    const ctx = await pending.catch(() => null);
    if (ctx) {
      await ctx.applying;
      flush(core, db, ctx);
    }
  }
  await core.publishing.get(db);
}

/** `settle` for every context with a window open (a node stopping publishes what it holds). */
export async function settleAll(core: ResultsCore): Promise<void> {
  await Promise.all([...core.windows.keys()].map((db) => settle(core, db).catch(() => undefined)));
}

/**
 * A lease lost (this node paused past its time, or Redis away): what its window held goes out
 * from the new publisher, in that one's chain.
 */
export function dropWindow(core: ResultsCore, db: string): void {
  const open = core.windows.get(db);
  if (open) {
    clearTimeout(open.timer);
    core.windows.delete(db);
    open.ctx.dropPending();
  }
  void core.loaded
    .get(db)
    ?.then((ctx) => ctx.dropPending())
    .catch(() => undefined);
}

/** Who watches a report of context `db` now (issue 28), from the channels' occupancy. */
export function watcher(
  core: ResultsCore,
  db: string,
): (group: string, report: string, rows: number) => ReportWatch {
  const { occupancy } = core;
  if (!occupancy) return () => ({ all: true, windows: [] });
  return (group, report, rows) => {
    const windows: number[] = [];
    // A set lookup per window (Boston: 881), at most once per publication of a changed report.
    for (let k = 0; k * TOP_WINDOW_ROWS < Math.max(rows, 1); k++)
      if (occupancy.has(liveChannels.reportWindow(db, group, report, k))) windows.push(k);
    return {
      all: occupancy.has(liveChannels.all(db)) || occupancy.has(liveChannels.report(db, group, report)),
      windows,
    };
  };
}

async function publish(
  core: ResultsCore,
  ctx: ContextState,
  allPatches: ReportPatch[],
  allTops: { k: number; patch: ReportPatch }[],
  passed: { race: RaceLive; seen: RaceLive['recent'] }[],
): Promise<void> {
  const { occupancy, publisher } = core;
  const db = ctx.context.db;
  // Issue 42: a report the organiser hid goes out on no channel, the firehose included (its
  // organisation reads it through the API; policy/visibility.ts).
  const hidden = new Set(ctx.reports.filter((r) => r.hidden).map((r) => `${r.groupKey}/${r.key}`));
  const shown = (p: ReportPatch) => !hidden.has(`${p.group}/${p.report}`);
  const patches = hidden.size ? allPatches.filter(shown) : allPatches;
  const tops = hidden.size ? allTops.filter((t) => shown(t.patch)) : allTops;
  const passings: PassingEvent[] = [];
  for (const { race, seen } of passed) {
    for (const s of seen.slice(-20)) {
      const person = race.participants[s.i]!;
      const at = race.results.at[s.i * race.results.index.pointCount + s.p]!;
      passings.push({
        raceId: race.row.id,
        bib: person.bib,
        pointKey: race.results.index.pointIds[s.p]!,
        timeOfDay: at,
      });
    }
  }
  // One event per change (split only above the event size limit): issue 20's spike.
  // A patch larger than a bundle goes in one of its own, up to `maxPatchBytes` (plus its reads).
  const limit = Math.max(core.maxPatchBytes + 2_048, 10 * 1024);
  if (!patches.length && !tops.length && !passings.length) return;
  // Issue 28: each view's channel gets what it shows, and only an occupied one.
  const views = new Map<string, { patches: ReportPatch[]; passings: PassingEvent[] }>();
  const to = (channel: string) => {
    let view = views.get(channel);
    if (!view) {
      view = { patches: [], passings: [] };
      views.set(channel, view);
    }
    return view;
  };
  const has = (channel: string) => !occupancy || occupancy.has(channel);
  const all = liveChannels.all(db);
  if (has(all)) {
    to(all).patches.push(...patches);
    to(all).passings.push(...passings);
  }
  if (occupancy) {
    for (const p of patches) {
      const channel = liveChannels.report(db, p.group, p.report);
      if (occupancy.has(channel)) to(channel).patches.push(p);
    }
    for (const { k, patch } of tops) {
      const channel = liveChannels.reportWindow(db, patch.group, patch.report, k);
      if (occupancy.has(channel)) to(channel).patches.push(patch);
    }
    const feed = liveChannels.passings(db);
    if (passings.length && occupancy.has(feed)) to(feed).passings.push(...passings);
    for (const p of passings) {
      const channel = liveChannels.runner(db, p.bib);
      if (occupancy.has(channel)) to(channel).passings.push(p);
    }
  }
  for (const [channel, view] of views)
    for (const bundle of bundleResults(view.patches, view.passings))
      await publisher.publish([channel], RESULTS_EVENT, bundle, undefined, limit);
  // Pages that refetch what they show hear that something changed, not every read.
  const changes = liveChannels.changes(db);
  if (occupancy?.has(changes)) {
    const changed: ChangedEvent = { races: [...new Set(passings.map((p) => p.raceId))] };
    await publisher.publish([changes], CHANGED_EVENT, changed);
  }
}
