import { z } from 'zod';

/**
 * Group deposits API contract (issue 18, product.md "Deposits"). Paths under `apiUrlBase`:
 *
 *   GET    deposits/events/{event}/offer                → DepositOffer (public: races, fees, places, deadline)
 *   POST   deposits                 DepositCreate       → DepositDetail (signed in; the caller is captain)
 *   GET    deposits/mine                                → DepositSummary[] (captain or member)
 *   GET    deposits/join/{code}                         → JoinPreview (signed in; rate-limited)
 *   POST   deposits/join            { code }            → DepositDetail (signed in; becomes a member)
 *   GET    deposits/{id}                                → DepositDetail (captain, member, organiser staff)
 *   PATCH  deposits/{id}            DepositPatch        → DepositDetail (captain, while collecting)
 *   GET    deposits/{id}/share?origin=                  → DepositShare (captain, staff: link + QR SVG)
 *   POST   deposits/{id}/entries    EntryInput          → DepositDetail (member: their own; captain: any)
 *   POST   deposits/{id}/entries/import { csv }         → DepositDetail (captain; all rows or none)
 *   PATCH  deposits/{id}/entries/{entryId} EntryInput   → DepositDetail (after payment: a substitution request)
 *   DELETE deposits/{id}/entries/{entryId}              → DepositDetail (while collecting)
 *   POST   deposits/{id}/entries/{entryId}/substitution { approve } → DepositDetail (organiser staff)
 *   POST   deposits/{id}/submit                         → DepositDetail (captain: orders created, prices frozen)
 *   POST   deposits/{id}/cancel | reopen | close        → DepositDetail (captain before payment / staff)
 *   GET    deposits/{id}/messages                       → DepositMessage[] (captain, member, staff)
 *   POST   deposits/{id}/messages   MessageInput        → DepositMessage (captain; through the outbox)
 *   GET    deposits/{id}/ranking                        → TeamRanking (once the race runs)
 *   GET    deposits/events/{event}/all                  → DepositSummary[] (organiser staff)
 */

export const depositTypes = ['company', 'club', 'school', 'friends'] as const;
export const payerModes = ['captain', 'member', 'company'] as const;
export const depositStateNames = [
  'collecting',
  'submitted',
  'awaiting_payment',
  'paid',
  'confirmed',
  'closed',
  'expired',
  'cancelled',
] as const;
export const entryStateNames = ['placeholder', 'submitted', 'valid', 'confirmed', 'cancelled'] as const;
export const messageAudiences = ['all', 'missing', 'unpaid', 'organiser'] as const;

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
const name = z.string().trim().max(100);

export const depositCreateSchema = z
  .object({
    eventId: z.string().min(1).max(100),
    organisationName: z.string().trim().min(1).max(150),
    vat: z
      .string()
      .trim()
      .max(20)
      .regex(/^$|^[A-Z]{2}[0-9A-Z .]{2,16}$/i, 'a VAT number such as BE0123456789')
      .optional(),
    type: z.enum(depositTypes),
    payerMode: z.enum(payerModes).default('captain'),
    companyCap: z.number().int().min(1).max(100_000).nullable().optional(),
    companyUntil: date.nullable().optional(),
    minTeamSize: z.number().int().min(1).max(1000).default(1),
  })
  .strict();
export type DepositCreate = z.input<typeof depositCreateSchema>;

export const depositPatchSchema = depositCreateSchema.omit({ eventId: true }).partial().strict();
export type DepositPatch = z.input<typeof depositPatchSchema>;

export const entryInputSchema = z
  .object({
    raceId: z.string().min(1).max(100).optional(),
    firstName: name.optional(),
    lastName: name.optional(),
    gender: z.enum(['M', 'F', 'X']).optional(),
    birthDate: date.optional(),
    email: z.union([z.literal(''), z.email().max(200)]).optional(),
    nationality: z
      .string()
      .trim()
      .regex(/^$|^[A-Za-z]{3}$/, 'a 3-letter code')
      .optional(),
    /** Captain: a place without a name yet. */
    placeholder: z.boolean().optional(),
    /** Member: this entry is mine (one per member). */
    self: z.boolean().optional(),
  })
  .strict();
export type EntryInput = z.input<typeof entryInputSchema>;

