/**
 * The race-day service (issue 15): manual entry, corrections with an audit trail, participant
 * statuses, start control and the unknown-chips list, on top of the results service.
 *
 * Decisions (the results engine's rules, packages/domain/src/results/README.md):
 * - Reads are never deleted. Voiding a read stores its void marker (the same read with
 *   `deleted`), which removes it for good in the engine. Restoring a voided read therefore stores
 *   a new read (id `r:<audit id>`) of the same runner and point 1 ms later: the engine drops every
 *   read at a voided read's millisecond, and 1 ms changes no displayed time.
 * - Changing a read's time or point voids it and stores the replacement (`e:<audit id>`); adding
 *   a missing read stores `a:<audit id>`. Undo reverses an action by the opposite one, audited too.
 * - A manual entry's id is `m:<client id>`: a retry (an offline desk sending again) is one read.
 * - Statuses, gun/wave/individual start times and chip assignments change participants or races:
 *   the race's epoch is bumped and the results module's reload command run (`app.results.reload`:
 *   the state forgotten on every node, every watched report told to reload, then a correction),
 *   so public tables and tracking cards follow within a second.
 * - Any read of a runner marked DNS clears the DNS: they did start.
 * - Official means official (issue 43, `service/lock.ts`): once a race's results are published,
 *   every change above needs the organiser's confirmation and becomes a correction spectators
 *   see; a device's reads of it are held (stored voided) until the organiser restores one.
 */
import { createIngest } from './service/ingest.ts';
import { createLock } from './service/lock.ts';
import { createReads } from './service/reads.ts';
import { createRunners } from './service/runners.ts';
import { createCore, type RacedayDeps } from './service/shared.ts';
import { createStarts } from './service/starts.ts';
import { createUndo } from './service/undo.ts';

export type { ManualEntry } from './service/ingest.ts';
export type { RunnerStatus } from './service/shared.ts';

/**
 * Composed of parts that each hold one responsibility (issue 30), over one shared core
 * (`service/shared.ts`: dependencies, the reload after a change, who a bib or chip is):
 * `service/ingest.ts` (reads coming in, manual entries, DNS cleared), `service/reads.ts`
 * (corrections of reads), `service/runners.ts` (statuses, chip swaps, unknown runners),
 * `service/starts.ts` (gun, waves, individual starts) and `service/undo.ts`.
 */
export function createRacedayService(deps: RacedayDeps) {
  const core = createCore(deps);
  const lock = createLock(core);
  const incoming = createIngest(core, lock);
  const reads = createReads(core, incoming, lock);
  const runners = createRunners(core, lock);
  const starts = createStarts(core, lock);
  const { undo } = createUndo(core, reads, runners, starts);

  return {
    ingest: incoming.ingest,
    refresh: core.refresh,
    runner: core.runner,
    manual: incoming.manual,
    voidRead: reads.voidRead,
    restoreRead: reads.restoreRead,
    editRead: reads.editRead,
    addRead: reads.addRead,
    setStatus: runners.setStatus,
    setStatuses: runners.setStatuses,
    setGun: starts.setGun,
    setWave: starts.setWave,
    setStarts: starts.setStarts,
    assignChip: runners.assignChip,
    undo,
    unknownRunners: runners.unknownRunners,
    /** Issue 43: the lock on official results (imports guard and record through it). */
    guardReads: lock.guardReads,
    recordCorrections: lock.record,
    correctionNote: lock.note,
    officialRaces: lock.officialRaces,
  };
}

export type RacedayService = ReturnType<typeof createRacedayService>;
