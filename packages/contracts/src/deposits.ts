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

export const offerRaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  date: z.string(),
  priceCents: z.number(),
  /** null: no limit. */
  placesLeft: z.number().nullable(),
});
export type OfferRace = z.infer<typeof offerRaceSchema>;

export const depositOfferSchema = z.object({
  eventId: z.string(),
  eventName: z.string(),
  open: z.boolean(),
  deadline: z.string().nullable(),
  currency: z.string(),
  races: z.array(offerRaceSchema),
});
export type DepositOffer = z.infer<typeof depositOfferSchema>;

const depositRole = z.enum(['captain', 'member', 'staff']);

export const depositSummarySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventName: z.string(),
  organisationName: z.string(),
  type: z.enum(depositTypes),
  state: z.enum(depositStateNames),
  role: depositRole,
  entries: z.number(),
  createdAt: z.string(),
});
export type DepositSummary = z.infer<typeof depositSummarySchema>;

export const depositEntrySchema = z.object({
  id: z.string(),
  state: z.enum(entryStateNames),
  memberSub: z.string().nullable(),
  mine: z.boolean(),
  raceId: z.string().nullable(),
  raceName: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  gender: z.enum(['M', 'F', 'X']).nullable(),
  birthDate: z.string().nullable(),
  email: z.string(),
  nationality: z.string(),
  category: z.string().nullable(),
  bib: z.string().nullable(),
  /** Fields still missing before the entry is valid. */
  missing: z.array(z.string()),
  /** A change asked after payment, waiting for the organiser (an `EntryInput`, as stored). */
  substitution: z.object(entryInputSchema.shape).nullable(),
  /** Paid through an order (null before submission). */
  orderId: z.string().nullable(),
  paid: z.boolean(),
  priceCents: z.number().nullable(),
});
export type DepositEntry = z.infer<typeof depositEntrySchema>;

export const depositOrderSummarySchema = z.object({
  id: z.string(),
  payerSub: z.string(),
  payerName: z.string(),
  company: z.boolean(),
  state: z.enum(['awaiting_payment', 'paid', 'expired', 'cancelled', 'refunded']),
  amountCents: z.number(),
  paidCents: z.number(),
  refundedCents: z.number(),
  currency: z.string(),
  structured: z.string(),
  expiresAt: z.string(),
  mine: z.boolean(),
});
export type DepositOrderSummary = z.infer<typeof depositOrderSummarySchema>;

export const depositDetailSchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventName: z.string(),
  organisationName: z.string(),
  vat: z.string().nullable(),
  type: z.enum(depositTypes),
  payerMode: z.enum(payerModes),
  companyCap: z.number().nullable(),
  companyUntil: z.string().nullable(),
  minTeamSize: z.number(),
  state: z.enum(depositStateNames),
  captainSub: z.string(),
  captainName: z.string(),
  /** The caller's relation to the deposit. */
  role: depositRole,
  /** Only for the captain and staff. */
  joinCode: z.string().nullable(),
  /** Whether entries may still change (collecting, before the event's deadline). */
  editable: z.boolean(),
  deadline: z.string().nullable(),
  currency: z.string(),
  /** The organiser's account for bank transfers. */
  iban: z.string(),
  beneficiary: z.string(),
  members: z.array(z.object({ sub: z.string(), name: z.string(), email: z.string() })),
  entries: z.array(depositEntrySchema),
  orders: z.array(depositOrderSummarySchema),
  totals: z.object({
    entries: z.number(),
    placeholders: z.number(),
    missing: z.number(),
    amountCents: z.number(),
    paidCents: z.number(),
  }),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
});
export type DepositDetail = z.infer<typeof depositDetailSchema>;

export const depositShareSchema = z.object({
  code: z.string(),
  url: z.string(),
  /** The share link as a QR code, an SVG document (our own server's output). */
  qrSvg: z.string(),
});
export type DepositShare = z.infer<typeof depositShareSchema>;

/**
 * What a join code shows a signed-in caller before joining (issue 25): no captain, no deposit id.
 * `open`: the team still takes members (collecting, before the deadline).
 */
export const joinPreviewSchema = z.object({
  eventId: z.string(),
  eventName: z.string(),
  teamName: z.string(),
  deadline: z.string(),
  open: z.boolean(),
});
export type JoinPreview = z.infer<typeof joinPreviewSchema>;

export const depositMessageSchema = z.object({
  id: z.string(),
  authorName: z.string(),
  audience: z.enum(messageAudiences),
  subject: z.string(),
  body: z.string(),
  recipients: z.number(),
  createdAt: z.string(),
});
export type DepositMessage = z.infer<typeof depositMessageSchema>;

export const teamRankingSchema = z.object({
  /** False until a member has a time. */
  started: z.boolean(),
  minTeamSize: z.number(),
  members: z.array(
    z.object({
      bib: z.string(),
      name: z.string(),
      raceName: z.string(),
      timeMs: z.number().nullable(),
      rank: z.number().nullable(),
    }),
  ),
  /** Sum of the best `minTeamSize` times, null when fewer have finished. */
  teamTimeMs: z.number().nullable(),
});
export type TeamRanking = z.infer<typeof teamRankingSchema>;
