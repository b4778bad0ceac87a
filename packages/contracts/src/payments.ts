import { z } from 'zod';

/**
 * Payments API contract (issue 18, product.md "Payments"). Paths under `apiUrlBase`:
 *
 *   GET    payments/providers                            → ProviderInfo (which are enabled)
 *   GET    payments/mine                                 → MyPayments (orders, refunds of the caller)
 *   GET    payments/orders/{id}                          → OrderDetail (payer, captain, staff)
 *   POST   payments/orders/{id}/pay  PayInput            → PayStart (bank: instructions; mollie/stripe: checkout URL)
 *   GET    payments/orders/{id}/receipt.pdf              → application/pdf
 *   POST   payments/webhooks/mollie  (form: id)          → { recorded } (status fetched from Mollie)
 *   POST   payments/webhooks/stripe  (signed event)      → { recorded } (signature verified)
 *   GET    payments/staff/events                         → StaffEventTotals[] (events the caller manages)
 *   GET    payments/staff/events/{event}/settings        → DepositSettings
 *   PUT    payments/staff/events/{event}/settings        → DepositSettings
 *   GET    payments/staff/events/{event}/orders          → OrderDetail[]
 *   POST   payments/staff/events/{event}/statements?format=&name= (text body) → StatementImportResult
 *   GET    payments/staff/events/{event}/queue           → BankLine[] (manual matching queue)
 *   POST   payments/staff/events/{event}/queue/{lineId}/match  ManualMatchInput → BankLineRow
 *   POST   payments/staff/events/{event}/queue/{lineId}/ignore { note }        → BankLineRow
 *   GET    payments/staff/events/{event}/audit           → PaymentAuditEntry[]
 *   POST   payments/staff/events/{event}/refunds RefundInput → Refund[]
 *   GET    payments/staff/events/{event}/refunds.csv     → the bank's refund export (marks them exported;
 *                                                           amounts `12.10`: two decimals, a point, for bank software)
 *   GET    payments/staff/events/{event}/export.{csv|xlsx}[?lng=en|fr] → the accountant's export (CSV
 *          `;`-separated, amounts with two decimals; `lng=fr`: decimal comma, for a French-language
 *          Excel, as the console asks in French; XLSX amounts are numbers formatted 0.00)
 *   POST   payments/staff/events/{event}/expire          → { expired } (orders past their hold)
 */

export const providerNames = ['bank', 'mollie', 'stripe'] as const;
export type ProviderName = (typeof providerNames)[number];
export const orderStateNames = ['awaiting_payment', 'paid', 'expired', 'cancelled', 'refunded'] as const;
export type OrderStateName = (typeof orderStateNames)[number];

export const payInputSchema = z
  .object({
    provider: z.enum(providerNames),
    /** Where the provider sends the payer back (our own `paymentok` page); never proof of payment. */
    returnUrl: z.url().max(500).optional(),
  })
  .strict();
export type PayInput = z.input<typeof payInputSchema>;

const refundTier = z.object({
  until: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  percent: z.number().min(0).max(100),
});
export const refundPolicySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('full') }),
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('tiers'), tiers: z.array(refundTier).min(1).max(10) }),
]);

export const depositSettingsSchema = z
  .object({
    open: z.boolean(),
    entryDeadline: z.iso.datetime({ offset: true }).nullable(),
    currency: z.string().regex(/^[A-Z]{3}$/),
    fees: z.record(z.string().min(1).max(100), z.number().int().min(0).max(10_000_00)),
    capacities: z.record(z.string().min(1).max(100), z.number().int().min(0).max(1_000_000)),
    orderExpiryDays: z.number().int().min(1).max(365),
    refundPolicy: refundPolicySchema,
    beneficiary: z.string().trim().max(70),
    iban: z
      .string()
      .trim()
      .max(34)
      .regex(/^$|^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/, 'an IBAN without spaces'),
  })
  .strict();
export type DepositSettings = z.infer<typeof depositSettingsSchema>;

export const statementQuerySchema = z.object({
  format: z.enum(['coda', 'camt053']).optional(),
  name: z.string().max(200).default(''),
});

export const manualMatchSchema = z
  .object({
    allocations: z
      .array(z.object({ orderId: z.string().regex(/^\d{1,15}$/), amountCents: z.number().int().min(1) }))
      .min(1)
      .max(50),
    note: z.string().trim().max(500).default(''),
  })
  .strict();
export type ManualMatchInput = z.input<typeof manualMatchSchema>;
export const ignoreLineSchema = z.object({ note: z.string().trim().min(1).max(500) }).strict();

export const refundInputSchema = z
  .object({
    /** Orders to refund, or every paid order of a (cancelled) race. */
    orderIds: z
      .array(z.string().regex(/^\d{1,15}$/))
      .max(10_000)
      .optional(),
    raceId: z.string().min(1).max(100).optional(),
    kind: z.enum(['full', 'partial', 'policy']),
    amountCents: z.number().int().min(1).optional(),
    reason: z.string().trim().max(500).default(''),
    method: z.enum(['bank', 'provider']).default('bank'),
  })
  .strict()
  .refine((v) => (v.orderIds?.length ?? 0) > 0 || v.raceId, {
    message: 'orderIds or raceId',
    path: ['orderIds'],
  })
  .refine((v) => v.kind !== 'partial' || v.amountCents !== undefined, {
    message: 'a partial refund needs amountCents',
    path: ['amountCents'],
  });
