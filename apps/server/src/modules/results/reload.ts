/**
 * The reload command (issue 26): after a change the live state cannot follow by itself (a status,
 * a start time, a chip, a void), one ordered chain per context — the state forgotten here and on
 * the other nodes (`invalidate`, broadcast by the results plugin), every report of the context told
 * to reload (`results` bundles), then a `correction` naming the runners — so readers never refetch
 * before the forget, nor see a correction before its reload. Used by the race-day service; the
 * results service keeps its own in-memory cache and publisher.
 */
import {
  bundleResults,
  CORRECTION_EVENT,
  type CorrectionMessage,
  RESULTS_EVENT,
  type ReportPatch,
} from '@tempora/contracts';
import type { Database } from '../../db/database.ts';
import type { RealtimePublisher } from '../../realtime/adapters/types.ts';
import type { ParticipantRow } from './repository.ts';
import * as repo from './repository.ts';
import type { ResultsService } from './service.ts';

export interface ReloadCommand {
  /** Forgets the context's state (all nodes), tells every report to reload, then the correction. */
  reload(db: string, opts?: { bibs?: string[]; participants?: ParticipantRow[] }): Promise<void>;
  /** Only the correction (reads changed; the engine follows them without a rebuild). */
  correction(db: string, bibs: readonly (string | null)[]): Promise<void>;
}

export function createReloadCommand(deps: {
  database: Database;
  results: Pick<ResultsService, 'state' | 'invalidate'>;
  publisher: RealtimePublisher;
}): ReloadCommand {
  const chains = new Map<string, Promise<void>>();
  /** Runs `step` after the context's earlier commands (a failure does not block the next). */
  function ordered(db: string, step: () => Promise<void>) {
    const next = (chains.get(db) ?? Promise.resolve()).then(step, step);
    const settled = next.catch(() => undefined);
    chains.set(db, settled);
    void settled.then(() => chains.get(db) === settled && chains.delete(db));
    return next;
  }
  const correctionOf = (db: string, bibs: readonly (string | null)[]) => {
    const message: CorrectionMessage = { bibs: bibs.filter((b): b is string => !!b) };
    return deps.publisher.publish([`results-${db}`], CORRECTION_EVENT, message);
  };
  return {
    reload(db, opts = {}) {
      return ordered(db, async () => {
        const { lastSeq } = await deps.results.state(db);
        const { reports } = await repo.reportsOf(deps.database, db);
        // Forget the state and tell the readers at once: their refetches share the one rebuild.
        deps.results.invalidate(db, opts.participants);
        void deps.results.state(db).catch(() => undefined);
        const reloads: ReportPatch[] = reports.map((r) => ({
          group: r.groupKey,
          report: r.key,
          version: lastSeq,
          reload: true,
        }));
        for (const bundle of bundleResults(reloads, []))
          await deps.publisher.publish([`results-${db}`], RESULTS_EVENT, bundle);
        await correctionOf(db, opts.bibs ?? []);
      });
    },
    correction(db, bibs) {
      return ordered(db, () => correctionOf(db, bibs));
    },
  };
}
