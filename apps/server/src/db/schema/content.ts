import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { events, organisations } from './core.ts';

/** Tables of the content feature (issue 8; SQL in ../migrations/0003_content.sql). */

/** A CMS page; a page with children is a folder of the navigation tree (spec §3). */
export const cmsPages = pgTable(
  'cms_pages',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    db: text('db').notNull().default('main'),
    key: text('key').notNull(),
    parentKey: text('parent_key'),
    position: integer('position').notNull().default(0),
    titleEn: text('title_en').notNull(),
    titleFr: text('title_fr').notNull(),
    bodyEn: text('body_en').notNull().default(''),
    bodyFr: text('body_fr').notNull().default(''),
    published: boolean('published').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.eventId, t.db, t.key)],
);

/** An organiser contact shown on the contact page. */
export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('contacts_event_idx').on(t.eventId, t.position)],
);

/** A message sent through the contact form (also e-mailed through the outbox). */
export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  eventId: text('event_id')
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  ip: text('ip').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A live stream (YouTube or HLS) with its schedule. */
export const streams = pgTable(
  'streams',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    kind: text('kind', { enum: ['youtube', 'hls'] }).notNull(),
    url: text('url').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('streams_event_idx').on(t.eventId, t.startsAt)],
);

/** A photo of the photo box; its files live in DATA_DIR/files/photos/{id}-{size}.webp. */
export const photos = pgTable(
  'photos',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    caption: text('caption').notNull().default(''),
    bibs: text('bibs').array().notNull().default(sql`'{}'`),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    uploadedBy: text('uploaded_by'),
  },
  (t) => [index('photos_event_idx').on(t.eventId, t.uploadedAt)],
);

/** A series (challenge): points per finishing position, aggregated over its races. */
export const series = pgTable('series', {
  id: text('id').primaryKey(),
  organisationId: uuid('organisation_id')
    .notNull()
    .references(() => organisations.id),
  name: text('name').notNull(),
  points: integer('points').array().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A race counting for a series. */
export const seriesRaces = pgTable(
  'series_races',
  {
    seriesId: text('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'cascade' }),
    raceKey: text('race_key').notNull(),
    name: text('name').notNull(),
    raceDate: date('race_date').notNull(),
    live: boolean('live').notNull().default(false),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.raceKey] })],
);

/** A finish position within a category in one race of a series. */
export const seriesResults = pgTable(
  'series_results',
  {
    seriesId: text('series_id').notNull(),
    raceKey: text('race_key').notNull(),
    athleteKey: text('athlete_key').notNull(),
    name: text('name').notNull(),
    category: text('category').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.raceKey, t.athleteKey] })],
);
