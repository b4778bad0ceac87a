import { sql } from 'drizzle-orm';
import { date, doublePrecision, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** An organisation owns events; users hold roles in it (product.md "Domain model"). */
export const organisations = pgTable('organisations', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** ISO 3166-1 alpha-2 (0007_console.sql). */
  country: text('country').notNull().default(''),
  contactEmail: text('contact_email').notNull().default(''),
  /** Legal details printed on invoices: {name, address, vatNumber, vatRate} (0036). */
  legal: jsonb('legal').notNull().default({}),
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
  /** Draft events are invisible to spectators (0007_console.sql). */
  visibility: text('visibility', { enum: ['draft', 'public'] })
    .notNull()
    .default('public'),
  /** IANA time zone every time of day of the event is shown in. */
  timeZone: text('time_zone').notNull().default('Europe/Brussels'),
  placeLat: doublePrecision('place_lat'),
  placeLon: doublePrecision('place_lon'),
  logoVersion: text('logo_version'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
