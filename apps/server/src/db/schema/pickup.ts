import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { events } from './core.ts';
import { users } from './identity.ts';

/** Tables of race-day pickup (issue 39; SQL in ../migrations/0075_pickup.sql). */

const ts = (name: string) => timestamp(name, { withTimezone: true });

/** Every operation a volunteer's phone sent, by its client id: a retry is answered from here. */
export const pickupOperations = pgTable(
  'pickup_operations',
  {
    opId: text('op_id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['handout', 'bib', 'chip', 'pay', 'late'] }).notNull(),
    participantId: uuid('participant_id'),
    answer: jsonb('answer').notNull(),
    actorSub: uuid('actor_sub').references(() => users.sub, { onDelete: 'set null' }),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [index('pickup_operations_event_idx').on(t.eventId, t.receivedAt)],
);

/**
 * A runner's handout: one kept per runner, a second kept as a conflict to resolve (keep the first:
 * the conflict `resolved`; keep the second: it becomes `kept`, the first `undone`).
 */
export const pickupHandouts = pgTable(
  'pickup_handouts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    participantId: uuid('participant_id').notNull(),
    raceId: text('race_id').notNull(),
    opId: text('op_id').notNull().unique(),
    state: text('state', { enum: ['kept', 'conflict', 'resolved', 'undone'] }).notNull(),
    items: jsonb('items').notNull().default(sql`'[]'::jsonb`),
    idNote: text('id_note').notNull().default(''),
    device: text('device').notNull().default(''),
    actorSub: uuid('actor_sub').references(() => users.sub, { onDelete: 'set null' }),
    actorEmail: text('actor_email').notNull().default(''),
    handedAt: ts('handed_at').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
    resolvedBy: text('resolved_by'),
    resolvedAt: ts('resolved_at'),
    /** A conflict's: the kept handout it met (0095). */
    againstId: bigint('against_id', { mode: 'number' }),
    /** A resolved conflict's: which handout was kept (the first, or this second one). */
    resolution: text('resolution', { enum: ['first', 'second'] }),
  },
  (t) => [
    uniqueIndex('pickup_handouts_kept_idx').on(t.participantId).where(sql`state = 'kept'`),
    index('pickup_handouts_event_idx').on(t.eventId, t.state),
  ],
);

/** Money taken at the bib tables: method and amount (the order's payment is the payments module's). */
export const pickupPayments = pgTable(
  'pickup_payments',
  {
    opId: text('op_id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    participantId: uuid('participant_id'),
    orderId: bigint('order_id', { mode: 'number' }),
    method: text('method', { enum: ['cash', 'card'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    actorSub: uuid('actor_sub').references(() => users.sub, { onDelete: 'set null' }),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('pickup_payments_event_idx').on(t.eventId)],
);
