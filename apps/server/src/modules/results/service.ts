import crypto from 'node:crypto';
import {
  type AthleteCard,
  bundleResults,
  CHANGED_EVENT,
  type ChangedEvent,
  type IngestResult,
  liveChannels,
  type ParticipantHit,
  type PassingEvent,
  RESULTS_EVENT,
  type ReportList,
  type ReportPatch,
  TOP_WINDOW_ROWS,
} from '@tempora/contracts';
import {
  compareHits,
  GENDERS,
  getResultRow,
  matchScore,
  type Passing,
  type PassingSource,
  predict,
  statusOf,
  wallClock,
} from '@tempora/domain';
import type { Database } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import type { RealtimePublisher } from '../../realtime/adapters/types.ts';
import { ContextState, MAX_PATCH_BYTES, type RaceLive, type ReportWatch } from './context-state.ts';
import { raceClock } from './live-views.ts';
import type { ChannelOccupancy } from './occupancy.ts';
import { LEASE_MS, type PublisherLeases } from './publisher-lease.ts';
import { currentStamp, openSnapshot, type Snapshot, writeSnapshot } from './report-snapshots.ts';
import * as repo from './repository.ts';

/** How stale a node's view of other nodes' passings may be when answering a read. */
const CATCH_UP_MS = 500;
/** Beyond this age of the last catch-up, a reader waits for the next one. */
const STALE_MS = 5 * CATCH_UP_MS;
/** The longest a read asking for a version this node has not reached yet waits for it. */
const MIN_VERSION_WAIT_MS = 3_000;
/**
 * Default of `publishMs`: a context's changes go out at most this often (RESULTS_PUBLISH_MS).
 * 250 ms: decoders that post each second at about the same moment share one publication; a
 * passing after a quiet window waits for nothing (issue 20's two-node test: a new leader a second
 * must show within one).
 */
export const PUBLISH_MS = 250;

/** Serialises work per key (ingest into one context stays in order on this node). */
class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}

/** SHA-256 of a device key: keys are shown once and stored hashed. */
export function hashKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

/** A random, unguessable public key (tracking keys, device keys). */
export function randomKey(bytes = 12): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export interface IncomingPassing {
  id?: string | undefined;
  bib?: string | undefined;
  chip?: string | undefined;
  pointKey: string;
  timeMs: number;
  deleted?: boolean | undefined;
}

/**
 * A read as stored. Without an id of its own, a read is named by its runner, point and time
 * (`c:<chip>@<point>@<ms>` or `b:<bib>@…`), so the same read sent twice — a decoder's rewind, a
 * file imported again — is one passing.
 */
export function toPassing(
  p: IncomingPassing,
  source: PassingSource,
  meta: { deviceId?: string | null; createdBy?: string | null } = {},
): Passing & { createdBy: string | null } {
  const runner = p.chip ? `c:${p.chip}` : `b:${p.bib}`;
  return {
    id: p.id ?? `${runner}@${p.pointKey}@${p.timeMs}`,
    pointId: p.pointKey,
    timeMs: p.timeMs,
    source,
    createdBy: meta.createdBy ?? null,
    ...(p.bib ? { bib: p.bib } : {}),
    ...(p.chip ? { chip: p.chip } : {}),
    ...(meta.deviceId ? { device: meta.deviceId } : {}),
    ...(p.deleted ? { deleted: true } : {}),
  };
}

/**
 * What an observer of the results hears (webhooks, issue 16): passings this node stored, once
 * applied, and every (re)load of a context (after its participants or races changed). Called
 * synchronously behind the acknowledgement: an observer only queues its work, never awaits it.
 */
export interface ResultsObserver {
  applied?(
    ctx: ContextState,
    stored: readonly repo.PassingRow[],
    changes: ReturnType<ContextState['apply']>,
  ): void;
  loaded?(ctx: ContextState): void;
}

/**
 * What the nodes of a cluster tell each other about a context (issue 20: one publisher per
 * context), over the realtime bus. `stored`: a node that does not publish the context stored reads
 * up to `seq` (the publisher, or whoever takes a free lease, catches up and publishes them).
 * `published`: the publisher's state, every passing up to `seq`, went out with these report
 * versions (sent before the publication's events, on the same Redis connection: a node hears it
 * before its sockets deliver them). `released`: the publisher stopped and gave the lease back.
 */
export type ClusterNotice =
  | { kind: 'stored'; db: string; seq: number }
  | { kind: 'published'; db: string; seq: number; versions: Record<string, number> }
  | { kind: 'released'; db: string };

/**
 * The results service (style.md: a factory taking its repository, clock and publisher). Every
 * context is loaded into memory on first use and kept current: by the passings this node stores,
 * and by catching up from the database (`seq`) before answering, so several nodes agree. With a
 * `cluster` (several nodes on Redis), one node at a time publishes a context's changes — the
 * holder of its lease — and the others follow its publications (issue 20: one publisher per
 * change, so that subscribers' patches form one chain; docs/deployment.md).
 */
