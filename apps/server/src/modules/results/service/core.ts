import type { ResultCorrection } from '@tempora/contracts';
import type { Database } from '../../../db/database.ts';
import type { RealtimePublisher } from '../../../realtime/adapters/types.ts';
import { type ContextState, MAX_PATCH_BYTES } from '../context-state.ts';
import type { ChannelOccupancy } from '../occupancy.ts';
import { LEASE_MS, type PublisherLeases } from '../publisher-lease.ts';
import type { Snapshot } from '../report-snapshots.ts';
import type * as repo from '../repository.ts';

/**
 * The results service's shared state (issue 30: the service split by responsibility). Every part
 * of the service — `state.ts` (loading, snapshots, catching up), `publication.ts` (coalescing
 * windows, live patches), `following.ts` (the cluster's one publisher per context), `ingest.ts`
 * and `queries.ts` — is a set of plain functions taking this object first; `service.ts` creates
 * it once per service and composes the parts. The parts call each other where the work is
 * mutually recursive (a catch-up publishes, a failed publication forgets the state…).
 */

/** How stale a node's view of other nodes' passings may be when answering a read. */
export const CATCH_UP_MS = 500;
/** Beyond this age of the last catch-up, a reader waits for the next one. */
export const STALE_MS = 5 * CATCH_UP_MS;
/** The longest a read asking for a version this node has not reached yet waits for it. */
export const MIN_VERSION_WAIT_MS = 3_000;
/**
 * Default of `publishMs`: a context's changes go out at most this often (RESULTS_PUBLISH_MS).
 * 250 ms: decoders that post each second at about the same moment share one publication; a
 * passing after a quiet window waits for nothing (issue 20's two-node test: a new leader a second
 * must show within one).
 */
export const PUBLISH_MS = 250;

/** Serialises work per key (ingest into one context stays in order on this node). */
export class KeyedMutex {
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
  /** Corrections of official results were confirmed (issue 43; webhooks send them). */
  corrected?(ctx: ContextState, corrections: readonly ResultCorrection[]): void;
  /** Reads this node stored (new ones; duplicates left out), as soon as they are durable (metrics). */
  stored?(db: string, rows: readonly repo.PassingRow[]): void;
  /**
   * A publication went out: `lagMs` from the oldest read it carries being stored to its events
   * being sent (issue 41's metrics: what a screen waits for behind the mat).
   */
  published?(db: string, lagMs: number): void;
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

/** What `createResultsService` takes (style.md: its repository's database, clock and publisher). */
export interface ResultsDeps {
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
}

/**
 * What a node that does not publish a context knows of the publisher (issue 20): the highest
 * `seq` it announced and when it last heard of it, the reads this node stored that no
 * publication has held yet (their highest seq, their rows for the observers) and the timer that
 * claims the lease when they stay unpublished.
 */
export interface Following {
  announced: number;
  heardAt: number;
  own: number;
  ownRows: repo.PassingRow[];
  watch?: ReturnType<typeof setTimeout>;
  checkedAt: number;
}

/** A context's stored snapshot for the stamp read at `at` (see `snapshot` in state.ts). */
export interface HeldSnapshot {
  at: number;
  snapshot: Promise<Snapshot | null>;
  done: boolean;
  /** The check after this one, shared by the fresh readers that came while this one ran. */
  next?: Promise<Snapshot | null>;
}

/** The shared state of one results service (see the top of this file). */
export interface ResultsCore {
  readonly deps: ResultsDeps;
  readonly database: Database;
  readonly publisher: RealtimePublisher;
  readonly cluster: ResultsDeps['cluster'];
  readonly occupancy: ChannelOccupancy | undefined;
  readonly leaseMs: number;
  readonly publishMs: number;
  readonly maxPatchBytes: number;

  // Publication (publication.ts).
  /** Open coalescing windows per context: their timers and the state they publish. */
  readonly windows: Map<string, { timer: ReturnType<typeof setTimeout>; ctx: ContextState }>;
  /** When each context last published (the start of its current window). */
  readonly publishedAt: Map<string, number>;
  /** Per context: when the oldest read not published yet was stored (the publication lag's start). */
  readonly stagedSince: Map<string, number>;
  /** Publications in order per context. */
  readonly publishing: Map<string, Promise<void>>;
  /** The `seq` each context's publisher last announced (see `flush`). */
  readonly announced: Map<string, number>;

