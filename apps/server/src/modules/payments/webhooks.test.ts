import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { startMollieStub } from '../../../test/mollie-stub.ts';
import { depositCast, EVENT, TEN_K } from '../deposits/test-helpers.ts';

const STRIPE_SECRET = 'whsec_test_tempora';

describe('payment provider webhooks', () => {
  const mollie = startMollieStub();
  let app: FastifyInstance;
  let cast: Awaited<ReturnType<typeof depositCast>>;

  const tlsBefore = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  beforeAll(async () => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const url = await mollie.listen();
    app = await buildTestApp({
      MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz',
      MOLLIE_API_URL: url,
      STRIPE_SECRET_KEY: 'sk_test_tempora',
      STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
    });
    cast = await depositCast(app);
  });
  afterAll(async () => {
    await app.close();
    await mollie.close();
    if (tlsBefore === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tlsBefore;
  });

  /** A submitted deposit of one 10 km entry paid by its captain: its order. */
  async function order() {
    const h = { authorization: cast.captain.authorization };
    const d = JSON.parse(
      (
        await app.inject({
          method: 'POST',
          url: '/api/deposits',
          headers: h,
          payload: { eventId: EVENT, organisationName: 'Club', type: 'club' },
        })
      ).body,
    );
    await app.inject({
      method: 'POST',
      url: `/api/deposits/${d.id}/entries`,
      headers: h,
      payload: { raceId: TEN_K, placeholder: true },
    });
    const submitted = JSON.parse(
      (await app.inject({ method: 'POST', url: `/api/deposits/${d.id}/submit`, headers: h })).body,
    );
    return { depositId: d.id as string, orderId: submitted.orders[0].id as string };
  }

  const orderState = async (id: string) =>
    (
      await app.database.query<{ state: string; paid: number }>(
        'SELECT state, paid_cents AS paid FROM orders WHERE id = $1::bigint',
        [id],
      )
    )[0]!;

  it('lists the configured providers', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/payments/providers' });
    expect(JSON.parse(res.body).providers).toEqual(['bank', 'mollie', 'stripe']);
  });

  it('Mollie: the webhook fetches the status from Mollie, and a repeat changes nothing', async () => {
    const { orderId } = await order();
    const pay = await app.inject({
      method: 'POST',
      url: `/api/payments/orders/${orderId}/pay`,
      headers: { authorization: cast.captain.authorization },
      payload: { provider: 'mollie', returnUrl: 'http://localhost:8080/#/deposit/x/1/paymentok' },
    });
    expect(pay.statusCode).toBe(200);
    const { checkoutUrl } = JSON.parse(pay.body);
    expect(checkoutUrl).toMatch(/^https:\/\/www\.mollie\.com\/checkout/);
    const id = [...mollie.payments.keys()].pop()!;
    const hook = () =>
      app.inject({
        method: 'POST',
        url: '/api/payments/webhooks/mollie',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `id=${id}`,
      });
    // Still open at Mollie: the notification alone proves nothing.
    expect(JSON.parse((await hook()).body)).toEqual({ recorded: false });
    expect((await orderState(orderId)).state).toBe('awaiting_payment');
    mollie.payments.get(id)!.status = 'paid';
    const before = mollie.fetches();
    expect(JSON.parse((await hook()).body)).toEqual({ recorded: true });
    expect(JSON.parse((await hook()).body)).toEqual({ recorded: false });
    expect(mollie.fetches() - before).toBe(2);
    expect(await orderState(orderId)).toEqual({ state: 'paid', paid: 2500 });
    const rows = await app.database.query(
      'SELECT 1 FROM payments WHERE provider = $1 AND provider_ref = $2',
      ['mollie', id],
    );
    expect(rows).toHaveLength(1);
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/mollie',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'id=tr_unknown',
    });
    expect(JSON.parse(unknown.body)).toEqual({ recorded: false });
    const bad = await app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/mollie',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'id=DROP TABLE',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('Stripe: events are verified with the SDK; a bad signature is refused; a repeat changes nothing', async () => {
    const { orderId, depositId } = await order();
    // What `pay` stores when it opens a Checkout session (Stripe's API is not reachable here).
    await app.database.query(
      `UPDATE orders SET provider = 'stripe', provider_payment_id = $2, provider_amount_cents = 2500 WHERE id = $1::bigint`,
      [orderId, `cs_test_${orderId}`],
    );
    const stripe = new Stripe('sk_test_tempora');
    const event = (id: string, paid: boolean, session = `cs_test_${orderId}`, amount = 2500) =>
      JSON.stringify({
        id,
        object: 'event',
        type: 'checkout.session.completed',
        data: {
          object: {
            id: session,
            object: 'checkout.session',
            payment_status: paid ? 'paid' : 'unpaid',
            amount_total: amount,
            metadata: { orderId },
            client_reference_id: orderId,
          },
        },
      });
    const post = (payload: string, signature: string) =>
      app.inject({
        method: 'POST',
        url: '/api/payments/webhooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
    const payload = event('evt_1', true);
    const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' });
    const refused = await post(payload, forged);
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).code).toBe('SIGNATURE_INVALID');
    const signedOther = stripe.webhooks.generateTestHeaderString({
      payload: event('evt_0', true),
      secret: STRIPE_SECRET,
    });
    expect((await post(payload, signedOther)).statusCode).toBe(400); // tampered body
    expect((await orderState(orderId)).state).toBe('awaiting_payment');
    const unpaid = event('evt_u', false);
    expect(
      JSON.parse(
        (
          await post(
            unpaid,
            stripe.webhooks.generateTestHeaderString({ payload: unpaid, secret: STRIPE_SECRET }),
          )
        ).body,
      ),
    ).toEqual({ recorded: false });
    // Issue 29: validly signed, paid, naming this order — but a session Tempora never opened for
    // it, or another amount: no payment.
    for (const foreign of [
      event('evt_f1', true, 'cs_test_someone_else'),
      event('evt_f2', true, undefined, 100),
    ]) {
      const signed = stripe.webhooks.generateTestHeaderString({ payload: foreign, secret: STRIPE_SECRET });
      expect(JSON.parse((await post(foreign, signed)).body)).toEqual({ recorded: false });
    }
    expect((await orderState(orderId)).state).toBe('awaiting_payment');
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET });
    expect(JSON.parse((await post(payload, header)).body)).toEqual({ recorded: true });
    expect(JSON.parse((await post(payload, header)).body)).toEqual({ recorded: false });
    // The same payment announced by another event id is still one payment.
    const again = event('evt_2', true);
    expect(
      JSON.parse(
        (
          await post(
            again,
            stripe.webhooks.generateTestHeaderString({ payload: again, secret: STRIPE_SECRET }),
          )
        ).body,
      ),
    ).toEqual({ recorded: false });
    expect(await orderState(orderId)).toEqual({ state: 'paid', paid: 2500 });
    const [deposit] = await app.database.query<{ state: string }>(
      'SELECT state FROM deposits WHERE id = $1::bigint',
      [depositId],
    );
    expect(deposit!.state).toBe('paid'); // a placeholder remains to be filled
  });
});
