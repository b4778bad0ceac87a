import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { organisations } from './core.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Tables of the identity feature (see ../migrations/0001_identity.sql). */
export const users = pgTable(
  'users',
  {
    sub: uuid('sub').primaryKey().default(sql`gen_random_uuid()`),
    email: text('email').notNull(),
    /** `issuer|sub` for users of a trusted external OIDC issuer; null for local accounts. */
    externalKey: text('external_key').unique(),
    passwordHash: text('password_hash'),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** Platform staff granted in the database (besides PLATFORM_STAFF_EMAILS). */
    platformStaff: boolean('platform_staff').notNull().default(false),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    gender: text('gender', { enum: ['M', 'F', 'X'] }),
    birthDate: date('birth_date'),
    nationality: text('nationality'),
    club: text('club').notNull().default(''),
    profilePicture: text('profile_picture'),
    lng: text('lng', { enum: ['fr', 'en'] })
      .notNull()
      .default('fr'),
    /** Hide my name from every public result (issue 40, 0065_runner_privacy.sql). */
    hideResults: boolean('hide_results').notNull().default(false),
    /** The public runner page is opt-in, at `#/r/{publicSlug}` (issue 40, 0066_runner_claims.sql). */
    publicProfile: boolean('public_profile').notNull().default(false),
    publicSlug: text('public_slug').unique(),
    /** The runner turned alerts about themselves off (issue 40, 0067_alerts.sql). */
    alertsOff: boolean('alerts_off').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_local_email_idx').on(t.email).where(sql`external_key IS NULL`)],
);

export const organisationMembers = pgTable(
  'organisation_members',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userSub: uuid('user_sub')
      .notNull()
      .references(() => users.sub, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'staff', 'timekeeper', 'pickup'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organisationId, t.userSub] }),
    index('organisation_members_user_idx').on(t.userSub),
  ],
);

export const oneTimeCodes = pgTable('one_time_codes', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  userSub: uuid('user_sub')
    .notNull()
    .references(() => users.sub, { onDelete: 'cascade' }),
  purpose: text('purpose', { enum: ['verify', 'reset'] }).notNull(),
  codeHash: text('code_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const refreshTokens = pgTable('refresh_tokens', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  userSub: uuid('user_sub')
    .notNull()
    .references(() => users.sub, { onDelete: 'cascade' }),
  familyId: uuid('family_id').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  rotatedAt: timestamp('rotated_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  generation: integer('generation').notNull().unique(),
  alg: text('alg').notNull().default('ES256'),
  privateJwk: jsonb('private_jwk').notNull(),
  publicJwk: jsonb('public_jwk').notNull(),
  createdAt: createdAt(),
});

export const outbox = pgTable('outbox', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body').notNull(),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

/** A runner's claim on a result timed without an account (issue 40, 0066_runner_claims.sql). */
export const runnerClaims = pgTable(
  'runner_claims',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    participantId: uuid('participant_id').notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.sub, { onDelete: 'cascade' }),
    method: text('method', { enum: ['email', 'organiser'] }).notNull(),
    codeHash: text('code_hash'),
    attempts: integer('attempts').notNull().default(0),
    status: text('status', { enum: ['pending', 'confirmed', 'refused', 'cancelled'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by'),
  },
  (t) => [index('runner_claims_account_idx').on(t.accountId)],
);
