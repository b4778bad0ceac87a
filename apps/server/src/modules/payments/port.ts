/**
 * The payments module's port (issue 30): the only file of `payments/` other server modules import
 * (Biome's `noRestrictedImports`, biome.json). Payments own orders, their lines, refunds, bank
 * lines and invoices; others create and read orders through these functions, and tell payments
 * what a paid order settles (`PaymentsDeps.settle`) instead of payments importing them.
 */
export { assignCreditNote, assignInvoice, documentOrder, orderForDocument } from './document-orders.ts';
export {
  freeStructured,
  freeStructuredMany,
  insertOrder,
  insertRegistrationOrders,
  linesOf,
  nextOrderId,
  nextOrderIds,
  type OrderRow,
  ordersWhere,
  paymentTerms,
} from './repository.ts';
export { paymentRoutes, paymentStaffRoutes, paymentWebhookRoutes } from './routes.ts';
export { createPaymentsService, type PaymentsDeps, type PaymentsService } from './service.ts';

/** The online providers configured by environment (Mollie, Stripe: off unless their keys are set). */
export async function paymentProviders(config: {
  MOLLIE_API_KEY?: string | undefined;
  MOLLIE_API_URL?: string | undefined;
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
}) {
  return {
    // The providers' SDKs load only when configured.
    mollie: config.MOLLIE_API_KEY
      ? (await import('./providers/mollie.ts')).createMollieProvider({
          apiKey: config.MOLLIE_API_KEY,
          apiUrl: config.MOLLIE_API_URL,
        })
      : null,
    stripe:
      config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
        ? (await import('./providers/stripe.ts')).createStripeProvider({
            secretKey: config.STRIPE_SECRET_KEY,
            webhookSecret: config.STRIPE_WEBHOOK_SECRET,
          })
        : null,
  };
}
