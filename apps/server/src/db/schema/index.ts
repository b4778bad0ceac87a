/**
 * The one pg-core schema, used over PGlite and PostgreSQL alike. Each feature keeps its tables in
 * its own file here; the SQL that creates them lives in `../migrations` (hand-written, numbered,
 * checked against this schema by `schema-drift.test.ts`).
 */
export * from './alerts.ts';
export * from './audit.ts';
export * from './confirmation.ts';
export * from './console.ts';
export * from './content.ts';
export * from './core.ts';
export * from './deposits.ts';
export * from './entries.ts';
export * from './exports.ts';
export * from './identity.ts';
export * from './participants.ts';
export * from './pickup.ts';
export * from './raceday.ts';
export * from './results.ts';
