import { sql } from 'drizzle-orm';
import { date, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** An organisation owns events; users hold roles in it (product.md "Domain model"). */
export const organisations = pgTable('organisations', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A sports event: the spec's `eventId` is `id`. Branding is free-form JSON per UI variant. */
export const events = pgTable('events', {
  id: text('id').primaryKey(),
  organisationId: uuid('organisation_id')
    .notNull()
    .references(() => organisations.id),
  name: text('name').notNull(),
  place: text('place').notNull().default(''),
  startDate: date('start_date').notNull(),
  endDate: date('end_date').notNull(),
  status: text('status', { enum: ['upcoming', 'live', 'finished'] })
    .notNull()
    .default('upcoming'),
  branding: jsonb('branding').notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
