import { z } from 'zod';

/**
 * Corrections of official results (issue 43: "official means official"). Once a race's results
 * are published as official, nothing changes them silently: a desk entry, a correction of a read,
 * a status, a start time, a chip or an import is refused (409 `RACE_OFFICIAL`) unless the
 * organiser confirms it as a correction with a reason (`correction` in the request), and a
 * device's reads are held (stored voided) until the organiser restores them. Each confirmed change
 * is one of these, shown to spectators as "Corrected on <date, time, zone>: <what changed>" on the
 * race's pages, the runner's card and the certificate, and sent to webhooks (`results.corrected`)
 * and the corrections feed.
 */

/** What a request carries to change official results: the organiser's confirmation and why. */
export const officialCorrectionSchema = z
  .object({ reason: z.string().trim().min(1, 'a reason is required').max(500) })
  .strict();
export type OfficialCorrection = z.infer<typeof officialCorrectionSchema>;

export const correctionKinds = [
  'added',
  'voided',
  'restored',
  'edited',
  'status',
  'start',
  'chip',
  'imported',
  'reopened',
] as const;
export type CorrectionKind = (typeof correctionKinds)[number];

/** One correction of a race's official results, as spectators and receivers see it. */
export const resultCorrectionSchema = z.object({
  id: z.string(),
  raceId: z.string(),
  /** When it was confirmed (epoch ms; shown in the event's zone). */
  atMs: z.number(),
  kind: z.enum(correctionKinds),
  /** The runner it is about (null: the whole race, an import). */
  bib: z.string().nullable(),
  name: z.string().nullable(),
  /** The timing point of a read (its English and French names). */
  point: z.object({ name: z.string(), nameFr: z.string().optional() }).nullable(),
  /** The read's time (epoch ms), shown as a time of day in the event's zone. */
  timeMs: z.number().nullable(),
  /** A status change (`registered`, `DNF`…). */
  status: z.string().nullable(),
  /** How many reads an import brought. */
  count: z.number().int().nullable(),
  /** The organiser's reason, shown as typed. */
  reason: z.string(),
});
export type ResultCorrection = z.infer<typeof resultCorrectionSchema>;

/** A race's corrections, newest first (`GET /api/feeds/{db}/races/{raceId}/corrections`). */
export const resultCorrectionsSchema = z.array(resultCorrectionSchema);
