import type { OrderDetail } from '@tempora/contracts';
import { formatStructured } from '@tempora/domain';
import { errors } from '../../../errors.ts';
import type { OnlineProvider } from '../providers/provider.ts';
import * as repo from '../repository.ts';
import { type PaymentsContext, providerCall } from './shared.ts';

/**
 * Orders as payers see and pay them (issue 18): the providers offered, an order's detail (lines,
 * refunds, where to transfer), and paying — by bank transfer (the structured communication) or
 * by a checkout opened at Mollie or Stripe.
 */
export function createOrders(ctx: PaymentsContext) {
  const { deps, database } = ctx;

  function providers() {
    return ['bank', ...(deps.mollie ? ['mollie'] : []), ...(deps.stripe ? ['stripe'] : [])] as (
      | 'bank'
      | 'mollie'
      | 'stripe'
    )[];
  }

  async function details(orders: repo.OrderRow[]): Promise<OrderDetail[]> {
    const ids = orders.map((o) => o.id);
    const lines = await repo.linesOf(database, ids);
    const refunds = await repo.refundsOf(database, ids);
    const invoices = await repo.invoicesOf(database, ids);
    const settings = new Map<string, repo.PaymentTerms | null>();
    for (const eventId of new Set(orders.map((o) => o.eventId))) {
      settings.set(eventId, await repo.paymentTerms(database, eventId));
    }
    return orders.map((o) => ({
      id: o.id,
      depositId: o.depositId,
      documentId: o.documentId,
      eventId: o.eventId,
      eventName: o.eventName,
      organisationName: o.organisationName,
      payerName: o.payerName || o.payerEmail,
      payerEmail: o.payerEmail,
      company: o.company,
      state: o.state,
      provider: o.provider,
      amountCents: o.amountCents,
      paidCents: o.paidCents,
      refundedCents: o.refundedCents,
      currency: o.currency,
      communication: formatStructured(o.structured),
      beneficiary: settings.get(o.eventId)?.beneficiary ?? '',
      iban: settings.get(o.eventId)?.iban ?? '',
      expiresAt: o.expiresAt,
      createdAt: o.createdAt,
      paidAt: o.paidAt,
      lines: lines.filter((l) => l.orderId === o.id).map(({ orderId: _o, ...l }) => l),
      refunds: refunds.filter((r) => r.orderId === o.id).map(({ iban: _i, ...r }) => r),
      invoice: invoices.get(o.id) ?? null,
    }));
  }

  function pay(order: repo.OrderRow, provider: 'bank' | 'mollie' | 'stripe', returnUrl: string | undefined) {
    return ctx.inPayTurn(order, () => payNow(order, provider, returnUrl));
  }

  async function payNow(
    order: repo.OrderRow,
    provider: 'bank' | 'mollie' | 'stripe',
    returnUrl: string | undefined,
  ) {
    if (order.state !== 'awaiting_payment')
      throw errors.conflict('ORDER_STATE', `The order is ${order.state}`);
    const settings = await repo.paymentTerms(database, order.eventId);
    const base = {
      communication: formatStructured(order.structured),
      iban: settings?.iban ?? '',
      beneficiary: settings?.beneficiary ?? '',
      amountCents: order.amountCents - order.paidCents,
      currency: order.currency,
    };
    if (provider === 'bank') {
      await database.query(`UPDATE orders SET provider = 'bank' WHERE id = $1::bigint`, [order.id]);
      return { provider, checkoutUrl: null, ...base };
    }
    const online: OnlineProvider | null = provider === 'mollie' ? deps.mollie : deps.stripe;
    if (!online) throw errors.conflict('PROVIDER_DISABLED', `${provider} is not configured on this server`);
    const publicUrl = deps.publicUrl?.replace(/\/+$/, '');
    const back =
      returnUrl ??
      (order.depositId
        ? `${publicUrl ?? ''}/#/deposit/${order.eventId}/${order.depositId}/paymentok`
        : `${publicUrl ?? ''}/`);
    const started = await providerCall(() =>
      online.start({
        orderId: order.id,
        amountCents: base.amountCents,
        currency: order.currency,
        description: `${order.eventName} — ${order.organisationName} #${order.id}`,
        returnUrl: back,
        webhookUrl: publicUrl ? `${publicUrl}/api/payments/webhooks/${provider}` : null,
      }),
    );
    await database.query(
      'UPDATE orders SET provider = $2, provider_payment_id = $3, provider_amount_cents = $4 WHERE id = $1::bigint',
      [order.id, provider, started.providerPaymentId, base.amountCents],
    );
    return { provider, checkoutUrl: started.checkoutUrl, ...base };
  }

  return { providers, details, pay };
}
