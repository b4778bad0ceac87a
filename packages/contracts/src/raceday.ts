/** One entry of a context's race-day audit log (`GET /api/raceday/contexts/{db}/audit`). */
export interface RacedayAuditEntry {
  id: string;
  action: string;
  passingId: string | null;
  bib: string | null;
  raceId: string | null;
  before: unknown;
  after: unknown;
  reason: string;
  actor: string | null;
  actorEmail: string | null;
  undoOf: string | null;
  undoneBy: string | null;
  at: string;
}

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
