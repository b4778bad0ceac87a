/**
 * The results module's port (issue 26): the only file of `results/` that other server modules
 * import (enforced by Biome's `noRestrictedImports`, biome.json; `app.ts` registers the module
 * from `plugin.ts`, tests may reach further). Everything else in the module is private to it.
 *
 * What others may use: the live service with its one reload command (`app.results`), the types of
 * a read and of the live state the ingest, exports and webhooks work with, the read views, device
 * keys, and the few repository and setup functions the console, participants, deposits,
 * confirmation and devices modules genuinely need.
 */
import type { ReloadCommand } from './reload.ts';
import type { ResultsService } from './service.ts';

/**
 * `app.results`: the live results service (ingest, state, reports, runner lookup) and the one
 * reload command. `invalidate` is not part of it: every change goes through `reload` (forget on
 * every node, reloads, then the correction).
 */
export type Results = Omit<ResultsService, 'invalidate'> & ReloadCommand;

// The live state's types (devices, exports, webhooks).
export type { ContextState, RaceLive } from './context-state.ts';
// Corrections of official results (issue 43): the desk and the console record them, the pages read them.
export {
  correctionsOf,
  isOfficial,
  recordCorrections,
  shownCorrection,
  shownCorrections,
} from './corrections.ts';
// CSV mappings (result-list imports, the command line).
export {
  type ParticipantMapping,
  type PassingMapping,
  participantsFromCsv,
  passingsFromCsv,
} from './csv-import.ts';
// Read views (exports: feeds, clocks).
export { leadersBoard, raceClock, timeTrialBoard } from './live-views.ts';
// The finished events' warm-up, for the demo seed after Boston's import (issue 27).
export { warmFinishedResults } from './plugin.ts';
export type { ReloadCommand } from './reload.ts';
// The table's field indexes (exports).
export { F, S } from './report-builder.ts';
// Stored snapshots a runner's hidden name must leave (issue 40).
export { dropSnapshots } from './report-snapshots.ts';
// Runner lookup and the repository functions other modules need.
export type { ParticipantRow, PassingRow, ReportDefinition } from './repository.ts';
export {
  contextsOfEvent,
  findContext,
  findDeviceByKeyHash,
  findEvent,
  insertContext,
  insertDevice,
  insertParticipants,
  insertPassings,
  pointsOf,
  racesOf,
  searchFoldedOf,
} from './repository.ts';
// The HTTP passings' CSV reader (the devices' CSV upload).
export { parseIngestCsv } from './routes.ts';
// Ingest: a read, the observers' interface, device keys.
export type { IncomingPassing, ResultsObserver } from './service.ts';
export { hashKey, randomKey, toPassing } from './service.ts';
// Setup: console races, deposits and confirmation entries, result-list imports, the demo seed
// (src/seed) and the import command line (src/cli.ts).
export {
  addParticipants,
  createBostonRace,
  createRace,
  importBoston,
  importBostonList,
  parseWaves,
  raceIdFor,
  registerParticipants,
} from './setup.ts';
