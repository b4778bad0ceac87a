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
