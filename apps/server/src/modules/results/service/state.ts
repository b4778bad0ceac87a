import { errors } from '../../../errors.ts';
import { ContextState } from '../context-state.ts';
import { publicParticipant } from '../public-runner.ts';
import { currentStamp, openSnapshot, type Snapshot, writeSnapshot } from '../report-snapshots.ts';
import * as repo from '../repository.ts';
import {
  CATCH_UP_MS,
  type HeldSnapshot,
  MIN_VERSION_WAIT_MS,
  notify,
  ownApplied,
  publishes,
  type ResultsCore,
  STALE_MS,
} from './core.ts';
import { followerState } from './following.ts';
import { flush, schedule, watcher } from './publication.ts';

/**
 * The live state of each context (issue 30, split from service.ts): loaded into memory on first
 * use, kept current by catching up from the database (`seq`) before answering, so several nodes
 * agree; forgotten when its setup changes; served from a stored snapshot while not loaded.
 */

async function load(core: ResultsCore, db: string): Promise<ContextState> {
  const { database, deps } = core;
  const context = await repo.findContext(database, db);
  if (!context) throw errors.notFound('CONTEXT_NOT_FOUND', `No context '${db}'`);
  const preset = core.presetParticipants.get(db);
  core.presetParticipants.delete(db);
  // Read before the rows: names the state built from them (issue 27, report-snapshots.ts).
  const stamp = await currentStamp(database, db);
  const [races, points, participants, passings, reports] = await Promise.all([
    repo.racesOf(database, db),
    repo.pointsOf(database, db),
    (preset ? Promise.resolve(preset) : repo.participantsOf(database, db)).then((rows) =>
      rows.map(publicParticipant),
    ),
    repo.passingsAfter(database, db, 0),
    repo.reportsOf(database, db),
  ]);
  // Built in slices (issue 14): a 135,000-runner context held the event loop for 150 ms and more.
  const ctx = await ContextState.build(
    context,
    races,
    points,
    participants,
    passings,
    reports,
    deps.build?.pause,
    deps.build?.sliceMs,
  );
  ctx.watching = watcher(core, db);
  if (stamp) ctx.stamp = stamp;
  // Passings stored meanwhile by a writer still holding the previous state (or another node)
  // are in the state before anyone reads it, not only at the next catch-up.
  const newer = await repo.passingsAfter(database, db, ctx.lastSeq);
  if (newer.length) ctx.patchesFor(ctx.apply(newer), false);
  core.caughtUpAt.set(db, Date.now());
  // A follower's reads held by the load: observers hear of them through `loaded`.
  const f = core.following.get(db);
  if (f) f.ownRows = f.ownRows.filter((r) => r.seq > ctx.lastSeq);
  notify(core, (o) => o.loaded?.(ctx));
  // A finished event's tables are kept for the next start (issue 27), in the background.
  if (context.eventStatus === 'finished' && deps.snapshots !== false) {
    core.snapshotting = core.snapshotting
      .then(async () => {
        // Only the state still current (not one forgotten by a change meanwhile), and it stops
        // once forgotten while writing (issue 40: a runner's erased or hidden name must not come
        // back in a snapshot of the former state).
        const now = core.loaded.get(db);
        return now && (await now.catch(() => null)) === ctx && !core.closing
          ? writeSnapshot(database, ctx, () => core.closing || core.loaded.get(db) !== now)
          : false;
      })
      .catch((error) => console.error('results: storing a report snapshot failed', error));
  }
  return ctx;
}

/** Reads the stamp and opens the snapshot stored for it (the one held when it is the same). */
function checkSnapshot(core: ResultsCore, db: string, before?: HeldSnapshot): HeldSnapshot {
  const held: HeldSnapshot = { at: Date.now(), snapshot: Promise.resolve(null), done: false };
  held.snapshot = (async () => {
    const stamp = await currentStamp(core.database, db);
    if (!stamp) return null;
    const previous = await before?.snapshot.catch(() => null);
    return previous?.stamp === stamp.key ? previous : openSnapshot(core.database, db, stamp.key);
  })().finally(() => {
    held.done = true;
  });
  core.snapshots.set(db, held);
  return held;
}

