import {
  bigint,
  bigserial,
  boolean,
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
import { orders } from './deposits.ts';
import { users } from './identity.ts';
import { races } from './results.ts';

/** Tables of online entries (issue 38; SQL in ../migrations/0050_entries.sql). */

const ts = (name: string) => timestamp(name, { withTimezone: true });
const id = (name: string) => bigint(name, { mode: 'number' });

export const registrationEvents = pgTable('registration_events', {
  eventId: text('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  holdMinutes: integer('hold_minutes').notNull().default(15),
  waitlistMinutes: integer('waitlist_minutes').notNull().default(1440),
  payOnSite: boolean('pay_on_site').notNull().default(false),
  currency: text('currency').notNull().default('EUR'),
  policy: jsonb('policy').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  /** The event's next edition, where deferred entries' credits are used (0098). */
  nextEventId: text('next_event_id').references(() => events.id, { onDelete: 'set null' }),
});

export const registrationRaces = pgTable('registration_races', {
  raceId: text('race_id')
    .primaryKey()
    .references(() => races.id, { onDelete: 'cascade' }),
  eventId: text('event_id')
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' }),
  opensAt: ts('opens_at'),
  closesAt: ts('closes_at'),
  capacity: integer('capacity'),
  taken: integer('taken').notNull().default(0),
  held: integer('held').notNull().default(0),
  prices: jsonb('prices').notNull(),
  minAge: integer('min_age'),
  maxAge: integer('max_age'),
  required: text('required').array().notNull(),
  guardianForMinors: boolean('guardian_for_minors').notNull().default(false),
  teamSize: integer('team_size'),
});

export const registrationQuestions = pgTable(
  'registration_questions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    label: text('label').notNull(),
    kind: text('kind').notNull(),
    options: text('options').array().notNull(),
    required: boolean('required').notNull().default(false),
    public: boolean('public').notNull().default(false),
    position: integer('position').notNull().default(0),
  },
  (t) => [unique().on(t.eventId, t.key)],
);

export const registrationAddons = pgTable(
  'registration_addons',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    name: text('name').notNull(),
    priceCents: integer('price_cents').notNull(),
    capacity: integer('capacity'),
    taken: integer('taken').notNull().default(0),
    held: integer('held').notNull().default(0),
  },
  (t) => [unique().on(t.eventId, t.key)],
);

export const registrationWaivers = pgTable(
  'registration_waivers',
  {
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.version] })],
);

export const registrationCodes = pgTable('registration_codes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  eventId: text('event_id')
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' }),
  raceId: text('race_id').references(() => races.id, { onDelete: 'cascade' }),
  code: text('code').notNull(),
  kind: text('kind').notNull(),
  value: integer('value').notNull(),
  capacity: integer('capacity'),
  taken: integer('taken').notNull().default(0),
  held: integer('held').notNull().default(0),
  validFrom: ts('valid_from'),
  validUntil: ts('valid_until'),
  /** A deferral credit's code (0098): only the runner of this e-mail may use it. */
  ownerEmail: text('owner_email'),
});

export const registrationEntries = pgTable('registration_entries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  code: text('code').notNull().unique(),
  eventId: text('event_id')
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' }),
  raceId: text('race_id')
    .notNull()
    .references(() => races.id),
  orderId: id('order_id').references(() => orders.id),
  accountSub: uuid('account_sub').references(() => users.sub),
  email: text('email').notNull(),
  lang: text('lang').notNull().default('en'),
  state: text('state').notNull(),
  participantId: uuid('participant_id'),
  details: jsonb('details'),
  answers: jsonb('answers').notNull(),
  addons: jsonb('addons').notNull(),
  codeId: id('code_id').references(() => registrationCodes.id),
  memberCode: text('member_code'),
  entryCents: integer('entry_cents').notNull().default(0),
  discountCents: integer('discount_cents').notNull().default(0),
  addonsCents: integer('addons_cents').notNull().default(0),
  waiverVersion: integer('waiver_version'),
  waiverAcceptedAt: ts('waiver_accepted_at'),
  holdExpiresAt: ts('hold_expires_at'),
  waitlistId: id('waitlist_id'),
  teamId: id('team_id').references(() => registrationTeams.id),
  source: text('source').notNull().default('online'),
  refundDue: boolean('refund_due').notNull().default(false),
  mailedAt: ts('mailed_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  confirmedAt: ts('confirmed_at'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const registrationChanges = pgTable('registration_changes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  entryId: id('entry_id')
    .notNull()
    .references(() => registrationEntries.id, { onDelete: 'cascade' }),
  orderId: id('order_id')
    .notNull()
    .references(() => orders.id),
  action: text('action').notNull(),
  payload: jsonb('payload').notNull(),
  state: text('state').notNull().default('pending'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const registrationWaitlist = pgTable('registration_waitlist', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  raceId: text('race_id')
    .notNull()
    .references(() => races.id, { onDelete: 'cascade' }),
  accountSub: uuid('account_sub').references(() => users.sub),
  email: text('email').notNull(),
  name: text('name').notNull().default(''),
  lang: text('lang').notNull().default('en'),
  state: text('state').notNull().default('waiting'),
  token: text('token').unique(),
  invitedUntil: ts('invited_until'),
  createdAt: ts('created_at').notNull().defaultNow(),
  /** When the runner was told their race closed while they waited (state `closed`, 0107). */
  closedAt: ts('closed_at'),
  /** When the runner was told their invitation ran out unused (state `expired`, 0108). */
  lapsedToldAt: ts('lapsed_told_at'),
});

/** Team entries (SQL in ../migrations/0090_entry_teams.sql). */
export const registrationTeams = pgTable('registration_teams', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  token: text('token').notNull().unique(),
  eventId: text('event_id')
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' }),
  raceId: text('race_id')
    .notNull()
    .references(() => races.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  captainSub: uuid('captain_sub')
    .notNull()
    .references(() => users.sub),
  pays: text('pays').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const registrationTeamMembers = pgTable('registration_team_members', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  teamId: id('team_id')
    .notNull()
    .references(() => registrationTeams.id, { onDelete: 'cascade' }),
  accountSub: uuid('account_sub').references(() => users.sub),
  email: text('email').notNull(),
  lang: text('lang').notNull().default('en'),
  runner: jsonb('runner').notNull(),
  entryCode: text('entry_code'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** A deferred entry's credit for the event's next edition (0098), its code once issued. */
export const registrationCredits = pgTable('registration_credits', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  entryId: id('entry_id')
    .notNull()
    .unique()
    .references(() => registrationEntries.id, { onDelete: 'cascade' }),
  eventId: text('event_id')
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  cents: integer('cents').notNull(),
  currency: text('currency').notNull(),
  codeId: id('code_id')
    .unique()
    .references(() => registrationCodes.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  /** The next edition's race where the credit holds a place (0105), counted in its `held`. */
  placeRaceId: text('place_race_id').references(() => races.id, { onDelete: 'set null' }),
  /** reserved | used | released; null: no place reserved yet (0105). */
  placeState: text('place_state'),
  /** What was left of the credit once used, refunded (0105). */
  remainderCents: integer('remainder_cents'),
  remainderRefundId: id('remainder_refund_id'),
});
