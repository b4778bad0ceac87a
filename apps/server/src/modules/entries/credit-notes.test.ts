import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { captureMails, createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { startMollieStub } from '../../../test/mollie-stub.ts';
import { ORG_A, organisers } from '../content/test-helpers.ts';
import { caller, EVENT, payWithMollie, registrationSettings, runner } from './test-helpers.ts';

function pdfText(pdf: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'credit-note-')), 'n.pdf');
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

const label = (n: number) => String(n).padStart(6, '0');

/**
 * Issue 38: a refund of an invoiced entries order gets a credit note (avoir) numbered in the
 * organisation's one sequence (shared with invoices, without gaps), referring to the invoice, as a
 * PDF in the runner's language linked from My entries.
 */
describe('credit notes of refunded entries orders', () => {
  const mollie = startMollieStub();
  let app: FastifyInstance;
  let mails: ReturnType<typeof captureMails>;
  let staff: { authorization: string };
  const runners: TestUser[] = [];
  const orders: string[] = [];
  const tlsBefore = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  const call = caller(() => app);
  const mine = async (who: TestUser) => JSON.parse((await call('GET', '/api/entries/mine', who)).body);
  const last = async () =>
    (
      await app.database.query<{ n: number }>(
        'SELECT coalesce(max(number), 0)::int AS n FROM (SELECT number FROM invoices WHERE organisation_id = $1::uuid UNION ALL SELECT number FROM credit_notes WHERE organisation_id = $1::uuid) x',
        [ORG_A],
      )
    )[0]!.n;

  beforeAll(async () => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const url = await mollie.listen();
    app = await buildTestApp({ MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz', MOLLIE_API_URL: url });
    mails = captureMails(app);
    staff = (await organisers(app)).a;
    for (let k = 0; k < 3; k++)
      runners.push(await createTestUser(app, { email: `runner${k}@example.test`, profileComplete: true }));
    const saved = await call(
      'PUT',
      `/api/entries/staff/events/${EVENT}/settings`,
      staff,
      registrationSettings({ places: 10, shirts: 10 }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(async () => {
    await app.close();
    await mollie.close();
    if (tlsBefore === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tlsBefore;
  });

  const enterAndPay = async (k: number, lang: 'en' | 'fr') => {
    const res = await call('POST', `/api/entries/events/${EVENT}/orders`, runners[k]!, {
      runners: [runner(k)],
      lang,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { orderId } = JSON.parse(res.body);
    await (await payWithMollie(app, mollie, runners[k]!.authorization, orderId)).deliver();
    orders[k] = orderId;
  };

  it('a cancelled entry’s refund gets the next number of the invoices’ sequence, referring to the invoice', async () => {
    const base = await last();
    await enterAndPay(0, 'fr');
    expect(await last()).toBe(base + 1);
    // No refund yet: no credit note.
    expect((await mine(runners[0]!))[0]).toMatchObject({ invoice: true, creditNotes: [] });
    const code = (await mine(runners[0]!))[0].code;
    const done = await call('POST', `/api/entries/entry/${code}/action`, runners[0]!, { action: 'cancel' });
    expect(done.statusCode, done.body).toBe(200);
    expect(JSON.parse(done.body)).toMatchObject({ refundCents: 2500 });
    expect((await mine(runners[0]!))[0]).toMatchObject({
      state: 'cancelled',
      creditNotes: [label(base + 2)],
    });
    // The next invoice follows it: one sequence, no gap.
    await enterAndPay(1, 'en');
    const [invoice] = await app.database.query<{ number: number }>(
      'SELECT number FROM invoices WHERE order_id = $1::bigint',
      [orders[1]],
    );
    expect(invoice!.number).toBe(base + 3);

    const pdf = await call(
      'GET',
      `/api/payments/orders/${orders[0]}/credit-notes/${label(base + 2)}`,
      runners[0]!,
    );
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain(`Avoir ${label(base + 2)}`);
    expect(text).toContain(`Se rapporte à la facture ${label(base + 1)}`);
    expect(text).toMatch(/Remboursement — Inscription annulée\s+25,00 €/);
    expect(text).toMatch(/Total\s+25,00 €/);
    expect(text).toContain('TVA non applicable');
    expect(text).not.toContain('Credit note');
    // The order's refunds name it; the organiser's staff read it too (their accounts).
    const detail = JSON.parse((await call('GET', `/api/payments/orders/${orders[0]}`, runners[0]!)).body);
    expect(detail.refunds).toMatchObject([{ amountCents: 2500, creditNote: label(base + 2) }]);
    expect(
      (await call('GET', `/api/payments/orders/${orders[0]}/credit-notes/${label(base + 2)}`, staff))
        .statusCode,
    ).toBe(200);
  });

  it('the confirmation e-mail links the invoice, in the runner’s language', async () => {
    const fr = mails.sent.find((m) => m.to === 'runner0@example.test' && /confirmée/.test(m.subject));
    expect(fr?.text).toMatch(
      new RegExp(`Votre facture \\(PDF\\) : http\\S+/#/entries/orders/${orders[0]}\\?invoice=1`),
    );
    const en = mails.sent.find((m) => m.to === 'runner1@example.test' && /confirmed/.test(m.subject));
    expect(en?.text).toMatch(
      new RegExp(`Your invoice \\(PDF\\): http\\S+/#/entries/orders/${orders[1]}\\?invoice=1`),
    );
    expect(en?.html).toContain(`/#/entries/orders/${orders[1]}?invoice=1`);
  });

  it('in English for an English runner; another runner may not read it; a wrong number is 404', async () => {
    const code = (await mine(runners[1]!))[0].code;
    await call('POST', `/api/entries/entry/${code}/action`, runners[1]!, { action: 'cancel' });
    const [note] = (await mine(runners[1]!))[0].creditNotes as string[];
    expect(note).toMatch(/^\d{6}$/);
    const text = pdfText(
      (await call('GET', `/api/payments/orders/${orders[1]}/credit-notes/${note}`, runners[1]!)).rawPayload,
    );
    expect(text).toContain(`Credit note ${note}`);
    expect(text).toMatch(/Refund — Entry cancelled\s+€25.00/);
    expect(text).toContain('Refers to invoice');
    expect(
      (await call('GET', `/api/payments/orders/${orders[1]}/credit-notes/${note}`, runners[2]!)).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `/api/payments/orders/${orders[0]}/credit-notes/${note}`, runners[0]!)).statusCode,
    ).toBe(404);
  });

  it('the accountant’s export lists each credit note, negative, referring to its invoice (CSV and XLSX)', async () => {
    const [invoice] = await app.database.query<{ number: number }>(
      'SELECT number FROM invoices WHERE order_id = $1::bigint',
      [orders[0]],
    );
    const [note] = await app.database.query<{ number: number }>(
      'SELECT number FROM credit_notes WHERE order_id = $1::bigint',
      [orders[0]],
    );
    // The organiser's order list names the invoice beside each refund's credit note.
    const listed = JSON.parse((await call('GET', `/api/payments/staff/events/${EVENT}/orders`, staff)).body);
    expect(listed.find((o: { id: string }) => o.id === orders[0])).toMatchObject({
      invoice: label(invoice!.number),
      refunds: [{ creditNote: label(note!.number) }],
    });
    const csv = await call('GET', `/api/payments/staff/events/${EVENT}/export.csv?lng=fr`, staff);
    expect(csv.statusCode, csv.body).toBe(200);
    const [header, ...lines] = csv.body
      .trim()
      .split('\r\n')
      .map((l) => l.split(';'));
    const col = (name: string) => header!.indexOf(name);
    expect(col('document')).toBeGreaterThan(0);
    const ofOrder = lines.filter((l) => l[0] === orders[0]);
    expect(
      ofOrder.map((l) => [l[col('document')], l[col('number')], l[col('invoice')], l[col('amount')]]),
    ).toEqual([
      ['invoice', label(invoice!.number), '', '"25,00"'],
      ['credit_note', label(note!.number), label(invoice!.number), '"-25,00"'],
    ]);
    const xlsx = await call('GET', `/api/payments/staff/events/${EVENT}/export.xlsx`, staff);
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as never);
    const sheet = book.worksheets[0]!;
    const names = (sheet.getRow(1).values as unknown[]).slice(1);
    const rows: unknown[][] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) rows.push((row.values as unknown[]).slice(1));
    });
    const credit = rows.find((r) => r[names.indexOf('document')] === 'credit_note' && r[0] === orders[0]);
    expect(credit?.[names.indexOf('amount')]).toBe(-25);
    expect(credit?.[names.indexOf('invoice')]).toBe(label(invoice!.number));
    expect(credit?.[names.indexOf('created')]).toBeInstanceOf(Date);
  });
});
