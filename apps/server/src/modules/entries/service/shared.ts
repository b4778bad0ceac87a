import type { Database, Sql } from '../../../db/database.ts';
import { AppError, type FieldError } from '../../../errors.ts';
import type { Outbox } from '../../../identity/outbox.ts';
import { recordAudit } from '../../../lib/audit.ts';
import type { PaymentsService } from '../../payments/port.ts';
import type { Results } from '../../results/port.ts';

/**
 * What the parts of the entries service share (issue 38): dependencies, the clock, the audit of
 * an entry's history, and the error of a field. Parts: `settings.ts` (the organiser's settings,
 * the public page), `enter.ts` (orders: places held), `settle.ts` (a paid order confirmed, a late
 * one refunded), `waitlist.ts`, `self-service.ts` (the runner's actions), `staff.ts` (the list,
 * exports, manual entries), `mails.ts`.
 */
export interface EntriesDeps {
  database: Database;
  outbox: Outbox;
  results: Results;
  payments: PaymentsService;
  publicUrl: string | undefined;
  now?: () => Date;
}

export function createContext(deps: EntriesDeps) {
  const now = deps.now ?? (() => new Date());
  const link = (hashPath: string) => `${(deps.publicUrl ?? '').replace(/\/+$/, '')}/#${hashPath}`;
  return { ...deps, now, link };
}

export type EntriesContext = ReturnType<typeof createContext>;

/** One line of an entry's history (the one audit trail, subject `entry`, id = the entry code). */
export async function auditEntry(
  sql: Sql,
  e: { code: string; eventId: string },
  action: string,
  actorSub: string | null,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await recordAudit(sql, [
    { subject: 'entry', subjectId: e.code, eventId: e.eventId, action, actorSub, detail },
  ]);
}

/** A refusal naming its field(s) (problem+json `errors`), the problem's code the first field's. */
export function fieldProblem(status: number, fields: readonly { field: string; code: string }[]): AppError {
  const first = fields[0] ?? { field: '', code: 'ENTRY_INVALID' };
  const list: FieldError[] = fields.map((f) => ({ field: f.field, message: f.code }));
  return new AppError(status, first.code, `${first.field}: ${first.code}`, list);
}

/** The event's calendar day of an instant (refund tiers and policy dates are days there). */
export function dayIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}
