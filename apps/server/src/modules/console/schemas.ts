import { z } from 'zod';

/**
 * Params, queries and bodies of the console's routes that only the server reads (issue 30); the
 * shapes the web shares (bodies and answers) are in packages/contracts (console.ts).
 */
export { dbParams, eventParams } from '@tempora/contracts/raceday-api';

export const orgParams = z.object({ orgId: z.string().min(1).max(100) });
export const memberParams = orgParams.extend({ sub: z.uuid() });
export const invitationParams = orgParams.extend({ id: z.uuid() });
export const tokenParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'an invitation token'),
});
export const raceParams = z.object({ raceId: z.string().min(1).max(100) });
export const reportParams = raceParams.extend({ key: z.string().min(1).max(64) });
/** `GET /api/events/{id}/logo`. */
export const logoParams = z.object({ eventId: z.string().min(1).max(100) });

/** A previous edition: a CSV of half and finish times, or an earlier race in Tempora. */
export const fadePriorSchema = z.union([
  z.object({ csv: z.string().min(1).max(10_000_000) }).strict(),
  z.object({ fromRaceId: z.string().min(1).max(100) }).strict(),
]);

export const reviewQuery = z.object({
  /**
   * Segments faster than this pace (seconds per km) are listed; 2:00/km by default, 1:00/km for
   * a multisport race (a bike leg runs well under 2:00/km; under 1:00/km no leg is plausible).
   */
  fastestPaceS: z.coerce.number().int().min(30).max(1200).optional(),
  /**
   * A finish slower than this pace (seconds per km: the race's cut-off) is listed; without it, a
   * finish slower than three times the field's median (issue 43).
   */
  slowestPaceS: z.coerce.number().int().min(60).max(7200).optional(),
});
