import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { depositCast, EVENT, TEN_K } from '../deposits/test-helpers.ts';

const STRIPE_SECRET = 'whsec_test_tempora';

const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures');

/**
 * A local stub of Mollie's API (a real HTTPS server in this test, standing in for
 * api.mollie.com/v2): creates payments and answers GET /v2/payments/{id} with the status the test
 * sets, counting the fetches. The Mollie SDK speaks only HTTPS and pins its own CA bundle (no
 * option to add one), so this test process accepts the stub's self-signed certificate by turning
 * TLS verification off while it runs (restored after).
 */
function startMollieStub() {
  const payments = new Map<string, { status: string; amount: string; orderId: string }>();
  let fetches = 0;
  const payment = (id: string) => {
    const p = payments.get(id)!;
    return {
      resource: 'payment',
      id,
      mode: 'test',
      status: p.status,
      amount: { value: p.amount, currency: 'EUR' },
      description: 'order',
      metadata: { orderId: p.orderId },
      createdAt: new Date().toISOString(),
      _links: {
        self: { href: `/v2/payments/${id}`, type: 'application/hal+json' },
        checkout: { href: `https://www.mollie.com/checkout/select-method/${id}`, type: 'text/html' },
      },
    };
  };
  const server = https.createServer(
    {
      key: fs.readFileSync(path.join(FIXTURES, 'mollie-stub-key.pem')),
      cert: fs.readFileSync(path.join(FIXTURES, 'mollie-stub-cert.pem')),
    },
    (req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        res.setHeader('content-type', 'application/hal+json');
        const match = /^\/v2\/payments\/?([^/?]*)/.exec(req.url ?? '');
        if (req.method === 'POST' && match && !match[1]) {
          const input = JSON.parse(body) as { amount: { value: string }; metadata: { orderId: string } };
          const id = `tr_stub${payments.size + 1}`;
          payments.set(id, { status: 'open', amount: input.amount.value, orderId: input.metadata.orderId });
          res.statusCode = 201;
          return res.end(JSON.stringify(payment(id)));
        }
        if (req.method === 'GET' && match?.[1]) {
          fetches++;
          if (!payments.has(match[1])) {
            res.statusCode = 404;
            return res.end(
              JSON.stringify({ status: 404, title: 'Not Found', detail: 'No payment exists with token' }),
            );
          }
          return res.end(JSON.stringify(payment(match[1])));
        }
        res.statusCode = 404;
        res.end('{}');
      });
    },
  );
  return {
    payments,
    fetches: () => fetches,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`https://127.0.0.1:${(server.address() as AddressInfo).port}/v2/`),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
