/**
 * One entry of the audit trail (issue 30): a participant's change, a race-day desk correction,
 * a payments action or a confirmation document's step, all rows of the server's `audit_trail`.
 */
export const AUDIT_SUBJECTS = [
  'participant',
  'passing',
  'payment',
  'confirmation',
  'entry',
  'privacy',
] as const;
export type AuditSubject = (typeof AUDIT_SUBJECTS)[number];

export interface AuditEntry {
  /** The writer's id for the entry when it gave one (the desk's undo handle), else the row's. */
  id: string;
  subject: AuditSubject;
  /** Which participant, passing (or bib), order (or bank line), document. */
  subjectId: string;
  action: string;
  actorSub: string | null;
  /** '' when unknown (an automatic action). */
  actorEmail: string;
  /** What changed: `changes`, `before`/`after`, `reason`, `amountCents`, `note`... per subject. */
  detail: Record<string, unknown>;
  /** The desk's undo: the entry this one reverses, the entry that reversed this one. */
  undoOf: string | null;
  undoneBy: string | null;
  /** ISO 8601, UTC. */
  at: string;
}
