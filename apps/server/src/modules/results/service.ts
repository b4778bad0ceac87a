import crypto from 'node:crypto';
import type {
  AthleteCard,
  IngestResult,
  ParticipantHit,
  ReportList,
  ResultCorrection,
} from '@tempora/contracts';
import { GENDERS, type PassingSource } from '@tempora/domain';
import type { ContextState } from './context-state.ts';
import type { Snapshot } from './report-snapshots.ts';
import type * as repo from './repository.ts';
import {
  type ClusterNotice,
  createCore,
  notify,
  type ResultsDeps,
  type ResultsObserver,
} from './service/core.ts';
import { hear } from './service/following.ts';
import { type IncomingPassing, ingest } from './service/ingest.ts';
import { dropWindow, settle, settleAll } from './service/publication.ts';
import {
  athleteByBib,
  contextOfGroup,
  participants,
  reportList,
  tracking,
  trackingIn,
} from './service/queries.ts';
import { invalidate, snapshot, snapshotsWritten, state, stopSnapshots } from './service/state.ts';

export { type ClusterNotice, PUBLISH_MS, type ResultsObserver } from './service/core.ts';
export { type IncomingPassing, toPassing } from './service/ingest.ts';

/** SHA-256 of a device key: keys are shown once and stored hashed. */
export function hashKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

/** A random, unguessable public key (tracking keys, device keys). */
export function randomKey(bytes = 12): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/**
 * The results service (style.md: a factory taking its repository, clock and publisher). Every
 * context is loaded into memory on first use and kept current: by the passings this node stores,
 * and by catching up from the database (`seq`) before answering, so several nodes agree. With a
 * `cluster` (several nodes on Redis), one node at a time publishes a context's changes — the
 * holder of its lease — and the others follow its publications (issue 20: one publisher per
 * change, so that subscribers' patches form one chain; docs/deployment.md).
 *
 * Composed of parts that each hold one responsibility (issue 30), over one shared state
 * (`service/core.ts`): `service/state.ts` (loading, snapshots, catching up), `service/publication.ts`
 * (coalescing windows, live patches), `service/following.ts` (the cluster's one publisher per
 * context), `service/ingest.ts` and `service/queries.ts`.
 */
export function createResultsService(deps: ResultsDeps) {
  const core = createCore(deps);

  // A lease lost (this node paused past its time, or Redis away): what its window held goes out
  // from the new publisher, in that one's chain.
  deps.cluster?.leases.onLost((db) => dropWindow(core, db));

  return {
    state: (db: string, minVersion = 0, fresh = false): Promise<ContextState> =>
      state(core, db, minVersion, fresh),
    invalidate: (db: string, participants?: repo.ParticipantRow[]): void =>
      invalidate(core, db, participants),
    snapshot: (db: string, fresh = false): Promise<Snapshot | null> => snapshot(core, db, fresh),
    /** Resolves once the snapshot writes started so far are done (tests, the bench). */
    snapshotsWritten: (): Promise<undefined> => snapshotsWritten(core),
    /** Stops the snapshot writes (the node is closing); resolves once the current one stopped. */
    stopSnapshots(): Promise<void> {
      return stopSnapshots(core);
    },

    /**
     * Publishes a context's pending changes now, without waiting for the window's end, and
     * resolves once everything it staged is published (tests; a node stopping).
     */
    settle: (db: string): Promise<void> => settle(core, db),

    /** `settle` for every context with a window open (a node stopping publishes what it holds). */
    settleAll(): Promise<void> {
      return settleAll(core);
    },

    /**
     * A notice from another node (issue 20, see `ClusterNotice`). `stored`: the publisher (or,
     * the lease being free, the first node to take it) catches up and publishes those reads.
     * `published`: a follower moves its state to the publication's.
     */
    hear(notice: ClusterNotice): void {
      hear(core, notice);
    },

    /**
     * Tells the observers (webhooks) of corrections of official results once they are stored
     * (issue 43: receivers get the correction, not only the reads behind it).
     */
    async announceCorrections(db: string, corrections: readonly ResultCorrection[]): Promise<void> {
      if (!corrections.length) return;
      const ctx = await state(core, db);
      notify(core, (o) => o.corrected?.(ctx, corrections));
    },

    /** Adds an observer (webhooks); returns its removal. */
    observe(observer: ResultsObserver): () => void {
      core.observers.add(observer);
      return () => core.observers.delete(observer);
    },

    /**
     * Stores a batch of reads durably (one statement, one transaction) and only then applies and
     * publishes them — or, on a node that does not publish the context, tells the publisher,
     * which publishes them, and applies them with its publication. Duplicates (same id) are
     * counted, not applied twice.
     */
    ingest(
      db: string,
      incoming: readonly IncomingPassing[],
      source: PassingSource,
      meta: { deviceId?: string | null; createdBy?: string | null } = {},
    ): Promise<IngestResult> {
      return ingest(core, db, incoming, source, meta);
    },

    reportList(eventId: string): Promise<ReportList> {
      return reportList(core, eventId);
    },

    /** Finds the context holding a group of an event. */
    contextOfGroup(eventId: string, group: string): Promise<string> {
      return contextOfGroup(core, eventId, group);
    },

    participants(db: string, q: string): Promise<ParticipantHit[]> {
      return participants(core, db, q);
    },

    /** An athlete of a context by bib (detail pages). */
    athleteByBib(db: string, bib: string): Promise<AthleteCard> {
      return athleteByBib(core, db, bib);
    },

    tracking(trackingKey: string): Promise<AthleteCard> {
      return tracking(core, trackingKey);
    },

    /** An athlete by tracking key in a known context (alerts: the context of the read). */
    trackingIn(db: string, trackingKey: string): Promise<AthleteCard> {
      return trackingIn(core, db, trackingKey);
    },
  };
}

export type ResultsService = ReturnType<typeof createResultsService>;

export { GENDERS };