/**
 * The stored snapshot of a context this node has not loaded, when one is stored for its current
 * stamp (issue 27); null otherwise (the caller loads the state). The stamp is read again at most
 * every CATCH_UP_MS — as a loaded state catches up — and for a `fresh` read by a check started
 * after it came (one shared by every fresh reader meanwhile, as `freshCatchUp`), so a change
 * made on any node stops the snapshot from being served within that time.
 */
export async function snapshot(core: ResultsCore, db: string, fresh = false): Promise<Snapshot | null> {
  if (core.deps.snapshots === false) return null;
  const pending = core.loaded.get(db);
  if (pending && core.settled.has(pending)) return null;
  const held = core.snapshots.get(db);
  let answer: Promise<Snapshot | null>;
  if (!held || (!fresh && Date.now() - held.at > CATCH_UP_MS) || (fresh && held.done))
    answer = checkSnapshot(core, db, held).snapshot;
  else if (fresh) {
    held.next ??= held.snapshot
      .catch(() => null)
      .then(() =>
        core.snapshots.get(db) === held ? checkSnapshot(core, db, held).snapshot : snapshot(core, db, true),
      );
    answer = held.next;
  } else answer = held.snapshot;
  return answer.catch(() => null);
}

/** Resolves once the snapshot writes started so far are done (tests, the bench). */
export function snapshotsWritten(core: ResultsCore): Promise<undefined> {
  return core.snapshotting.then(() => undefined);
}

/** Stops the snapshot writes (the node is closing); resolves once the current one stopped. */
export function stopSnapshots(core: ResultsCore): Promise<void> {
  core.closing = true;
  return core.snapshotting.then(() => undefined);
}

/**
 * Reads the passings other nodes stored since this node's last one, one query at a time, and
 * applies them — in a cluster, on the publisher, to be published (they are its to publish).
 * Resolves with the catch-up's number, taken as its query starts (see `freshCatchUp`).
 */
export function catchUp(core: ResultsCore, db: string, ctx: ContextState): Promise<number> {
  const { cluster, database } = core;
  let running = core.catchingUp.get(db);
  if (!running) {
    running = core.mutex
      .run(db, async () => {
        const number = ++core.catchUpCount;
        const newer = await repo.passingsAfter(database, db, ctx.lastSeq);
        if (cluster && publishes(core, db)) {
          // Issue 20, one publisher per context: this node publishes every change, whoever
          // stored it (the others told it, or it took the lease over), in its window.
          if (newer.length) {
            const changes = ctx.stage(newer);
            ownApplied(core, db, ctx, newer, changes);
            schedule(core, db, ctx);
          } else if (ctx.lastSeq > (core.announced.get(db) ?? 0)) flush(core, db, ctx);
        } else if (newer.length) {
          // Without a cluster (or the lease), the node that stored these reads published their
          // patches; publishing them again from here sent every reload twice. The versions
          // still move (patchesFor bumps them), so this node's next patch starts from the right one.
          const changes = ctx.stage(newer, false);
          if (cluster) ownApplied(core, db, ctx, newer, changes);
        }
        core.caughtUpAt.set(db, Date.now());
        return number;
      })
      .finally(() => core.catchingUp.delete(db));
    core.catchingUp.set(db, running);
  }
  return running;
}

/**
 * Waits for a catch-up whose query started after this call (issue 20: a client that has just
 * subscribed reads once, and that read must hold every change published before the
 * subscription — each was stored before it was published). Concurrent fresh readers share
 * one query: a burst of reconnections costs one or two queries, not one per client.
 */
export async function freshCatchUp(core: ResultsCore, db: string, ctx: ContextState): Promise<void> {
  const after = core.catchUpCount;
  const running = core.catchingUp.get(db);
  if (running) {
    // Queued behind the mutex, the running one may not have started yet: then it counts.
    const number = await running.catch(() => 0);
    if (number > after) return;
  }
  // Any catch-up running now started after this reader came; else a new one starts.
  await catchUp(core, db, ctx);
}