export const entryImportSchema = z.object({ csv: z.string().min(1).max(1_000_000) }).strict();
export const joinSchema = z.object({ code: z.string().trim().min(4).max(20) }).strict();
export const substitutionDecisionSchema = z.object({ approve: z.boolean() }).strict();
export const messageInputSchema = z
  .object({
    audience: z.enum(messageAudiences),
    subject: z.string().trim().min(1).max(200),
    body: z.string().trim().min(1).max(10_000),
  })
  .strict();
export type MessageInput = z.input<typeof messageInputSchema>;

export type DepositType = (typeof depositTypes)[number];
export type PayerModeName = (typeof payerModes)[number];
export type DepositStateName = (typeof depositStateNames)[number];
export type EntryStateName = (typeof entryStateNames)[number];

export interface OfferRace {
  id: string;
  name: string;
  date: string;
  priceCents: number;
  /** null: no limit. */
  placesLeft: number | null;
}

export interface DepositOffer {
  eventId: string;
  eventName: string;
  open: boolean;
  deadline: string | null;
  currency: string;
  races: OfferRace[];
}

export interface DepositSummary {
  id: string;
  eventId: string;
  eventName: string;
  organisationName: string;
  type: DepositType;
  state: DepositStateName;
  role: 'captain' | 'member' | 'staff';
  entries: number;
  createdAt: string;
}

export interface DepositEntry {
  id: string;
  state: EntryStateName;
  memberSub: string | null;
  mine: boolean;
  raceId: string | null;
  raceName: string | null;
  firstName: string;
  lastName: string;
  gender: 'M' | 'F' | 'X' | null;
  birthDate: string | null;
  email: string;
  nationality: string;
  category: string | null;
  bib: string | null;
  /** Fields still missing before the entry is valid. */
  missing: string[];
  /** A change asked after payment, waiting for the organiser. */
  substitution: EntryInput | null;
  /** Paid through an order (null before submission). */
  orderId: string | null;
  paid: boolean;
  priceCents: number | null;
}

export interface DepositOrderSummary {
  id: string;
  payerSub: string;
  payerName: string;
  company: boolean;
  state: 'awaiting_payment' | 'paid' | 'expired' | 'cancelled' | 'refunded';
  amountCents: number;
  paidCents: number;
  refundedCents: number;
  currency: string;
  structured: string;
  expiresAt: string;
  mine: boolean;
}

export interface DepositDetail {
  id: string;
  eventId: string;
  eventName: string;
  organisationName: string;
  vat: string | null;
  type: DepositType;
  payerMode: PayerModeName;
  companyCap: number | null;
  companyUntil: string | null;
  minTeamSize: number;
  state: DepositStateName;
  captainSub: string;
  captainName: string;
  /** The caller's relation to the deposit. */
  role: 'captain' | 'member' | 'staff';
  /** Only for the captain and staff. */
  joinCode: string | null;
  /** Whether entries may still change (collecting, before the event's deadline). */
  editable: boolean;
  deadline: string | null;
  currency: string;
  /** The organiser's account for bank transfers. */
  iban: string;
  beneficiary: string;
  members: { sub: string; name: string; email: string }[];
  entries: DepositEntry[];
  orders: DepositOrderSummary[];
  totals: { entries: number; placeholders: number; missing: number; amountCents: number; paidCents: number };
  createdAt: string;
  submittedAt: string | null;
}

export interface DepositShare {
  code: string;
  url: string;
  /** The share link as a QR code, an SVG document (our own server's output). */
  qrSvg: string;
}

/**
 * What a join code shows a signed-in caller before joining (issue 25): no captain, no deposit id.
 * `open`: the team still takes members (collecting, before the deadline).
 */
export interface JoinPreview {
  eventId: string;
  eventName: string;
  teamName: string;
  deadline: string;
  open: boolean;
}

export interface DepositMessage {
  id: string;
  authorName: string;
  audience: (typeof messageAudiences)[number];
  subject: string;
  body: string;
  recipients: number;
  createdAt: string;
}

export interface TeamRanking {
  /** False until a member has a time. */
  started: boolean;
  minTeamSize: number;
  members: { bib: string; name: string; raceName: string; timeMs: number | null; rank: number | null }[];
  /** Sum of the best `minTeamSize` times, null when fewer have finished. */
  teamTimeMs: number | null;
}
