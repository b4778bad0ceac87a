import { z } from 'zod';

/** `GET /api/health`: the process answers. */
export const healthAnswerSchema = z.object({ status: z.literal('ok'), uptime: z.number().int() });
export type HealthAnswer = z.infer<typeof healthAnswerSchema>;

/** `GET /api/ready`: the database is reachable and the node has warmed up. */
export const readyAnswerSchema = z.object({
  status: z.literal('ready'),
  database: z.enum(['pglite', 'postgres']),
});
export type ReadyAnswer = z.infer<typeof readyAnswerSchema>;

/**
 * `GET /api/translation/i18n/:ui/:ns/:lng` (spec §7). Any text is accepted: a path naming no label
 * set answers 404 `TRANSLATION_NOT_FOUND`, not 400.
 */
export const translationParamsSchema = z.object({
  ui: z.string().describe('Interface variant (`web`, `acn`, …)'),
  ns: z.string().describe('Namespace (`common`, `inscriptions`, …)'),
  lng: z.string().describe('Language (`en`, `fr`, …)'),
});
/** A translation label set: key → text. */
export const translationLabelsSchema = z.record(z.string(), z.string());

/** An answer without a body (204, 304). */
export const noContentSchema = z.void().describe('No content');