/**
 * The live state of a context, caught up with passings stored by other nodes. With
 * `minVersion` (a report version a client learnt from a patch, which is the `seq` of the last
 * passing it holds), the answer waits until this node has applied that passing: a reader sent
 * here by a reload published on another node never gets the table it already had (issue 20).
 * `fresh` (a client's first read after subscribing or reconnecting) waits for a catch-up that
 * started after the call, so the answer holds every change published before it.
 */
export async function state(
  core: ResultsCore,
  db: string,
  minVersion = 0,
  fresh = false,
): Promise<ContextState> {
  const ctx = await context(core, db);
  if (core.cluster && !publishes(core, db)) return followerState(core, db, ctx, minVersion, fresh);
  return publisherState(core, db, ctx, minVersion, fresh);
}

/** A context's state as loaded (loading it on first use), once what it applies is applied. */
export async function context(core: ResultsCore, db: string): Promise<ContextState> {
  let pending = core.loaded.get(db);
  if (!pending) {
    const started = load(core, db);
    pending = started;
    core.loaded.set(db, started);
    started.then(
      () => core.settled.add(started),
      () => undefined,
    );
    // Only this load's entry: one started after an `invalidate` meanwhile stays.
    started.catch(() => {
      if (core.loaded.get(db) === started) core.loaded.delete(db);
    });
  }
  const ctx = await pending;
  await ctx.applying;
  return ctx;
}

/** `state` on the node publishing the context (every node without a cluster). */
async function publisherState(
  core: ResultsCore,
  db: string,
  ctx: ContextState,
  minVersion: number,
  fresh: boolean,
): Promise<ContextState> {
  if (minVersion > ctx.lastSeq) {
    // The version exists (a node published it, after its commit): catching up reaches it,
    // unless it is not a version of this context at all (a forged or stale number) — bounded.
    const deadline = Date.now() + MIN_VERSION_WAIT_MS;
    while (minVersion > ctx.lastSeq && Date.now() < deadline) {
      await catchUp(core, db, ctx);
      await ctx.applying;
      if (minVersion > ctx.lastSeq) await new Promise((r) => setTimeout(r, 20));
    }
    flush(core, db, ctx);
    return ctx;
  }
  if (fresh) {
    await freshCatchUp(core, db, ctx);
    await ctx.applying;
    flush(core, db, ctx);
    return ctx;
  }
  if (minVersion) flush(core, db, ctx);
  // Catch up with other nodes' passings at most every CATCH_UP_MS, one query shared by all
  // concurrent readers (a burst of 64 readers must not queue 64 queries). Under steady reads
  // the catch-up runs behind them (stale by at most CATCH_UP_MS and one query: waiting for it
  // was the p99 of a revalidation at 64 connections); a reader after a quiet spell, when the
  // last catch-up is older than STALE_MS, waits for a fresh one.
  const now = Date.now();
  const last = core.caughtUpAt.get(db) ?? 0;
  if (now - last > CATCH_UP_MS) {
    const running = catchUp(core, db, ctx);
    if (now - last > STALE_MS) await running;
    else running.catch(() => undefined); // a failure is met by the next reader, who retries
  }
  return ctx;
}

/**
 * Forgets a context's state (after its races or participants changed). A caller holding the
 * context's participants as now stored may pass them: the rebuild then skips reading them
 * (race day: a status set, a chip assigned; the participants query is most of a rebuild).
 */
export function invalidate(core: ResultsCore, db: string, participants?: repo.ParticipantRow[]): void {
  core.loaded.delete(db);
  core.snapshots.delete(db);
  if (participants) core.presetParticipants.set(db, participants);
  else core.presetParticipants.delete(db);
  // Observers hear of status changes (DNS/DNF/DSQ) when the context loads again: soon, once
  // for a burst of changes (an import invalidates batch after batch).
  if (core.observers.size && !core.reloading.has(db)) {
    const timer = setTimeout(() => {
      core.reloading.delete(db);
      void state(core, db).catch(() => undefined);
    }, 200);
    timer.unref();
    core.reloading.set(db, timer);
  }
}
