import { prepareTemplate } from './server.ts';

/**
 * Makes the journeys' migrated, empty data directory ahead of them and prints its path (the last
 * line): `npm test` (scripts/test.mjs) runs it beside Vitest, so the journeys' global setup
 * (global-setup.ts) finds it made instead of spending a fresh server start (initdb and ~100
 * migrations: ~23 s of CPU, a minute or more of a loaded machine's wall time) before any journey.
 * Run with `node --import tsx apps/web/e2e/prepare-template.ts`; whoever runs it removes the directory.
 */
const dir = await prepareTemplate();
console.log(dir);
