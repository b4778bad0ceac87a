import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { events } from './core.ts';
import { races } from './results.ts';

/** Tables of the confirmation feature (issue 17; SQL in ../migrations/0012_confirmation.sql). */

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/** A registration document sent by a club, company or school (product.md "Confirmation"). */
export const confirmationDocuments = pgTable(
  'confirmation_documents',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    title: text('title').notNull(),
    senderName: text('sender_name').notNull(),
    senderKind: text('sender_kind').notNull(),
    contactName: text('contact_name').notNull().default(''),
    contactEmail: text('contact_email').notNull(),
    defaultRaceId: text('default_race_id').references(() => races.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('uploaded'),
    version: integer('version').notNull().default(0),
    sheet: text('sheet'),
    sheets: jsonb('sheets').notNull().default([]),
    headers: jsonb('headers').notNull().default([]),
    mapping: jsonb('mapping').notNull().default({}),
    diff: jsonb('diff'),
    rowsVersion: integer('rows_version').notNull().default(0),
    rejectReason: text('reject_reason'),
    receivedOn: date('received_on').notNull().defaultNow(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('confirmation_documents_event_idx').on(t.eventId)],
);

/** Every uploaded version of a document's file, with its cells as read. */
export const confirmationFiles = pgTable(
  'confirmation_files',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => confirmationDocuments.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    content: bytea('content').notNull(),
    cells: text('cells').notNull(),
    uploadedBy: uuid('uploaded_by'),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.version] })],
);

/** One line of a document: raw cells, mapped fields, issues, duplicate link, decision. */
export const confirmationRows = pgTable(
  'confirmation_rows',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    documentId: uuid('document_id')
      .notNull()
      .references(() => confirmationDocuments.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    raw: jsonb('raw').notNull(),
    fields: jsonb('fields').notNull().default({}),
    issues: jsonb('issues').notNull().default([]),
    duplicateOf: jsonb('duplicate_of'),
    category: text('category'),
    decision: text('decision').notNull().default('pending'),
    reason: text('reason'),
    participantId: uuid('participant_id'),
    participantRaceId: text('participant_race_id'),
    participantBib: text('participant_bib'),
    change: text('change'),
  },
  (t) => [
    unique().on(t.documentId, t.position),
    index('confirmation_rows_participant_idx').on(t.participantRaceId, t.participantBib),
  ],
);

/** The column mapping last used for a sender, offered again on its next document. */
export const confirmationMappings = pgTable('confirmation_mappings', {
  senderKey: text('sender_key').primaryKey(),
  mapping: jsonb('mapping').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The undo stack: each edit keeps the rows as they were before it. */
export const confirmationEdits = pgTable(
  'confirmation_edits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => confirmationDocuments.id, { onDelete: 'cascade' }),
    before: jsonb('before').notNull(),
    undone: boolean('undone').notNull().default(false),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('confirmation_edits_document_idx').on(t.documentId, t.id)],
);

/** Per race: places and date-based tariff used by confirmation (bib ranges: `bib_ranges`). */
export const confirmationRaceSettings = pgTable('confirmation_race_settings', {
  raceId: text('race_id')
    .primaryKey()
    .references(() => races.id, { onDelete: 'cascade' }),
  capacity: integer('capacity'),
  tariffs: jsonb('tariffs').notNull().default([]),
});
