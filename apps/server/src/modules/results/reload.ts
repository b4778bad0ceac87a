/**
 * The reload command (issue 26), the one way every module tells the live results that something
 * they cannot follow by themselves changed (a race, a start time, a status, a chip, a report, a
 * participant, a payment, an import). One ordered chain per context:
 * 1. the state forgotten at once on this node and on the others (`invalidate`, broadcast by the
 *    results plugin), so any read after the command sees the change;
 * 2. when someone watches the context, the state rebuilt, then every report of the context told
 *    to reload (`results` bundles) on its occupied view channels;
 * 3. then a `correction` naming the runners (every runner when none is named),
 * so readers never refetch before the forget, nor see a correction before its reload. A context
 * nobody watches is only forgotten (its next reader rebuilds it), as `invalidate` alone did.
 * Exposed as `app.results.reload` / `app.results.correction` (./port.ts); the engine's own
 * recovery after a failed publication stays inside the service.
 */
import {
  bundleResults,
  CORRECTION_EVENT,
  type CorrectionMessage,
  liveChannels,
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
  /**
   * The occupied channels with a prefix (issue 28): reloads and corrections go only to the live
   * views someone watches. Absent (or failing): to every channel they concern.
   */
  channels?: (prefix: string) => Promise<Map<string, unknown>>;
  /** A publication that failed (the command itself never rejects: the change is stored). */
  onError?: (error: unknown) => void;
}): ReloadCommand {
  const { publisher } = deps;

  /**
   * Which of a context's live channels are occupied now (every one when it cannot be asked), and
   * whether any is.
   */
  async function occupiedOf(
    db: string,
  ): Promise<{ any: boolean; has: (channel: string) => boolean; names?: Iterable<string> }> {
    if (!deps.channels) return { any: true, has: () => true };
    try {
      const occupied = await deps.channels(liveChannels.all(db));
      return { any: occupied.size > 0, has: (channel) => occupied.has(channel), names: occupied.keys() };
    } catch {
      return { any: true, has: () => true };
    }
  }

  const chains = new Map<string, Promise<void>>();
  /** Runs `step` after the context's earlier commands (a failure does not block the next). */
  function ordered(db: string, step: () => Promise<void>) {
    const run = () => step().catch((error: unknown) => deps.onError?.(error));
    const next = (chains.get(db) ?? Promise.resolve()).then(run, run);
    const settled = next.catch(() => undefined);
    chains.set(db, settled);
    void settled.then(() => chains.get(db) === settled && chains.delete(db));
    return next;
  }
  /**
   * A correction (`{ bibs }`, [] for every runner) to the views it concerns (issue 28): the
   * context's firehose, passings feed and changes, and the cards of the runners named (every
   * occupied runner channel when none is).
   */
  async function correctionOf(db: string, bibs: readonly (string | null)[]) {
    const named = bibs.filter((b): b is string => !!b);
    const message: CorrectionMessage = { bibs: named };
    const occupied = await occupiedOf(db);
    const channels = [liveChannels.all(db), liveChannels.passings(db), liveChannels.changes(db)];
    if (named.length) channels.push(...named.map((bib) => liveChannels.runner(db, bib)));
    else if (deps.channels) {
      const runners = await deps.channels(`${liveChannels.all(db)}-runner-`).catch(() => new Map());
      channels.push(...runners.keys());
    }
    const targets = [...new Set(channels)].filter(occupied.has);
    for (let i = 0; i < targets.length; i += 100)
      await publisher.publish(targets.slice(i, i + 100), CORRECTION_EVENT, message);
  }

  return {
    reload(db, opts = {}) {
      // Forgotten now (here and on the other nodes): a read after the command sees the change.
      deps.results.invalidate(db, opts.participants);
      return ordered(db, async () => {
        const occupied = await occupiedOf(db);
        // Nobody watches: nothing to tell; the next reader rebuilds the state.
        if (!occupied.any) return;
        // Rebuilt before the readers hear of it: their refetches find it ready.
        const { lastSeq } = await deps.results.state(db);
        const { reports } = await repo.reportsOf(deps.database, db);
        const names = [...(occupied.names ?? [])];
        const reloads: ReportPatch[] = reports.map((r) => ({
          group: r.groupKey,
          report: r.key,
          version: lastSeq,
          reload: true,
        }));
        // Issue 28: each report's reload on its own views' channels, all of them on the firehose.
        const all = liveChannels.all(db);
        if (occupied.has(all))
          for (const bundle of bundleResults(reloads, []))
            await publisher.publish([all], RESULTS_EVENT, bundle);
        for (const reload of reloads) {
          const whole = liveChannels.report(db, reload.group, reload.report);
          // Its rank windows (`-top`, `-w{k}`) that someone watches: each refetches its rows.
          const windows = [...names].filter((name) => name.startsWith(`${whole}-w`));
          const views = [whole, liveChannels.reportTop(db, reload.group, reload.report), ...windows].filter(
            occupied.has,
          );
          if (views.length) await publisher.publish(views, RESULTS_EVENT, { patches: [reload] });
        }
        await correctionOf(db, opts.bibs ?? []);
      });
    },
    correction(db, bibs) {
      return ordered(db, () => correctionOf(db, bibs));
    },
  };
}
