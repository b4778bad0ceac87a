/**
 * The entries module's port (issue 38): the only file of `entries/` other server modules import.
 * Payments settle a paid entries order through `settleEntryOrder` (composed in deposits/plugin.ts,
 * where the payments service is made); the pickup desk (issue 39) resolves an entry code with
 * `findEntryByCode`.
 */
export { findEntry as findEntryByCode } from './repository.ts';
export { settleEntryOrder } from './service/settle.ts';