export function createResultsService(deps: {
  database: Database;
  publisher: RealtimePublisher;
  /**
   * Coalescing (issue 20): a context's changes are published at most once per this many ms, as
   * one `results` event holding one patch per changed report from the version last published
   * (0: after every ingest batch); the first change after a quiet window goes out at once. Reads never wait for it: a plain read answers the applied
   * state; a live one (`fresh`, `minVersion`) publishes what is pending first, so that the
   * version it answers is one the next patch starts from.
   */
  publishMs?: number;
  /**
   * A patch larger than this goes out as a reload: 8 KB through an upstream Pusher service (its
   * 10 KB event limit); more through our own nodes (RESULTS_PATCH_MAX_BYTES).
   */
  maxPatchBytes?: number;
  /**
   * Who is subscribed to which live channel (issue 28: channels follow views, see
   * `liveChannels`): a context's changes go only to occupied channels, and the patches of a
   * report nobody watches are not built. Absent: everything goes to `results-{db}` as before.
   */
  occupancy?: ChannelOccupancy;
  /** Report snapshots of finished events stored and served (issue 27; RESULTS_SNAPSHOTS). Default true. */
  snapshots?: boolean;
  /** How a sliced state build lets the event loop in, and how often (tests; see `ContextState.build`). */
  build?: { pause: () => Promise<unknown>; sliceMs: number };
  /**
   * Several nodes with a bus between them (issue 20: one publisher per context). Absent (one
   * node, or nodes without Redis): this node publishes every change it stores or catches up.
   * See `followerState` for what a node that does not publish a context does.
   */
  cluster?: {
    leases: PublisherLeases;
    /** Tells the other nodes (never this one). */
    send(notice: ClusterNotice): void;
    /** The leases' time (a follower whose reads are not published within it claims the lease). */
    leaseMs?: number;
  };
}) {
  const { database, publisher, cluster, occupancy } = deps;
  const leaseMs = cluster?.leaseMs ?? LEASE_MS;
  const publishMs = deps.publishMs ?? PUBLISH_MS;
  const maxPatchBytes = deps.maxPatchBytes ?? MAX_PATCH_BYTES;
  /** Open coalescing windows per context: their timers and the state they publish. */
  const windows = new Map<string, { timer: ReturnType<typeof setTimeout>; ctx: ContextState }>();
  /** When each context last published (the start of its current window). */
  const publishedAt = new Map<string, number>();
  /** Publications in order per context. */
  const publishing = new Map<string, Promise<void>>();
  const loaded = new Map<string, Promise<ContextState>>();
  const mutex = new KeyedMutex();
  const caughtUpAt = new Map<string, number>();
  const groupContexts = new Map<string, string>();
  const catchingUp = new Map<string, Promise<number>>();
  /** Catch-ups are numbered as their queries start (see `freshCatchUp`). */
  let catchUpCount = 0;
  const observers = new Set<ResultsObserver>();
  const reloading = new Map<string, ReturnType<typeof setTimeout>>();
  const notify = (call: (o: ResultsObserver) => void) => {
    for (const o of observers) {
      try {
        call(o);
      } catch (error) {
        console.error('results: an observer failed', error);
      }
    }
  };

  /**
   * What a node that does not publish a context knows of the publisher (issue 20): the highest
   * `seq` it announced and when it last heard of it, the reads this node stored that no
   * publication has held yet (their highest seq, their rows for the observers) and the timer that
   * claims the lease when they stay unpublished.
   */
  interface Following {
    announced: number;
    heardAt: number;
    own: number;
    ownRows: repo.PassingRow[];
    watch?: ReturnType<typeof setTimeout>;
    checkedAt: number;
  }
  const following = new Map<string, Following>();
  const followingOf = (db: string): Following => {
    let f = following.get(db);
    if (!f) {
      f = { announced: 0, heardAt: Date.now(), own: 0, ownRows: [], checkedAt: 0 };
      following.set(db, f);
    }
    return f;
  };
  /** The `seq` each context's publisher last announced (see `announce`). */
  const announced = new Map<string, number>();

  // A lease lost (this node paused past its time, or Redis away): what its window held goes out
  // from the new publisher, in that one's chain.
  cluster?.leases.onLost((db) => {
    const open = windows.get(db);
    if (open) {
      clearTimeout(open.timer);
      windows.delete(db);
      open.ctx.dropPending();
    }
    void loaded
      .get(db)
      ?.then((ctx) => ctx.dropPending())
      .catch(() => undefined);
  });

  /** Whether this node publishes a context's changes (always without a cluster). */
  const publishes = (db: string) => !cluster || cluster.leases.holds(db);

  /**
   * Takes a context's lease when it is free (or this node holds it): true when this node is the
   * publisher now. A takeover needs no step of its own: the next catch-up (or ingest) reads every
   * passing this node has not applied and publishes them in its own chain, from the tables this
   * node holds — the previous publisher's last publication when it followed it to the end, so
   * subscribers' chains usually go on; else the first patch does not start from their version and
   * they fetch the table once.
   */
  async function claim(db: string): Promise<boolean> {
    if (!cluster) return true;
    return (await cluster.leases.acquire(db)) !== 'other';
  }

  /** Participants a caller already holds for the next load of a context (see `invalidate`). */
  const presetParticipants = new Map<string, repo.ParticipantRow[]>();

  async function load(db: string): Promise<ContextState> {
    const context = await repo.findContext(database, db);
    if (!context) throw errors.notFound('CONTEXT_NOT_FOUND', `No context '${db}'`);
    const preset = presetParticipants.get(db);
    presetParticipants.delete(db);
    // Read before the rows: names the state built from them (issue 27, report-snapshots.ts).
    const stamp = await currentStamp(database, db);
    const [races, points, participants, passings, reports] = await Promise.all([
      repo.racesOf(database, db),
      repo.pointsOf(database, db),
      preset ?? repo.participantsOf(database, db),
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
    ctx.watching = watcher(db);
    if (stamp) ctx.stamp = stamp;
    // Passings stored meanwhile by a writer still holding the previous state (or another node)
    // are in the state before anyone reads it, not only at the next catch-up.
    const newer = await repo.passingsAfter(database, db, ctx.lastSeq);
    if (newer.length) ctx.patchesFor(ctx.apply(newer), false);
    caughtUpAt.set(db, Date.now());
    // A follower's reads held by the load: observers hear of them through `loaded`.
    const f = following.get(db);
    if (f) f.ownRows = f.ownRows.filter((r) => r.seq > ctx.lastSeq);
    notify((o) => o.loaded?.(ctx));
    // A finished event's tables are kept for the next start (issue 27), in the background.
    if (context.eventStatus === 'finished' && deps.snapshots !== false) {
      snapshotting = snapshotting
        .then(async () => {
          // Only the state still current (not one forgotten by a change meanwhile).
          const now = loaded.get(db);
          return now && (await now.catch(() => null)) === ctx && !closing
            ? writeSnapshot(database, ctx, () => closing)
            : false;
        })
        .catch((error) => console.error('results: storing a report snapshot failed', error));
    }
    return ctx;
  }

  /** Snapshot writes, one at a time (each builds a context's tables in slices). */
  let snapshotting: Promise<unknown> = Promise.resolve();
  /** Set as the node closes: snapshot writes stop (the database closes behind them). */
  let closing = false;
  /** Loads that have resolved: their context answers from its state, not from a snapshot. */
  const settled = new WeakSet<Promise<ContextState>>();
  /** Per context not loaded: its snapshot for the stamp read at `at` (see `snapshot`). */
  const snapshots = new Map<string, HeldSnapshot>();
  interface HeldSnapshot {
    at: number;
    snapshot: Promise<Snapshot | null>;
    done: boolean;
    /** The check after this one, shared by the fresh readers that came while this one ran. */
    next?: Promise<Snapshot | null>;
  }

  /** Reads the stamp and opens the snapshot stored for it (the one held when it is the same). */
  function checkSnapshot(db: string, before?: HeldSnapshot): HeldSnapshot {
    const held: HeldSnapshot = { at: Date.now(), snapshot: Promise.resolve(null), done: false };
    held.snapshot = (async () => {
      const stamp = await currentStamp(database, db);
      if (!stamp) return null;
      const previous = await before?.snapshot.catch(() => null);
      return previous?.stamp === stamp.key ? previous : openSnapshot(database, db, stamp.key);
    })().finally(() => {
      held.done = true;
    });
    snapshots.set(db, held);
    return held;
  }

  /**
   * The stored snapshot of a context this node has not loaded, when one is stored for its current
   * stamp (issue 27); null otherwise (the caller loads the state). The stamp is read again at most
   * every CATCH_UP_MS — as a loaded state catches up — and for a `fresh` read by a check started
   * after it came (one shared by every fresh reader meanwhile, as `freshCatchUp`), so a change
   * made on any node stops the snapshot from being served within that time.
   */
  async function snapshot(db: string, fresh = false): Promise<Snapshot | null> {
    if (deps.snapshots === false) return null;
    const pending = loaded.get(db);
    if (pending && settled.has(pending)) return null;
    const held = snapshots.get(db);
    let answer: Promise<Snapshot | null>;
    if (!held || (!fresh && Date.now() - held.at > CATCH_UP_MS) || (fresh && held.done))
      answer = checkSnapshot(db, held).snapshot;
    else if (fresh) {
      held.next ??= held.snapshot
        .catch(() => null)
        .then(() => (snapshots.get(db) === held ? checkSnapshot(db, held).snapshot : snapshot(db, true)));
      answer = held.next;
    } else answer = held.snapshot;
    return answer.catch(() => null);
  }

  /**
   * Reads the passings other nodes stored since this node's last one, one query at a time, and
   * applies them — in a cluster, on the publisher, to be published (they are its to publish).
   * Resolves with the catch-up's number, taken as its query starts (see `freshCatchUp`).
   */
  function catchUp(db: string, ctx: ContextState): Promise<number> {
    let running = catchingUp.get(db);
    if (!running) {
      running = mutex
        .run(db, async () => {
          const number = ++catchUpCount;
          const newer = await repo.passingsAfter(database, db, ctx.lastSeq);
          if (cluster && publishes(db)) {
            // Issue 20, one publisher per context: this node publishes every change, whoever
            // stored it (the others told it, or it took the lease over), in its window.
            if (newer.length) {
              const changes = ctx.stage(newer);
              ownApplied(db, ctx, newer, changes);
              schedule(db, ctx);
            } else if (ctx.lastSeq > (announced.get(db) ?? 0)) flush(db, ctx);
          } else if (newer.length) {
            // Without a cluster (or the lease), the node that stored these reads published their
            // patches; publishing them again from here sent every reload twice. The versions
            // still move (patchesFor bumps them), so this node's next patch starts from the right one.
            const changes = ctx.stage(newer, false);
            if (cluster) ownApplied(db, ctx, newer, changes);
          }
          caughtUpAt.set(db, Date.now());
          return number;
        })
        .finally(() => catchingUp.delete(db));
      catchingUp.set(db, running);
    }
    return running;
  }

  /**
   * Waits for a catch-up whose query started after this call (issue 20: a client that has just
   * subscribed reads once, and that read must hold every change published before the
   * subscription — each was stored before it was published). Concurrent fresh readers share
   * one query: a burst of reconnections costs one or two queries, not one per client.
   */
  async function freshCatchUp(db: string, ctx: ContextState): Promise<void> {
    const after = catchUpCount;
    const running = catchingUp.get(db);
    if (running) {
      // Queued behind the mutex, the running one may not have started yet: then it counts.
      const number = await running.catch(() => 0);
      if (number > after) return;
    }
    // Any catch-up running now started after this reader came; else a new one starts.
    await catchUp(db, ctx);
  }

  /**
   * The live state of a context, caught up with passings stored by other nodes. With
   * `minVersion` (a report version a client learnt from a patch, which is the `seq` of the last
   * passing it holds), the answer waits until this node has applied that passing: a reader sent
   * here by a reload published on another node never gets the table it already had (issue 20).
   * `fresh` (a client's first read after subscribing or reconnecting) waits for a catch-up that
   * started after the call, so the answer holds every change published before it.
   */
  async function state(db: string, minVersion = 0, fresh = false): Promise<ContextState> {
    const ctx = await context(db);
    if (cluster && !publishes(db)) return followerState(db, ctx, minVersion, fresh);
    return publisherState(db, ctx, minVersion, fresh);
  }

  /** A context's state as loaded (loading it on first use), once what it applies is applied. */
  async function context(db: string): Promise<ContextState> {
    let pending = loaded.get(db);
    if (!pending) {
      const started = load(db);
      pending = started;
      loaded.set(db, started);
      started.then(
        () => settled.add(started),
        () => undefined,
      );
      // Only this load's entry: one started after an `invalidate` meanwhile stays.
      started.catch(() => {
        if (loaded.get(db) === started) loaded.delete(db);
      });
    }
    const ctx = await pending;
    await ctx.applying;
    return ctx;
  }

  /** `state` on the node publishing the context (every node without a cluster). */
  async function publisherState(
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
        await catchUp(db, ctx);
        await ctx.applying;
        if (minVersion > ctx.lastSeq) await new Promise((r) => setTimeout(r, 20));
      }
      flush(db, ctx);
      return ctx;
    }
    if (fresh) {
      await freshCatchUp(db, ctx);
      await ctx.applying;
      flush(db, ctx);
      return ctx;
    }
    if (minVersion) flush(db, ctx);
    // Catch up with other nodes' passings at most every CATCH_UP_MS, one query shared by all
    // concurrent readers (a burst of 64 readers must not queue 64 queries). Under steady reads
    // the catch-up runs behind them (stale by at most CATCH_UP_MS and one query: waiting for it
    // was the p99 of a revalidation at 64 connections); a reader after a quiet spell, when the
    // last catch-up is older than STALE_MS, waits for a fresh one.
    const now = Date.now();
    const last = caughtUpAt.get(db) ?? 0;
    if (now - last > CATCH_UP_MS) {
      const running = catchUp(db, ctx);
      if (now - last > STALE_MS) await running;
      else running.catch(() => undefined); // a failure is met by the next reader, who retries
    }
    return ctx;
  }

  /**
   * `state` on a node that does not publish the context (issue 20). Its state moves only as the
   * publisher's does: at each publication it hears of, it reads the passings up to the
   * publication's seq and takes its report versions (`follow`), so that a reader here gets a
   * version the publisher's next patch starts from. The reads this node stores wait for the
   * publisher too (it publishes them within its window, usually a few hundred ms): a read here
   * waits until this node's own stored reads are in (read-your-writes), a `minVersion` read until
   * that version, a `fresh` one until every publication heard before it — each at most
   * MIN_VERSION_WAIT_MS. Past that the publisher is presumed gone: this node claims the lease
   * (free once it expired) and catches up as the publisher. Nothing heard for STALE_MS: a reader
   * checks the lease (a publisher that died with reads stored and nobody storing more).
   */
  async function followerState(
    db: string,
    ctx: ContextState,
    minVersion: number,
    fresh: boolean,
  ): Promise<ContextState> {
    const f = followingOf(db);
    const target = Math.max(minVersion, f.own, fresh ? f.announced : 0);
    if (target > ctx.lastSeq) {
      const deadline = Date.now() + MIN_VERSION_WAIT_MS;
      while (target > ctx.lastSeq && Date.now() < deadline && !publishes(db))
        await new Promise((r) => setTimeout(r, 20));
      if (target > ctx.lastSeq && (await claim(db))) {
        await catchUp(db, ctx);
        await ctx.applying;
        flush(db, ctx);
      }
      return ctx;
    }
    const now = Date.now();
    if (now - f.heardAt > STALE_MS && now - f.checkedAt > STALE_MS) {
      f.checkedAt = now;
      void claim(db)
        .then((mine) => (mine ? catchUp(db, ctx) : undefined))
        .catch(() => undefined);
    }
    return ctx;
  }

  /**
   * A publication heard from the publisher (see `ClusterNotice`): this node reads the passings up
   * to its seq and takes its versions. A node ahead of it (it read the database itself, or it
   * published until now) takes nothing and catches up at a later publication.
   */
  function follow(db: string, seq: number, versions: Record<string, number>) {
    const f = followingOf(db);
    f.announced = Math.max(f.announced, seq);
    f.heardAt = Date.now();
    const pending = loaded.get(db);
    if (!pending || publishes(db)) return;
    void pending
      .then((ctx) =>
        mutex.run(db, async () => {
          if (publishes(db) || ctx.lastSeq > seq || loaded.get(db) !== pending) return;
          if (ctx.lastSeq < seq) {
            const newer = (await repo.passingsAfter(database, db, ctx.lastSeq)).filter((p) => p.seq <= seq);
            await ctx.applying;
            if (newer.length) ownApplied(db, ctx, newer, ctx.stage(newer, false));
          }
          if (ctx.lastSeq === seq) ctx.adoptVersions(versions);
          caughtUpAt.set(db, Date.now());
        }),
      )
      .catch((error) => console.error('results: following the publisher failed', error));
  }

  /** Observers hear of the reads this node stored once they are applied (a follower's: later). */
  function ownApplied(
    db: string,
    ctx: ContextState,
    rows: readonly repo.PassingRow[],
    changes: ReturnType<ContextState['apply']>,
  ) {
    const f = following.get(db);
    if (!f?.ownRows.length) return;
    const seqs = new Set(rows.map((r) => r.seq));
    const mine = f.ownRows.filter((r) => seqs.has(r.seq));
    if (!mine.length) return;
    f.ownRows = f.ownRows.filter((r) => !seqs.has(r.seq));
    notify((o) => o.applied?.(ctx, mine, changes));
  }

  /**
   * A follower's reads not published within the lease's time: the publisher is gone or did not
   * hear of them. It claims the lease (free once the holder stopped renewing it) and publishes
   * them itself, else it tells the publisher again; until they are in.
   */
  function watch(db: string) {
    const f = followingOf(db);
    if (f.watch || !cluster) return;
    const { send } = cluster;
    f.watch = setTimeout(() => {
      f.watch = undefined;
      void (async () => {
        const ctx = await context(db);
        if (f.own <= ctx.lastSeq) return;
        if (await claim(db)) await catchUp(db, ctx);
        else send({ kind: 'stored', db, seq: f.own });
        watch(db);
      })().catch((error) => console.error('results: claiming the publisher lease failed', error));
    }, leaseMs);
    f.watch.unref?.();
  }

  /**
   * Publishes what a context staged (issue 20: one `results` event per window, see `publishMs`),
   * now: at the window's end, or before a live read answers (its version must be one that
   * patches start from). Computed at once, sent in order behind the previous publications.
   */
  function flush(db: string, ctx: ContextState) {
    const open = windows.get(db);
    if (open) {
      clearTimeout(open.timer);
      windows.delete(db);
      // A window opened on a state since rebuilt (`invalidate`): what it holds goes out first.
      if (open.ctx !== ctx) flush(db, open.ctx);
    }
    if (cluster && !publishes(db)) {
      // Not sure of the lease any more (a renewal late: a busy event loop): asked again. Gone to
      // another node meanwhile, that node publishes these changes in its chain.
      if (ctx.hasPending)
        void claim(db)
          .then((mine) => (mine && cluster.leases.holds(db) ? flush(db, ctx) : ctx.dropPending()))
          .catch(() => ctx.dropPending());
      return;
    }
    // In a cluster, the other nodes hear of every state this node publishes, even one without a
    // patch (reads that changed no table): their readers wait for it (see `followerState`).
    const announce = cluster !== undefined && ctx.lastSeq > (announced.get(db) ?? 0);
    if (!ctx.hasPending && !announce) return;
    let publication: ReturnType<ContextState['flush']> = null;
    if (ctx.hasPending) {
      publishedAt.set(db, Date.now());
      try {
        publication = ctx.flush(maxPatchBytes);
      } catch (error) {
        console.error('results: publishing passings failed', error);
        invalidate(db);
        return;
      }
    }
    let notice: ClusterNotice | undefined;
    if (announce) {
      announced.set(db, ctx.lastSeq);
      notice = { kind: 'published', db, seq: ctx.lastSeq, versions: ctx.versionsOf() };
    }
    if (!publication && !notice) return;
    const { patches, windows: tops, passed } = publication ?? { patches: [], windows: [], passed: [] };
    const next = (publishing.get(db) ?? Promise.resolve())
      .then(() => {
        // Before the events, on the same connection: a node hears of the state before its
        // sockets deliver its patches (a reader sent back by one finds it there).
        if (notice) cluster?.send(notice);
        return publish(ctx, patches, tops, passed);
      })
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
  function schedule(db: string, ctx: ContextState) {
    const open = windows.get(db);
    if (open?.ctx === ctx) return;
    const wait = (publishedAt.get(db) ?? 0) + publishMs - Date.now();
    if (open || publishMs <= 0 || wait <= 0) return flush(db, ctx);
    const timer = setTimeout(() => {
      if (windows.get(db)?.timer === timer) windows.delete(db);
      flush(db, ctx);
    }, wait);
    timer.unref?.();
    windows.set(db, { timer, ctx });
  }

  /** Who watches a report of context `db` now (issue 28), from the channels' occupancy. */
  function watcher(db: string): (group: string, report: string, rows: number) => ReportWatch {
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
    ctx: ContextState,
    patches: ReportPatch[],
    tops: { k: number; patch: ReportPatch }[],
    passed: { race: RaceLive; seen: RaceLive['recent'] }[],
  ) {
    const db = ctx.context.db;
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
    const limit = Math.max(maxPatchBytes + 2_048, 10 * 1024);
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

  /**
   * Forgets a context's state (after its races or participants changed). A caller holding the
   * context's participants as now stored may pass them: the rebuild then skips reading them
   * (race day: a status set, a chip assigned; the participants query is most of a rebuild).
   */
  function invalidate(db: string, participants?: repo.ParticipantRow[]) {
    loaded.delete(db);
    snapshots.delete(db);
    if (participants) presetParticipants.set(db, participants);
    else presetParticipants.delete(db);
    // Observers hear of status changes (DNS/DNF/DSQ) when the context loads again: soon, once
    // for a burst of changes (an import invalidates batch after batch).
    if (observers.size && !reloading.has(db)) {
      const timer = setTimeout(() => {
        reloading.delete(db);
        void state(db).catch(() => undefined);
      }, 200);
      timer.unref();
      reloading.set(db, timer);
    }
  }

  async function settle(db: string): Promise<void> {
    const open = windows.get(db);
    if (open) {
      await open.ctx.applying;
      flush(db, open.ctx);
    }
    const pending = loaded.get(db);
    if (pending) {
      const ctx = await pending.catch(() => null);
      if (ctx) {
        await ctx.applying;
        flush(db, ctx);
      }
    }
    await publishing.get(db);
  }

  return {
    state,
    invalidate,
    snapshot,
    /** Resolves once the snapshot writes started so far are done (tests, the bench). */
    snapshotsWritten: () => snapshotting.then(() => undefined),
    /** Stops the snapshot writes (the node is closing); resolves once the current one stopped. */
    stopSnapshots(): Promise<void> {
      closing = true;
      return snapshotting.then(() => undefined);
    },

    /**
     * Publishes a context's pending changes now, without waiting for the window's end, and
     * resolves once everything it staged is published (tests; a node stopping).
     */
    settle,

    /** `settle` for every context with a window open (a node stopping publishes what it holds). */
    async settleAll(): Promise<void> {
      await Promise.all([...windows.keys()].map((db) => settle(db).catch(() => undefined)));
    },

    /**
     * A notice from another node (issue 20, see `ClusterNotice`). `stored`: the publisher (or,
     * the lease being free, the first node to take it) catches up and publishes those reads.
     * `published`: a follower moves its state to the publication's.
     */
    hear(notice: ClusterNotice): void {
      if (!cluster) return;
      if (notice.kind === 'published') {
        follow(notice.db, notice.seq, notice.versions);
        return;
      }
      const { db } = notice;
      if (notice.kind === 'released') {
        // The lease is free now, not when this node thought it would expire: a node with reads
        // waiting for a publication takes it at once; else the next node storing one.
        cluster.leases.forget(db);
        const f = following.get(db);
        if (!f?.own || !loaded.has(db)) return;
        void (async () => {
          const ctx = await context(db);
          if (f.own > ctx.lastSeq && (await claim(db))) await catchUp(db, ctx);
        })().catch((error) => console.error('results: taking over a released context failed', error));
        return;
      }
      void (async () => {
        if (!(await claim(db))) return;
        const ctx = await context(db);
        // A catch-up whose query started before these reads committed would miss them.
        if (notice.seq > ctx.lastSeq) await freshCatchUp(db, ctx);
        // Held already (this node loaded them, after a setup change): still announced, so
        // that the node that stored them sees them in (see `followerState`).
        await ctx.applying;
        if (publishes(db) && !ctx.hasPending && ctx.lastSeq > (announced.get(db) ?? 0)) flush(db, ctx);
      })().catch((error) => console.error('results: catching up with another node failed', error));
    },

    /** Adds an observer (webhooks); returns its removal. */
    observe(observer: ResultsObserver): () => void {
      observers.add(observer);
      return () => observers.delete(observer);
    },

    /**
     * Stores a batch of reads durably (one statement, one transaction) and only then applies and
     * publishes them — or, on a node that does not publish the context, tells the publisher,
     * which publishes them, and applies them with its publication. Duplicates (same id) are
     * counted, not applied twice.
     */
    async ingest(
      db: string,
      incoming: readonly IncomingPassing[],
      source: PassingSource,
      meta: { deviceId?: string | null; createdBy?: string | null } = {},
    ): Promise<IngestResult> {
      const ctx = await (cluster ? context(db) : state(db));
      return mutex.run(db, async () => {
        const rows = incoming.map((p) => toPassing(p, source, meta));
        const stored = await database.transaction((sql) => repo.insertPassings(sql, db, rows));
        // Issue 20, one publisher per context: a node that does not hold the context's lease
        // (and cannot take it) leaves its reads to the publisher, which hears of them, reads them
        // and publishes them in its own chain; this node applies them when that publication
        // comes (see `followerState`). Asked once the reads are stored: nothing acknowledged
        // waits for Redis, and a publisher that dies now leaves them to the next one.
        if (cluster && !(await claim(db))) {
          if (stored.length) {
            const f = followingOf(db);
            f.own = Math.max(f.own, stored[stored.length - 1]!.seq);
            f.ownRows.push(...stored);
            cluster.send({ kind: 'stored', db, seq: f.own });
            watch(db);
          }
          return { accepted: stored.length, duplicates: incoming.length - stored.length };
        }
        // Durable now: the answer does not wait for the results. Applying and publishing run in
        // order behind the ack (`ctx.applying`); every read waits for them (see `state`).
        // Passings other nodes stored meanwhile come first, so seq order holds. When ours follow
        // the highest seq this node knows without a gap, nobody else wrote: skip the read-back.
        const known = ctx.knownSeq;
        const contiguous = stored.every((p, k) => p.seq === known + 1 + k);
        const earlier = contiguous ? [] : await repo.passingsAfter(database, db, known);
        const storedIds = new Set(stored.map((s) => s.seq));
        const all = [...earlier.filter((p) => !storedIds.has(p.seq)), ...stored].sort(
          (a, b) => a.seq - b.seq,
        );
        if (all.length) ctx.knownSeq = Math.max(known, all[all.length - 1]!.seq);
        ctx.applying = ctx.applying.then(async () => {
          try {
            // Applied now (reads answer it), published with the window's other changes.
            const changes = ctx.stage(all);
            notify((o) => o.applied?.(ctx, stored, changes));
            // Reads this node stored while another published (it took over since).
            if (cluster && earlier.length) ownApplied(db, ctx, earlier, changes);
            schedule(db, ctx);
          } catch (error) {
            // The reads are stored: a failure here only delays them until the next rebuild.
            console.error('results: applying passings failed', error);
            invalidate(db);
          }
        });
        return { accepted: stored.length, duplicates: incoming.length - stored.length };
      });
    },

    async reportList(eventId: string): Promise<ReportList> {
      const event = await repo.findEvent(database, eventId);
      if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
      const contexts = await repo.contextsOfEvent(database, eventId);
      const groups: ReportList['groups'] = [];
      for (const c of contexts) {
        const { groups: gs, reports } = await repo.reportsOf(database, c.db);
        for (const g of gs) {
          groups.push({
            key: g.key,
            db: c.db,
            name: g.name,
            reports: reports
              .filter((r) => r.groupKey === g.key && !r.hidden)
              .map((r) => ({ key: r.key, name: r.name })),
          });
        }
      }
      return { event: { id: event.id, name: event.name, status: event.status }, groups };
    },

    /** Finds the context holding a group of an event. */
    async contextOfGroup(eventId: string, group: string): Promise<string> {
      // Groups never move between contexts: remember the answer (reads are hot paths).
      const known = groupContexts.get(`${eventId}/${group}`);
      if (known) return known;
      for (const c of await repo.contextsOfEvent(database, eventId)) {
        const { groups } = await repo.reportsOf(database, c.db);
        if (groups.some((g) => g.key === group)) {
          groupContexts.set(`${eventId}/${group}`, c.db);
          return c.db;
        }
      }
      throw errors.notFound('REPORT_NOT_FOUND', `No report group '${group}' in event '${eventId}'`);
    },

    async participants(db: string, q: string): Promise<ParticipantHit[]> {
      const ctx = await state(db);
      if (!q.trim()) return [];
      // Issue 19: accents and case ignored; relevance, then bibs in numeric order.
      const found: { score: number; bib: string; name: string; race: RaceLive; i: number }[] = [];
      for (const race of ctx.races.values()) {
        race.participants.forEach((p, i) => {
          const score = matchScore(q, p);
          if (score > 0) found.push({ score, bib: p.bib, name: `${p.lastName} ${p.firstName}`, race, i });
        });
      }
      return found
        .sort(compareHits)
        .slice(0, 20)
        .map((f) => hit(f.race, f.i));
    },

    /** An athlete of a context by bib (detail pages). */
    async athleteByBib(db: string, bib: string): Promise<AthleteCard> {
      const ctx = await state(db);
      for (const race of ctx.races.values()) {
        const i = race.byBib.get(bib);
        if (i !== undefined) return athleteCard(ctx, race, i);
      }
      throw errors.notFound('ATHLETE_NOT_FOUND', `No bib '${bib}' in '${db}'`);
    },

    async tracking(trackingKey: string): Promise<AthleteCard> {
      const rows = await database.query<{ db: string }>(
        'SELECT r.db FROM participants p JOIN races r ON r.id = p.race_id WHERE p.tracking_key = $1',
        [trackingKey],
      );
      const db = rows[0]?.db;
      if (!db) throw errors.notFound('ATHLETE_NOT_FOUND', 'No athlete with this tracking key');
      const ctx = await state(db);
      for (const race of ctx.races.values()) {
        const i = race.byTracking.get(trackingKey);
        if (i !== undefined) return athleteCard(ctx, race, i);
      }
      throw errors.notFound('ATHLETE_NOT_FOUND', 'No athlete with this tracking key');
    },
  };
}

export type ResultsService = ReturnType<typeof createResultsService>;

function hit(race: RaceLive, i: number): ParticipantHit {
  const p = race.participants[i]!;
  const c = race.results.index.categoryOf[i]!;
  return {
    raceId: race.row.id,
    bib: p.bib,
    name: `${p.firstName} ${p.lastName}`,
    gender: p.gender,
    category: c >= 0 ? race.results.index.race.categories[c]!.name : null,
    club: p.club ?? '',
    nationality: p.nationality ?? '',
    status: statusOf(race.results, i),
    trackingKey: p.trackingKey,
  };
}

function athleteCard(
  ctx: ContextState,
  race: RaceLive,
  i: number,
  now = raceClock(race, Date.now()),
): AthleteCard {
  const row = getResultRow(race.results, i);
  const prediction = predict(race.results, i, race.prior ? { prior: race.prior } : {});
  // Times of day on the wall clock (a replay's race clock runs ahead of it: issue 19).
  const wall = (ms: number | null) =>
    ms === null ? null : wallClock(race.row.gunTimeMs, race.row.clockRate, ms);
  const p = race.participants[i]!;
  const ranked = race.points.filter((pt) => !pt.isStart).sort((a, b) => a.position - b.position);
  let estimatedDistanceM: number | null = null;
  const lastIdx = row.lastPointId ? ranked.findIndex((pt) => pt.key === row.lastPointId) : -1;
  if (row.status === 'finished') estimatedDistanceM = race.row.distanceM;
  else if (prediction && row.netStart !== null) {
    // Linear between the last point reached and the next predicted one: the course is run at
    // the predicted segment pace (prediction.ts), so position follows the clock.
    const fromDist = lastIdx >= 0 ? ranked[lastIdx]!.distanceM : 0;
    const fromTime = lastIdx >= 0 ? (row.points[lastIdx]!.timeOfDay ?? row.netStart) : row.netStart;
    const next = prediction.points[0];
    const nextPoint = next ? ranked.find((pt) => pt.key === next.pointId) : undefined;
    if (next?.timeOfDay && nextPoint && next.timeOfDay > fromTime) {
      const share = Math.min(1, Math.max(0, (now - fromTime) / (next.timeOfDay - fromTime)));
      estimatedDistanceM = Math.round(fromDist + share * (nextPoint.distanceM - fromDist));
    } else estimatedDistanceM = fromDist;
  }
  return {
    eventId: ctx.context.eventId,
    db: ctx.context.db,
    timeZone: ctx.context.timeZone ?? null,
    race: {
      id: race.row.id,
      name: race.row.name,
      distanceM: race.row.distanceM,
      points: ranked.map(repo.coursePoint),
    },
    athlete: { ...hit(race, i), firstName: p.firstName, lastName: p.lastName },
    status: row.status,
    splits: row.points.map((pt) => ({
      pointKey: pt.pointId,
      timeOfDay: wall(pt.timeOfDay),
      gunMs: pt.gunMs,
      netMs: pt.netMs,
      rankOverall: pt.rank.overall,
      rankGender: pt.rank.gender,
      rankCategory: pt.rank.category,
      gapMs: pt.gapMs,
      gapCategoryMs: pt.gapCategoryMs,
      paceMsPerKm: pt.paceMsPerKm,
    })),
    prediction: prediction
      ? {
          basis: prediction.basis,
          finishNetMs: prediction.finishNetMs,
          finishTimeOfDay: wall(prediction.finishTimeOfDay),
          finishRangeNetMs: prediction.finishRange ? [...prediction.finishRange] : null,
          points: prediction.points.map((pp) => ({
            pointKey: pp.pointId,
            netMs: pp.netMs,
            timeOfDay: wall(pp.timeOfDay),
          })),
        }
      : null,
    estimatedDistanceM,
  };
}

export { GENDERS };
