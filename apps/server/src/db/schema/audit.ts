import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The one audit trail (issue 30, migration 0045_audit_trail.sql): participants' changes, the
 * race-day desk's corrections (and its undo links), payments actions, confirmation history.
 * Written and read through `lib/audit.ts`.
 */
export const auditTrail = pgTable(
  'audit_trail',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ref: uuid('ref').unique(),
    organisationId: uuid('organisation_id'),
    eventId: text('event_id'),
    subject: text('subject', { enum: ['participant', 'passing', 'payment', 'confirmation'] }).notNull(),
    subjectId: text('subject_id').notNull().default(''),
    scope: text('scope'),
    action: text('action').notNull(),
    actorSub: text('actor_sub'),
    actorEmail: text('actor_email').notNull().default(''),
    detail: jsonb('detail').notNull().default(sql`'{}'::jsonb`),
    undoOf: uuid('undo_of'),
    undoneBy: uuid('undone_by'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_trail_subject_idx').on(t.subject, t.subjectId, t.id),
    index('audit_trail_scope_idx').on(t.subject, t.scope, t.at),
    index('audit_trail_organisation_idx').on(t.organisationId, t.subject, t.id),
    index('audit_trail_event_idx').on(t.eventId, t.id),
  ],
);
