/**
 * One adapter interface for payment providers (issue 18): the embedded bank transfer, Mollie and
 * Stripe. A provider starts a payment for an order and, for online providers, tells what a
 * notification means; it never marks an order paid from a return URL.
 */
export interface PaymentRequest {
  orderId: string;
  amountCents: number;
  currency: string;
  description: string;
  /** Our own page the payer comes back to (shows "pending" until confirmed). */
  returnUrl: string;
  /** Where the provider posts notifications (needs PUBLIC_URL). */
  webhookUrl: string | null;
}

export interface PaymentStart {
  /** The provider's payment id (stored on the order). */
  providerPaymentId: string | null;
  /** Where to send the payer, or null (bank transfer: the instructions are on our page). */
  checkoutUrl: string | null;
}

/** What a provider says about a payment, after verification. */
export interface PaymentStatus {
  providerRef: string;
  orderId: string;
  paid: boolean;
  amountCents: number;
}

export interface OnlineProvider {
  readonly name: 'mollie' | 'stripe';
  start(request: PaymentRequest): Promise<PaymentStart>;
  refund(providerPaymentId: string, amountCents: number, currency: string): Promise<string>;
}

/** Cents → the provider's "12.34" decimal string. */
export function decimal(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** "12.34" → 1234. */
export function cents(value: string): number {
  const [units, decimals = ''] = value.split('.');
  return Number(units) * 100 + Number(decimals.padEnd(2, '0').slice(0, 2));
}
