import { sql } from 'drizzle-orm';
import {
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { events, organisations } from './core.ts';
import { races } from './results.ts';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/** A file uploaded for import, kept until imported or replaced. */
export const importUploads = pgTable(
  'import_uploads',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    format: text('format', { enum: ['csv', 'xlsx'] }).notNull(),
    data: bytea('data').notNull(),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('import_uploads_event_idx').on(t.eventId)],
);

/** An uploaded file's bytes, 256 KB per piece, in order (files stored before keep theirs in `data`). */
export const importUploadPieces = pgTable(
  'import_upload_pieces',
  {
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => importUploads.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.position] })],
);

/** The column mapping an organisation used last, per kind of file. */
export const importMappings = pgTable(
  'import_mappings',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    mapping: jsonb('mapping').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.kind] })],
);

/** The bib range of a race. */
export const bibRanges = pgTable('bib_ranges', {
  raceId: text('race_id')
    .primaryKey()
    .references(() => races.id, { onDelete: 'cascade' }),
  firstBib: integer('first_bib').notNull(),
  lastBib: integer('last_bib').notNull(),
});

/** A committed participant import (issue 29): its refused rows and, per runner, what undo reverses. */
export const participantImports = pgTable(
  'participant_imports',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    raceId: text('race_id').notNull(),
    fileName: text('file_name').notNull(),
    header: jsonb('header').notNull().default(sql`'[]'::jsonb`),
    refused: jsonb('refused').notNull().default(sql`'[]'::jsonb`),
    imported: integer('imported').notNull(),
    total: integer('total').notNull(),
    actorSub: text('actor_sub'),
    actorEmail: text('actor_email').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    undoneBy: text('undone_by'),
  },
  (t) => [index('participant_imports_event_idx').on(t.eventId, t.at)],
);

/** A runner an import created (`previous` null) or changed (`previous`: its fields before). */
export const participantImportItems = pgTable(
  'participant_import_items',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => participantImports.id, { onDelete: 'cascade' }),
    participantId: uuid('participant_id').notNull(),
    previous: jsonb('previous'),
  },
  (t) => [primaryKey({ columns: [t.importId, t.participantId] })],
);
