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
}): ReloadCommand {
  const { publisher } = deps;

  /** Which of a context's live channels are occupied now (every one when it cannot be asked). */
  async function occupiedOf(db: string): Promise<(channel: string) => boolean> {
    if (!deps.channels) return () => true;
    try {
      const occupied = await deps.channels(liveChannels.all(db));
      return (channel) => occupied.has(channel);
    } catch {
      return () => true;
    }
  }

  const chains = new Map<string, Promise<void>>();
  /** Runs `step` after the context's earlier commands (a failure does not block the next). */
  function ordered(db: string, step: () => Promise<void>) {
    const next = (chains.get(db) ?? Promise.resolve()).then(step, step);
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
    const targets = [...new Set(channels)].filter(occupied);
    for (let i = 0; i < targets.length; i += 100)
      await publisher.publish(targets.slice(i, i + 100), CORRECTION_EVENT, message);
  }

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
        // Issue 28: each report's reload on its own views' channels, all of them on the firehose.
        const occupied = await occupiedOf(db);
        const all = liveChannels.all(db);
        if (occupied(all))
          for (const bundle of bundleResults(reloads, []))
            await publisher.publish([all], RESULTS_EVENT, bundle);
        for (const reload of reloads) {
          const views = [
            liveChannels.report(db, reload.group, reload.report),
            liveChannels.reportTop(db, reload.group, reload.report),
          ].filter(occupied);
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
