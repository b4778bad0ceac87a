import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DocumentDetail, OrderDetail } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { captureMails, createTestUser } from '../../../test/identity-helpers.ts';
import { sampleCoda } from '../payments/statements/samples.ts';
import { createSchoolEvent, DEMO_ORG } from './test-helpers.ts';

const OTHER_ORG = '00000000-0000-4000-8000-0000000000fd';
const HEAD = 'Prénom;Nom;Sexe;Naissance;Email;Course;Dossard';
const MAPPING = {
  firstName: 'Prénom',
  lastName: 'Nom',
  gender: 'Sexe',
  birthDate: 'Naissance',
  email: 'Email',
  race: 'Course',
  bib: 'Dossard',
};
const csv = (...lines: string[]) => Buffer.from([HEAD, ...lines].join('\n'));

function pdfText(pdf: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-')), 'i.pdf');
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

/**
 * Issue 29: a confirmed document's fees become an order of its sender, paid by bank transfer
 * through the same statement matching as deposits, refundable, with an invoice numbered in
 * sequence per organisation.
 */
describe('school fees become an order', () => {
  let app: FastifyInstance;
  let owner: string;
  let stranger: string;
  let ev: Awaited<ReturnType<typeof createSchoolEvent>>;
  const EVENT = 'fees-order';

  beforeAll(async () => {
    app = await buildTestApp();
    await app.database.query(`INSERT INTO organisations (id, slug, name) VALUES ($1, 'other-f', 'Other')`, [
      OTHER_ORG,
    ]);
    ev = await createSchoolEvent(app, EVENT);
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    stranger = (await createTestUser(app, { memberships: [{ organisationId: OTHER_ORG, role: 'owner' }] }))
      .authorization;
  });
  afterAll(() => app.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown, who = owner) =>
    app.inject({
      method,
      url,
      headers: {
        authorization: who,
        ...(Buffer.isBuffer(payload) ? { 'content-type': 'text/csv' } : {}),
      },
      ...(payload === undefined ? {} : { payload: payload as never }),
    });
  const ok = async <T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) => {
    const res = await call(method, url, payload);
    if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };

  async function confirmedDocument(title: string, ...lines: string[]) {
    const doc = await ok<DocumentDetail>('POST', '/api/confirmation/documents', {
      eventId: EVENT,
      title,
      senderName: `${title} school`,
      senderKind: 'school',
      contactName: 'Ms Teacher',
      contactEmail: 'teacher@school.test',
      defaultRaceId: ev.kids,
    });
    await ok('POST', `/api/confirmation/documents/${doc.id}/file?name=list.csv`, csv(...lines));
    await ok('PUT', `/api/confirmation/documents/${doc.id}/mapping`, { mapping: MAPPING });
    const done = await ok<{ document: DocumentDetail }>(
      'POST',
      `/api/confirmation/documents/${doc.id}/confirm`,
      {},
    );
    expect(done.document.status).toBe('confirmed');
    return doc;
  }

  it('confirming a document issues an order with the report fee, paid by a matched statement line, refundable', async () => {
    const badRate = await call('PATCH', `/api/console/organisations/${DEMO_ORG}`, {
      legal: { vatRate: 150 },
    });
    expect(badRate.statusCode).toBe(400);
    expect(badRate.headers['content-type']).toContain('application/problem+json');
    expect(badRate.body).toContain('legal.vatRate');
    const org = await ok<{ legal: { vatRate: number | null; name: string } }>(
      'PATCH',
      `/api/console/organisations/${DEMO_ORG}`,
      {
        legal: {
          name: 'Demo Running ASBL',
          address: 'Rue du Stade 1, 1000 Bruxelles',
          vatNumber: 'BE0123456789',
          vatRate: 21,
        },
      },
    );
    expect(org.legal).toMatchObject({ name: 'Demo Running ASBL', vatRate: 21 });
    await ok('PUT', `/api/confirmation/races/${ev.kids}/settings`, {
      bibFrom: null,
      bibTo: null,
      capacity: null,
      tariffs: [{ until: null, priceCents: 800 }],
    });
    await ok('PUT', `/api/payments/staff/events/${EVENT}/settings`, {
      open: false,
      entryDeadline: null,
      currency: 'EUR',
      fees: {},
      capacities: {},
      orderExpiryDays: 30,
      refundPolicy: { kind: 'none' },
      beneficiary: 'Demo Running',
      iban: 'BE68539007547034',
    });
    const mails = captureMails(app);
    const doc = await confirmedDocument('Primary', 'Ada;Fee;F;2015-01-01;;;', 'Bea;Fee;F;2016-01-01;;;');
    const report = await ok<{ totals: { feesCents: number } }>(
      'GET',
      `/api/confirmation/documents/${doc.id}/report`,
    );
    expect(report.totals.feesCents).toBe(1600);
    const order = await ok<{
      orderId: string;
      state: string;
      amountCents: number;
      communication: string;
      invoiceNumber: string;
    }>('GET', `/api/confirmation/documents/${doc.id}/order`);
    expect(order).toMatchObject({ state: 'awaiting_payment', amountCents: 1600, invoiceNumber: '000001' });
    expect(order.communication).toMatch(/^\+\+\+\d{3}\/\d{4}\/\d{5}\+\+\+$/);
    // The school's contact is told what to transfer, where, with which communication.
    const mail = mails.sent.findLast((m) => m.to === 'teacher@school.test');
    expect(mail?.text).toContain(`Invoice 000001: please transfer €16.00 to Demo Running BE68539007547034`);
    expect(mail?.text).toContain(`communication structurée ${order.communication}`);
    // Another organisation's owner sees neither the order nor its invoice.
    expect(
      (await call('GET', `/api/confirmation/documents/${doc.id}/order`, undefined, stranger)).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `/api/payments/orders/${order.orderId}/invoice.pdf`, undefined, stranger))
        .statusCode,
    ).toBe(404);

    const detail = await ok<OrderDetail>('GET', `/api/payments/orders/${order.orderId}`);
    expect(detail).toMatchObject({
      documentId: doc.id,
      depositId: null,
      organisationName: 'Primary school',
      payerEmail: 'teacher@school.test',
      amountCents: 1600,
    });

    // The confirmation account, which works on every document, downloads it too.
    const confirmer = (await createTestUser(app, { email: 'confirmation@tempora.local' })).authorization;
    expect(
      (await call('GET', `/api/payments/orders/${order.orderId}/invoice.pdf`, undefined, confirmer))
        .statusCode,
    ).toBe(200);
    const invoice = await call('GET', `/api/payments/orders/${order.orderId}/invoice.pdf`);
    expect(invoice.statusCode).toBe(200);
    expect(invoice.headers['content-type']).toBe('application/pdf');
    const text = pdfText(invoice.rawPayload);
    expect(text).toContain('Facture 000001');
    expect(text).toContain('Demo Running ASBL');
    expect(text).toContain('BE0123456789');
    expect(text).toContain('Primary school');
    expect(text).toMatch(/Total\s+16\.00 EUR/);
    // VAT included at 21 %: 16.00 = 13.22 net + 2.78 VAT.
    expect(text).toMatch(/HTVA\s+13\.22 EUR/);
    expect(text).toMatch(/TVA 21%\s+2\.78 EUR/);
    expect(text).toContain(order.communication);

    // The school's transfer, on the organiser's CODA statement, pays the order.
    const coda = sampleCoda([
      { amountCents: 1600, structured: order.communication.replace(/\D/g, ''), name: 'ECOLE PRIMAIRE' },
    ]);
    const imported = await app.inject({
      method: 'POST',
      url: `/api/payments/staff/events/${EVENT}/statements?format=coda`,
      headers: { authorization: owner, 'content-type': 'text/plain' },
      payload: coda,
    });
    expect(imported.statusCode).toBe(201);
    expect(imported.json()).toMatchObject({ matched: 1, manual: 0 });
    expect(await ok('GET', `/api/confirmation/documents/${doc.id}/order`)).toMatchObject({
      state: 'paid',
      paidCents: 1600,
    });
    const paidText = pdfText(
      (await call('GET', `/api/payments/orders/${order.orderId}/invoice.pdf`)).rawPayload,
    );
    expect(paidText).toMatch(/Payé: 16\.00 EUR/);

    // The deposits' refund flow refunds it (a pending bank refund, exported for the bank).
    const refund = await call('POST', `/api/payments/staff/events/${EVENT}/refunds`, {
      orderIds: [order.orderId],
      kind: 'full',
      method: 'bank',
      reason: 'school trip cancelled',
    });
    expect(refund.statusCode).toBe(201);
    const refunds = await call('GET', `/api/payments/staff/events/${EVENT}/refunds.csv`);
    expect(refunds.body).toContain('Primary school');
    expect(refunds.body).toContain('16.00');
    expect(await ok('GET', `/api/confirmation/documents/${doc.id}/order`)).toMatchObject({
      state: 'refunded',
    });
  });

  it('numbers invoices in sequence per organisation, once per document; nil fees issue no order', async () => {
    const second = await confirmedDocument('Second', 'Cid;Fee;M;2015-02-01;;;');
    const order = await ok<{ invoiceNumber: string; amountCents: number }>(
      'GET',
      `/api/confirmation/documents/${second.id}/order`,
    );
    // 000002 is the credit note of the first order's refund (issue 38: one sequence, no gap).
    const [note] = await app.database.query<{ number: number; invoiceNumber: number }>(
      'SELECT number, invoice_number AS "invoiceNumber" FROM credit_notes',
    );
    expect(note).toEqual({ number: 2, invoiceNumber: 1 });
    expect(order).toMatchObject({ invoiceNumber: '000003', amountCents: 800 });
    const [{ n }] = (await app.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM orders WHERE document_id = $1::uuid',
      [second.id],
    )) as [{ n: number }];
    expect(n).toBe(1);
    // An order never expires like a deposit's hold: it is a debt, even past its due date.
    await app.database.query(
      `UPDATE orders SET expires_at = now() - interval '1 day' WHERE document_id = $1::uuid`,
      [second.id],
    );
    await ok('POST', `/api/payments/staff/events/${EVENT}/expire`, {});
    expect(await ok('GET', `/api/confirmation/documents/${second.id}/order`)).toMatchObject({
      state: 'awaiting_payment',
    });

    await ok('PUT', `/api/confirmation/races/${ev.fiveK}/settings`, {
      bibFrom: null,
      bibTo: null,
      capacity: null,
      tariffs: [],
    });
    const free = await confirmedDocument('Free', 'Dan;Free;M;1980-02-01;;5 km;');
    const none = await call('GET', `/api/confirmation/documents/${free.id}/order`);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });
});
