import { z } from 'zod';

/** One entry of a context's race-day audit log (`GET /api/raceday/contexts/{db}/audit`). */
export const racedayAuditEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  passingId: z.string().nullable(),
  bib: z.string().nullable(),
  raceId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string(),
  actor: z.string().nullable(),
  actorEmail: z.string().nullable(),
  undoOf: z.string().nullable(),
  undoneBy: z.string().nullable(),
  at: z.string(),
});
export type RacedayAuditEntry = z.infer<typeof racedayAuditEntrySchema>;

/**
 * `correction` on `results-{db}` (issue 26, in the channel's event catalogue beside `results`):
 * reads or runners changed by hand or by a status (void, restore, edit, add, DNS/DNF/DSQ, starts,
 * chip assignments). Sent after the reload patches of the same change, so a tracking card that
 * refetches on it sees the rebuilt state. `bibs`: the runners concerned (empty: many or none).
 */
export const CORRECTION_EVENT = 'correction';
export interface CorrectionMessage {
  bibs: string[];
}
