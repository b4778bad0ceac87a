/**
 * The entries module's port (issue 38): the only file of `entries/` other server modules import.
 * Payments settle a paid entries order through `settleEntryOrder` (composed in deposits/plugin.ts,
 * where the payments service is made); the pickup desk (issue 39) resolves an entry code with
 * `findEntryByCode`, reads an event's entries, races and add-ons (what to hand out, a guardian
 * missing), and takes late entries through the entries service's manual entry (paid on site).
 */
export { entriesWhere, findEntry as findEntryByCode } from './repository.ts';
export { releaseCreditPlacesOf } from './service/credits.ts';
export { settleEntryOrder } from './service/settle.ts';
export { createEntriesService, type EntriesService } from './service.ts';
export { addOnsOf, eventTerms, raceRegistrations } from './settings-repository.ts';