export type RefundInput = z.input<typeof refundInputSchema>;

export const providerInfoSchema = z.object({ providers: z.array(z.enum(providerNames)) });
export type ProviderInfo = z.infer<typeof providerInfoSchema>;

export const orderLineViewSchema = z.object({
  entryId: z.string(),
  raceId: z.string(),
  raceName: z.string(),
  participant: z.string(),
  amountCents: z.number(),
});
export type OrderLineView = z.infer<typeof orderLineViewSchema>;

export const refundViewSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  amountCents: z.number(),
  reason: z.string(),
  method: z.enum(['bank', 'provider']),
  state: z.enum(['pending', 'exported', 'done', 'failed']),
  createdAt: z.string(),
  /**
   * The refund's credit note (avoir, issue 38) when its order was invoiced, numbered as printed:
   * `GET /api/payments/orders/{orderId}/credit-notes/{creditNote}`.
   */
  creditNote: z.string().nullable(),
});
export type RefundView = z.infer<typeof refundViewSchema>;

export const orderDetailSchema = z.object({
  id: z.string(),
  /** Null for the order of a confirmation document (`documentId`, issue 29). */
  depositId: z.string().nullable(),
  documentId: z.string().nullable(),
  eventId: z.string(),
  eventName: z.string(),
  organisationName: z.string(),
  payerName: z.string(),
  payerEmail: z.string(),
  company: z.boolean(),
  state: z.enum(orderStateNames),
  provider: z.enum(providerNames),
  amountCents: z.number(),
  paidCents: z.number(),
  refundedCents: z.number(),
  currency: z.string(),
  /** `+++XXX/XXXX/XXXXX+++`. */
  communication: z.string(),
  beneficiary: z.string(),
  iban: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  lines: z.array(orderLineViewSchema),
  refunds: z.array(refundViewSchema),
  /**
   * The order's invoice number as printed (`GET /api/payments/orders/{id}/invoice.pdf`), null
   * before it is invoiced; each refund's credit note refers to it (issue 38).
   */
  invoice: z.string().nullable(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const myPaymentsSchema = z.object({
  orders: z.array(orderDetailSchema),
  refunds: z.array(refundViewSchema),
});
export type MyPayments = z.infer<typeof myPaymentsSchema>;

export const payStartSchema = z.object({
  provider: z.enum(providerNames),
  /** Mollie / Stripe: where to send the payer. */
  checkoutUrl: z.string().nullable(),
  communication: z.string(),
  iban: z.string(),
  beneficiary: z.string(),
  amountCents: z.number(),
  currency: z.string(),
});
export type PayStart = z.infer<typeof payStartSchema>;

export const staffEventTotalsSchema = z.object({
  eventId: z.string(),
  eventName: z.string(),
  organisationId: z.string(),
  deposits: z.number(),
  orders: z.number(),
  dueCents: z.number(),
  paidCents: z.number(),
  refundedCents: z.number(),
  queue: z.number(),
});
export type StaffEventTotals = z.infer<typeof staffEventTotalsSchema>;

/** A bank statement's line as stored (the answer of a manual match or an ignore). */
export const bankLineRowSchema = z.object({
  id: z.string(),
  bankRef: z.string(),
  amountCents: z.number(),
  currency: z.string(),
  bookingDate: z.string().nullable(),
  /** The structured communication it carries, digits only (`communication` formats it). */
  structured: z.string().nullable(),
  freeText: z.string(),
  counterpartyName: z.string(),
  counterpartyAccount: z.string(),
  state: z.enum(['matched', 'manual', 'ignored', 'debit']),
  reason: z.string().nullable(),
  allocatedCents: z.number(),
});
export type BankLineRow = z.infer<typeof bankLineRowSchema>;

/** A line of the manual matching queue. */
export const bankLineSchema = bankLineRowSchema.extend({
  communication: z.string(),
  /** Orders the line names (a hint for staff). */
  candidates: z.array(z.string()),
});
export type BankLine = z.infer<typeof bankLineSchema>;

export const statementImportResultSchema = z.object({
  statementId: z.string(),
  format: z.enum(['coda', 'camt053']),
  account: z.string(),
  movements: z.number(),
  matched: z.number(),
  manual: z.number(),
  duplicates: z.number(),
  debits: z.number(),
});
export type StatementImportResult = z.infer<typeof statementImportResultSchema>;

export const paymentAuditEntrySchema = z.object({
  id: z.string(),
  orderId: z.string().nullable(),
  bankLineId: z.string().nullable(),
  action: z.string(),
  amountCents: z.number().nullable(),
  actor: z.string(),
  note: z.string(),
  createdAt: z.string(),
});
export type PaymentAuditEntry = z.infer<typeof paymentAuditEntrySchema>;

/** A provider's notification, handled: whether it recorded a payment now (false for a repeat). */
export const providerWebhookAnswerSchema = z.object({ recorded: z.boolean() });
