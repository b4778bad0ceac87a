import { z } from 'zod';

/**
 * Payments API contract (issue 18, product.md "Payments"). Paths under `apiUrlBase`:
 *
 *   GET    payments/providers                            → ProviderInfo (which are enabled)
 *   GET    payments/mine                                 → MyPayments (orders, refunds of the caller)
 *   GET    payments/orders/{id}                          → OrderDetail (payer, captain, staff)
 *   POST   payments/orders/{id}/pay  PayInput            → PayStart (bank: instructions; mollie/stripe: checkout URL)
 *   GET    payments/orders/{id}/receipt.pdf              → application/pdf
 *   POST   payments/webhooks/mollie  (form: id)          → 200 (status fetched from Mollie)
 *   POST   payments/webhooks/stripe  (signed event)      → 200 (signature verified)
 *   GET    payments/staff/events                         → StaffEventTotals[] (events the caller manages)
 *   GET    payments/staff/events/{event}/settings        → DepositSettings
 *   PUT    payments/staff/events/{event}/settings        → DepositSettings
 *   GET    payments/staff/events/{event}/orders          → OrderDetail[]
 *   POST   payments/staff/events/{event}/statements?format=&name= (text body) → StatementImportResult
 *   GET    payments/staff/events/{event}/queue           → BankLine[] (manual matching queue)
 *   POST   payments/staff/events/{event}/queue/{lineId}/match  ManualMatchInput → BankLine
 *   POST   payments/staff/events/{event}/queue/{lineId}/ignore { note }        → BankLine
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

export interface ProviderInfo {
  providers: ProviderName[];
}

export interface OrderLineView {
  entryId: string;
  raceId: string;
  raceName: string;
  participant: string;
  amountCents: number;
}

export interface RefundView {
  id: string;
  orderId: string;
  amountCents: number;
  reason: string;
  method: 'bank' | 'provider';
  state: 'pending' | 'exported' | 'done' | 'failed';
  createdAt: string;
}

export interface OrderDetail {
  id: string;
  /** Null for the order of a confirmation document (`documentId`, issue 29). */
  depositId: string | null;
  documentId: string | null;
  eventId: string;
  eventName: string;
  organisationName: string;
  payerName: string;
  payerEmail: string;
  company: boolean;
  state: OrderStateName;
  provider: ProviderName;
  amountCents: number;
  paidCents: number;
  refundedCents: number;
  currency: string;
  /** `+++XXX/XXXX/XXXXX+++`. */
  communication: string;
  beneficiary: string;
  iban: string;
  expiresAt: string;
  createdAt: string;
  paidAt: string | null;
  lines: OrderLineView[];
  refunds: RefundView[];
}

export interface MyPayments {
  orders: OrderDetail[];
  refunds: RefundView[];
}

export interface PayStart {
  provider: ProviderName;
  /** Mollie / Stripe: where to send the payer. */
  checkoutUrl: string | null;
  communication: string;
  iban: string;
  beneficiary: string;
  amountCents: number;
  currency: string;
}

export interface StaffEventTotals {
  eventId: string;
  eventName: string;
  organisationId: string;
  deposits: number;
  orders: number;
  dueCents: number;
  paidCents: number;
  refundedCents: number;
  queue: number;
}

export interface BankLine {
  id: string;
  bankRef: string;
  amountCents: number;
  currency: string;
  bookingDate: string | null;
  communication: string;
  freeText: string;
  counterpartyName: string;
  counterpartyAccount: string;
  state: 'matched' | 'manual' | 'ignored' | 'debit';
  reason: string | null;
  allocatedCents: number;
  /** Orders the line names (a hint for staff). */
  candidates: string[];
}

export interface StatementImportResult {
  statementId: string;
  format: 'coda' | 'camt053';
  account: string;
  movements: number;
  matched: number;
  manual: number;
  duplicates: number;
  debits: number;
}

export interface PaymentAuditEntry {
  id: string;
  orderId: string | null;
  bankLineId: string | null;
  action: string;
  amountCents: number | null;
  actor: string;
  note: string;
  createdAt: string;
}
