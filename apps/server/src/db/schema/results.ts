import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { events } from './core.ts';

/** A timing database of an event (the spec's `db`, e.g. `20260531_20km`). */
export const contexts = pgTable('contexts', {
  db: text('db').primaryKey(),
  eventId: text('event_id')
    .notNull()
    .references(() => events.id),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Bumped by triggers whenever what its results are built from changes (0043_report_snapshots.sql). */
  resultsStamp: bigint('results_stamp', { mode: 'number' }).notNull().default(0),
});

/** A finished context's report table as built for a stamp, in chunks of rows (issue 27). */
export const reportSnapshots = pgTable(
  'report_snapshots',
  {
    db: text('db')
      .notNull()
      .references(() => contexts.db, { onDelete: 'cascade' }),
    groupKey: text('group_key').notNull(),
    reportKey: text('report_key').notNull(),
    chunk: integer('chunk').notNull(),
    stamp: text('stamp').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
    total: integer('total').notNull(),
    head: text('head'),
    rows: text('rows').notNull(),
  },
  (t) => [primaryKey({ columns: [t.db, t.groupKey, t.reportKey, t.chunk] })],
);

/** A race of a context; `epoch` changes whenever its participants or points change. */
export const races = pgTable('races', {
  id: text('id').primaryKey(),
  db: text('db')
    .notNull()
    .references(() => contexts.db),
  name: text('name').notNull(),
  raceDate: date('race_date').notNull(),
  distanceM: integer('distance_m').notNull(),
  startType: text('start_type', { enum: ['mass', 'waves', 'individual'] }).notNull(),
  gunTimeMs: bigint('gun_time_ms', { mode: 'number' }),
  waves: jsonb('waves').notNull().default([]),
  categories: jsonb('categories').notNull().default([]),
  rules: jsonb('rules').notNull().default({}),
  course: jsonb('course'),
  position: integer('position').notNull().default(0),
  epoch: integer('epoch').notNull().default(1),
  /** Race time = gun + (wall − gun) × clockRate: 1 for a real race, more for a sped-up replay. */
  clockRate: doublePrecision('clock_rate').notNull().default(1),
  /** Categories by age on race day or by birth year (0007_console.sql). */
  ageBasis: text('age_basis', { enum: ['raceDay', 'birthYear'] })
    .notNull()
    .default('raceDay'),
  /** Team ranking: the best `best` finishers of teams of at least `minMembers`. */
  teamRule: jsonb('team_rule').notNull().default({ best: 3, minMembers: 3 }),
});

/** Ordered timing points of a race; `is_start` marks the start mat. */
export const timingPoints = pgTable(
  'timing_points',
  {
    raceId: text('race_id')
      .notNull()
      .references(() => races.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    name: text('name').notNull(),
    distanceM: doublePrecision('distance_m').notNull(),
    position: integer('position').notNull(),
    isStart: boolean('is_start').notNull().default(false),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    nameFr: text('name_fr').notNull().default(''),
    kind: text('kind', { enum: ['start', 'split', 'finish'] })
      .notNull()
      .default('split'),
  },
  (t) => [primaryKey({ columns: [t.raceId, t.key] })],
);

export const participants = pgTable(
  'participants',
  {
    /** Own id since 0008_participants.sql: a runner may wait for a bib. */
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    raceId: text('race_id')
      .notNull()
      .references(() => races.id, { onDelete: 'cascade' }),
    bib: text('bib'),
    chips: text('chips').array().notNull().default(sql`'{}'`),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    gender: text('gender', { enum: ['M', 'F', 'X'] }).notNull(),
    age: integer('age'),
    birthDate: date('birth_date'),
    nationality: text('nationality').notNull().default(''),
    club: text('club').notNull().default(''),
    wave: text('wave'),
    startTimeMs: bigint('start_time_ms', { mode: 'number' }),
    status: text('status', { enum: ['registered', 'DNS', 'DNF', 'DSQ'] })
      .notNull()
      .default('registered'),
    /** Why DNS / DNF / DSQ (race day, 0010_raceday.sql). */
    statusReason: text('status_reason'),
    category: text('category'),
    trackingKey: text('tracking_key').notNull().unique(),
    email: text('email').notNull().default(''),
    /** Soft deletion (only while the runner has no passings). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** foldText of "first last club", NULL until folded (0034_participants_search_folded.sql). */
    searchFolded: text('search_folded'),
    /** The runner's account (issue 40, 0065_runner_privacy.sql): set by an entry or a proven claim. */
    accountId: uuid('account_id'),
    /** The runner hid their name from public views ("Hidden runner", 0065_runner_privacy.sql). */
    nameHidden: boolean('name_hidden').notNull().default(false),
  },
  (t) => [uniqueIndex('participants_race_bib_idx').on(t.raceId, t.bib).where(sql`deleted_at IS NULL`)],
);

/** A timing device; its key is shown once and stored hashed. */
export const devices = pgTable('devices', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  db: text('db')
    .notNull()
    .references(() => contexts.db),
  name: text('name').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  pointKey: text('point_key'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every read ever received; a correction is the same read again with `deleted` true. */
export const passings = pgTable(
  'passings',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    db: text('db')
      .notNull()
      .references(() => contexts.db),
    passingId: text('passing_id').notNull(),
    bib: text('bib'),
    chip: text('chip'),
    pointKey: text('point_key').notNull(),
    timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
    source: text('source', { enum: ['decoder', 'manual', 'import'] }).notNull(),
    deviceId: uuid('device_id'),
    deleted: boolean('deleted').notNull().default(false),
    createdBy: text('created_by'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.db, t.passingId, t.deleted), index('passings_db_seq_idx').on(t.db, t.seq)],
);

export const reportGroups = pgTable(
  'report_groups',
  {
    db: text('db')
      .notNull()
      .references(() => contexts.db),
    key: text('key').notNull(),
    name: jsonb('name').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.db, t.key] })],
);

export const reports = pgTable(
  'reports',
  {
    db: text('db').notNull(),
    groupKey: text('group_key').notNull(),
    key: text('key').notNull(),
    name: jsonb('name').notNull(),
    definition: jsonb('definition').notNull(),
    position: integer('position').notNull().default(0),
    /** Hidden from spectators' report list (0007_console.sql). */
    hidden: boolean('hidden').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.db, t.groupKey, t.key] }),
    foreignKey({ columns: [t.db, t.groupKey], foreignColumns: [reportGroups.db, reportGroups.key] }).onDelete(
      'cascade',
    ),
  ],
);

/** Share tokens of teams (a race's clubs): `objectdetail/{token}`. */
export const teamTokens = pgTable(
  'team_tokens',
  {
    token: text('token').primaryKey(),
    db: text('db')
      .notNull()
      .references(() => contexts.db, { onDelete: 'cascade' }),
    raceId: text('race_id').notNull(),
    team: text('team').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.db, t.raceId, t.team)],
);
