import {
  bigint,
  bigserial,
  boolean,
  date,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { events, organisations } from './core.ts';
import { users } from './identity.ts';

/** Tables of group deposits and payments (issue 18; SQL in ../migrations/0013_deposits.sql). */

const ts = (name: string) => timestamp(name, { withTimezone: true });
const id = (name: string) => bigint(name, { mode: 'number' });

export const depositSettings = pgTable('deposit_settings', {
  eventId: text('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  open: boolean('open').notNull().default(true),
  entryDeadline: ts('entry_deadline'),
  currency: text('currency').notNull().default('EUR'),
  fees: jsonb('fees').notNull(),
  capacities: jsonb('capacities').notNull(),
  orderExpiryDays: integer('order_expiry_days').notNull().default(14),
  refundPolicy: jsonb('refund_policy').notNull(),
  beneficiary: text('beneficiary').notNull().default(''),
  iban: text('iban').notNull().default(''),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const deposits = pgTable('deposits', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  eventId: text('event_id')
    .notNull()
    .references(() => events.id),
  organisationName: text('organisation_name').notNull(),
  vat: text('vat'),
  type: text('type').notNull(),
  captainSub: uuid('captain_sub')
    .notNull()
    .references(() => users.sub),
  joinCode: text('join_code').notNull().unique(),
  payerMode: text('payer_mode').notNull(),
  companyCap: integer('company_cap'),
  companyUntil: date('company_until'),
  minTeamSize: integer('min_team_size').notNull().default(1),
  state: text('state').notNull().default('collecting'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  submittedAt: ts('submitted_at'),
});

export const depositMembers = pgTable(
  'deposit_members',
  {
    depositId: id('deposit_id')
      .notNull()
      .references(() => deposits.id, { onDelete: 'cascade' }),
    userSub: uuid('user_sub')
      .notNull()
      .references(() => users.sub),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.depositId, t.userSub] })],
);

export const depositEntries = pgTable('deposit_entries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  depositId: id('deposit_id')
    .notNull()
    .references(() => deposits.id, { onDelete: 'cascade' }),
  state: text('state').notNull(),
  memberSub: uuid('member_sub').references(() => users.sub),
  raceId: text('race_id'),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  gender: text('gender'),
  birthDate: date('birth_date'),
  email: text('email').notNull().default(''),
  nationality: text('nationality').notNull().default(''),
  category: text('category'),
  bib: text('bib'),
  substitution: jsonb('substitution'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const depositMessages = pgTable('deposit_messages', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  depositId: id('deposit_id')
    .notNull()
    .references(() => deposits.id, { onDelete: 'cascade' }),
  authorSub: uuid('author_sub')
    .notNull()
    .references(() => users.sub),
  audience: text('audience').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  recipients: text('recipients').array().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const orders = pgTable('orders', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** Null for the order of a confirmation document (0036; `documentId` then). */
  depositId: id('deposit_id').references(() => deposits.id),
  eventId: text('event_id')
    .notNull()
    .references(() => events.id),
  payerSub: uuid('payer_sub').references(() => users.sub),
  company: boolean('company').notNull().default(false),
  state: text('state').notNull(),
  provider: text('provider').notNull().default('bank'),
  amountCents: integer('amount_cents').notNull(),
  paidCents: integer('paid_cents').notNull().default(0),
  refundedCents: integer('refunded_cents').notNull().default(0),
  currency: text('currency').notNull().default('EUR'),
  structured: text('structured').notNull().unique(),
  providerPaymentId: text('provider_payment_id'),
  /** The amount of the provider's session or payment Tempora opened (0033). */
  providerAmountCents: integer('provider_amount_cents'),
  expiresAt: ts('expires_at').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  paidAt: ts('paid_at'),
  /** The confirmation document this order bills (0036). */
  documentId: uuid('document_id').unique(),
  /** An online entries order (0050, issue 38): its lines are its entries. */
  registration: boolean('registration').notNull().default(false),
});

/** Invoices of document orders, numbered in sequence per organisation (0036). */
export const invoices = pgTable(
  'invoices',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id),
    number: integer('number').notNull(),
    orderId: id('order_id')
      .notNull()
      .unique()
      .references(() => orders.id),
    issuedAt: ts('issued_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.number] })],
);

/** A credit note of a refund of an invoiced order (0106), numbered in the invoices' sequence. */
export const creditNotes = pgTable(
  'credit_notes',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id),
    number: integer('number').notNull(),
    orderId: id('order_id')
      .notNull()
      .references(() => orders.id),
    refundId: id('refund_id').notNull().unique(),
    invoiceNumber: integer('invoice_number').notNull(),
    amountCents: integer('amount_cents').notNull(),
    issuedAt: ts('issued_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.number] })],
);

/** The last invoice number of each organisation (0099): numbers without gaps, never twice. */
export const invoiceCounters = pgTable('invoice_counters', {
  organisationId: uuid('organisation_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  last: integer('last').notNull(),
});

export const orderLines = pgTable(
  'order_lines',
  {
    orderId: id('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    entryId: id('entry_id')
      .notNull()
      .references(() => depositEntries.id),
    raceId: text('race_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.entryId] })],
);

export const payments = pgTable(
  'payments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: id('order_id')
      .notNull()
      .references(() => orders.id),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref').notNull(),
    amountCents: integer('amount_cents').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [unique().on(t.provider, t.providerRef)],
);

export const bankStatements = pgTable('bank_statements', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  organisationId: uuid('organisation_id')
    .notNull()
    .references(() => organisations.id),
  format: text('format').notNull(),
  fileName: text('file_name').notNull().default(''),
  account: text('account').notNull(),
  importedBy: uuid('imported_by')
    .notNull()
    .references(() => users.sub),
  importedAt: ts('imported_at').notNull().defaultNow(),
  movements: integer('movements').notNull(),
  matched: integer('matched').notNull(),
});

export const bankLines = pgTable(
  'bank_lines',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    statementId: id('statement_id')
      .notNull()
      .references(() => bankStatements.id),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id),
    bankRef: text('bank_ref').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
    bookingDate: date('booking_date'),
    structured: text('structured'),
    freeText: text('free_text').notNull().default(''),
    counterpartyName: text('counterparty_name').notNull().default(''),
    counterpartyAccount: text('counterparty_account').notNull().default(''),
    state: text('state').notNull(),
    reason: text('reason'),
    allocatedCents: integer('allocated_cents').notNull().default(0),
  },
  (t) => [unique().on(t.organisationId, t.bankRef)],
);

export const refunds = pgTable('refunds', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  orderId: id('order_id')
    .notNull()
    .references(() => orders.id),
  amountCents: integer('amount_cents').notNull(),
  reason: text('reason').notNull().default(''),
  method: text('method').notNull(),
  state: text('state').notNull(),
  iban: text('iban').notNull().default(''),
  providerRef: text('provider_ref'),
  /** Null for an automatic refund (0050: a payment after its place was gone). */
  createdBy: uuid('created_by').references(() => users.sub),
  createdAt: ts('created_at').notNull().defaultNow(),
  exportedAt: ts('exported_at'),
});

export const providerWebhooks = pgTable(
  'provider_webhooks',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
