import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');

/**
 * A local stub of Mollie's API (a real HTTPS server in this test, standing in for
 * api.mollie.com/v2): creates payments and answers GET /v2/payments/{id} with the status the test
 * sets, counting the fetches. The Mollie SDK speaks only HTTPS and pins its own CA bundle (no
 * option to add one), so this test process accepts the stub's self-signed certificate by turning
 * TLS verification off while it runs (restored after).
 */
export function startMollieStub() {
  const payments = new Map<string, { status: string; amount: string; orderId: string }>();
  let fetches = 0;
  /** Refunds asked of the stub (issue 38: a late payment refunded, a cancellation). */
  const refunds: { id: string; paymentId: string; amount: string }[] = [];
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
        const refund = /^\/v2\/payments\/([^/?]+)\/refunds/.exec(req.url ?? '');
        if (req.method === 'POST' && refund?.[1]) {
          const input = JSON.parse(body) as { amount: { value: string; currency: string } };
          const id = `re_stub${refunds.length + 1}`;
          refunds.push({ id, paymentId: refund[1], amount: input.amount.value });
          res.statusCode = 201;
          return res.end(
            JSON.stringify({
              resource: 'refund',
              id,
              amount: input.amount,
              status: 'pending',
              paymentId: refund[1],
              createdAt: new Date().toISOString(),
              _links: {
                self: { href: `/v2/payments/${refund[1]}/refunds/${id}`, type: 'application/hal+json' },
              },
            }),
          );
        }
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
    refunds,
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
