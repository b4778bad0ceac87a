import { sql } from 'drizzle-orm';
import { bigint, boolean, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Alerts for followers (issue 40, ../migrations/0067_alerts.sql). */
export const alertVapid = pgTable('alert_vapid', {
  id: integer('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  createdAt: createdAt(),
});

export const alertEmails = pgTable('alert_emails', {
  email: text('email').primaryKey(),
  token: text('token').notNull().unique(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const alertSubscriptions = pgTable('alert_subscriptions', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  trackingKey: text('tracking_key').notNull(),
  channel: text('channel', { enum: ['email', 'push'] }).notNull(),
  email: text('email'),
  endpoint: text('endpoint'),
  p256dh: text('p256dh'),
  auth: text('auth'),
  points: text('points').array().notNull(),
  lng: text('lng', { enum: ['en', 'fr'] })
    .notNull()
    .default('fr'),
  token: text('token').notNull().unique(),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
});

export const alertSends = pgTable(
  'alert_sends',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => alertSubscriptions.id, { onDelete: 'cascade' }),
    pointKey: text('point_key').notNull(),
    timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
    corrections: integer('corrections').notNull().default(0),
    readAtMs: bigint('read_at_ms', { mode: 'number' }),
    /** The seq of the read the message was sent for (0088: an older read never replaces it). */
    seq: bigint('seq', { mode: 'number' }).notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.pointKey] })],
);