  // The live state (state.ts).
  readonly loaded: Map<string, Promise<ContextState>>;
  readonly mutex: KeyedMutex;
  readonly caughtUpAt: Map<string, number>;
  readonly catchingUp: Map<string, Promise<number>>;
  /** Catch-ups are numbered as their queries start (see `freshCatchUp`). */
  catchUpCount: number;
  readonly reloading: Map<string, ReturnType<typeof setTimeout>>;
  /** Participants a caller already holds for the next load of a context (see `invalidate`). */
  readonly presetParticipants: Map<string, repo.ParticipantRow[]>;
  /** Snapshot writes, one at a time (each builds a context's tables in slices). */
  snapshotting: Promise<unknown>;
  /** Set as the node closes: snapshot writes stop (the database closes behind them). */
  closing: boolean;
  /** Loads that have resolved: their context answers from its state, not from a snapshot. */
  readonly settled: WeakSet<Promise<ContextState>>;
  /** Per context not loaded: its snapshot for the stamp read at `at` (see `snapshot`). */
  readonly snapshots: Map<string, HeldSnapshot>;

  // Queries (queries.ts).
  readonly groupContexts: Map<string, string>;

  // Cluster following (following.ts) and observers.
  readonly following: Map<string, Following>;
  readonly observers: Set<ResultsObserver>;
}

/** A service's shared state, empty. */
export function createCore(deps: ResultsDeps): ResultsCore {
  const { database, publisher, cluster, occupancy } = deps;
  return {
    deps,
    database,
    publisher,
    cluster,
    occupancy,
    leaseMs: cluster?.leaseMs ?? LEASE_MS,
    publishMs: deps.publishMs ?? PUBLISH_MS,
    maxPatchBytes: deps.maxPatchBytes ?? MAX_PATCH_BYTES,
    windows: new Map(),
    publishedAt: new Map(),
    stagedSince: new Map(),
    publishing: new Map(),
    announced: new Map(),
    loaded: new Map(),
    mutex: new KeyedMutex(),
    caughtUpAt: new Map(),
    catchingUp: new Map(),
    catchUpCount: 0,
    reloading: new Map(),
    presetParticipants: new Map(),
    snapshotting: Promise.resolve(),
    closing: false,
    settled: new WeakSet(),
    snapshots: new Map(),
    groupContexts: new Map(),
    following: new Map(),
    observers: new Set(),
  };
}

/** Calls every observer; one that throws is logged, the others still hear. */
export function notify(core: ResultsCore, call: (o: ResultsObserver) => void): void {
  for (const o of core.observers) {
    try {
      call(o);
    } catch (error) {
      console.error('results: an observer failed', error);
    }
  }
}

/** Whether this node publishes a context's changes (always without a cluster). */
export function publishes(core: ResultsCore, db: string): boolean {
  return !core.cluster || core.cluster.leases.holds(db);
}

/**
 * Takes a context's lease when it is free (or this node holds it): true when this node is the
 * publisher now. A takeover needs no step of its own: the next catch-up (or ingest) reads every
 * passing this node has not applied and publishes them in its own chain, from the tables this
 * node holds — the previous publisher's last publication when it followed it to the end, so
 * subscribers' chains usually go on; else the first patch does not start from their version and
 * they fetch the table once.
 */
export async function claim(core: ResultsCore, db: string): Promise<boolean> {
  if (!core.cluster) return true;
  return (await core.cluster.leases.acquire(db)) !== 'other';
}

/** What this node knows of a context's publisher, created on first use (see `Following`). */
export function followingOf(core: ResultsCore, db: string): Following {
  let f = core.following.get(db);
  if (!f) {
    f = { announced: 0, heardAt: Date.now(), own: 0, ownRows: [], checkedAt: 0 };
    core.following.set(db, f);
  }
  return f;
}

/** Observers hear of the reads this node stored once they are applied (a follower's: later). */
export function ownApplied(
  core: ResultsCore,
  db: string,
  ctx: ContextState,
  rows: readonly repo.PassingRow[],
  changes: ReturnType<ContextState['apply']>,
): void {
  const f = core.following.get(db);
  if (!f?.ownRows.length) return;
  const seqs = new Set(rows.map((r) => r.seq));
  const mine = f.ownRows.filter((r) => seqs.has(r.seq));
  if (!mine.length) return;
  f.ownRows = f.ownRows.filter((r) => !seqs.has(r.seq));
  notify(core, (o) => o.applied?.(ctx, mine, changes));
}
