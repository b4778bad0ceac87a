/**
 * The results module's port (issue 26): the only file other server modules import from
 * `results/` (enforced by Biome's `noRestrictedImports`, biome.json). Everything else in the
 * module is private to it.
 */
import type { ReloadCommand } from './reload.ts';
import type { ResultsService } from './service.ts';

/**
 * `app.results`: the live results service and the one reload command. `invalidate` is not part
 * of it: every change goes through `reload` (forget on every node, reloads, correction).
 */
export type Results = Omit<ResultsService, 'invalidate'> & ReloadCommand;
export type { ReloadCommand } from './reload.ts';
