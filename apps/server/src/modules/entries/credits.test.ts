import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { startMollieStub } from '../../../test/mollie-stub.ts';
import { ORG_A, organisers } from '../content/test-helpers.ts';
import { assignInvoice, freeStructured, insertOrder, nextOrderId } from '../payments/port.ts';
import { caller, deferralSettings, EVENT, payWithMollie, runner, TEN_K } from './test-helpers.ts';
import { createNextEdition } from './test-next-edition.ts';

const NEXT = 'demo-city-run-2027';
const NEXT_10K = 'city-10k-2027';
const NEXT_MARATHON = 'city-marathon-2027';

function pdfText(pdf: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'entry-invoice-')), 'i.pdf');
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

/**
 * Issue 38, what online entries still lacked: a deferral carried over to the next edition (a
 * credit, a code only its runner can use once the next edition opens, paying the difference or
 * nothing) and the numbered invoice of an entries order (a sequence per organisation without gaps,
 * the organiser, the buyer, the lines, VAT or "not applicable", the runner's language).
 */
describe('deferral to the next edition, and the entries invoice', () => {
  const mollie = startMollieStub();
  let app: FastifyInstance;
  let staff: { authorization: string };
  const runners: TestUser[] = [];
  const tlsBefore = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

  /** The demo event's settings with deferral allowed until 2099 for a fee of 5 €. */
  const settings = deferralSettings;
  /** The next edition: a 10 km at 20 € and a marathon at 50 €, with a T-shirt at 10 €. */
  const nextSettings = (opensAt: string) => ({
    holdMinutes: 15,
    currency: 'EUR',
    races: [
      {
        raceId: NEXT_10K,
        opensAt,
        closesAt: '2099-12-31T00:00:00.000Z',
        capacity: 100,
        prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 2000 }] },
        required: [],
      },
      {
        raceId: NEXT_MARATHON,
        opensAt,
        closesAt: '2099-12-31T00:00:00.000Z',
        capacity: 100,
        prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 5000 }] },
        required: [],
      },
    ],
    addOns: [{ key: 'tshirt', name: 'T-shirt', priceCents: 1000, capacity: 10 }],
  });
  const call = caller(() => app);
  const mine = async (who: TestUser) => JSON.parse((await call('GET', '/api/entries/mine', who)).body);

  beforeAll(async () => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const url = await mollie.listen();
    app = await buildTestApp({ MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz', MOLLIE_API_URL: url });
    staff = (await organisers(app)).a;
    for (let k = 0; k < 3; k++)
      runners.push(await createTestUser(app, { email: `runner${k}@example.test`, profileComplete: true }));
    await createNextEdition(app.database, {
      id: NEXT,
      organisationId: ORG_A,
      name: 'City Run 2027',
      date: '2027-05-02',
      races: [
        [NEXT_10K, '10 km', 10_000],
        [NEXT_MARATHON, 'Marathon', 42_195],
      ],
    });
    const saved = await call('PUT', `/api/entries/staff/events/${EVENT}/settings`, staff, settings());
    expect(saved.statusCode, saved.body).toBe(200);
    // The next edition's registration is set up but not open yet.
    const next = await call(
      'PUT',
      `/api/entries/staff/events/${NEXT}/settings`,
      staff,
      nextSettings('2099-01-01T00:00:00.000Z'),
    );
    expect(next.statusCode, next.body).toBe(200);
  });
  afterAll(async () => {
    await app.close();
    await mollie.close();
    if (tlsBefore === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tlsBefore;
  });

  const invoicesBefore = async () =>
    (
      await app.database.query<{ n: number }>(
        'SELECT coalesce(max(number), 0)::int AS n FROM invoices WHERE organisation_id = $1::uuid',
        [ORG_A],
      )
    )[0]!.n;
  const orders: string[] = [];
  let firstNumber = 0;

  it('runners enter and pay; each paid order gets the next invoice number, in the runner’s language', async () => {
    firstNumber = (await invoicesBefore()) + 1;
    // Runner 0 (French): the 10 km (25 €) and a T-shirt (15 €) = 40 €; runner 1: the 10 km, 25 €.
    for (const [k, extra, lang] of [
      [0, { addOns: [{ key: 'tshirt-m', quantity: 1 }] }, 'fr'],
      [1, {}, 'en'],
    ] as const) {
      const res = await call('POST', `/api/entries/events/${EVENT}/orders`, runners[k]!, {
        runners: [runner(k, extra)],
        lang,
      });
      expect(res.statusCode, res.body).toBe(201);
      const order = JSON.parse(res.body);
      // Not paid yet: no invoice.
      expect(
        (await call('GET', `/api/payments/orders/${order.orderId}/invoice.pdf`, runners[k]!)).statusCode,
      ).toBe(404);
      const { deliver } = await payWithMollie(app, mollie, runners[k]!.authorization, order.orderId);
      // The webhook twice: one number.
      await deliver();
      await deliver();
      orders.push(order.orderId);
    }
    const numbers = await app.database.query<{ number: number; orderId: string }>(
      'SELECT number, order_id::text AS "orderId" FROM invoices WHERE order_id = ANY($1::bigint[]) ORDER BY number',
      [orders],
    );
    expect(numbers).toEqual([
      { number: firstNumber, orderId: orders[0] },
      { number: firstNumber + 1, orderId: orders[1] },
    ]);
    const fr = await call('GET', `/api/payments/orders/${orders[0]}/invoice.pdf`, runners[0]!);
    expect(fr.statusCode).toBe(200);
    expect(fr.headers['content-type']).toBe('application/pdf');
    const text = pdfText(fr.rawPayload);
    const label = String(firstNumber).padStart(6, '0');
    expect(text).toContain(`Facture ${label}`);
    expect(text).toContain('Facturé à');
    expect(text).toMatch(/Inscription — 10 km — Runner0 Test\s+25,00 €/);
    expect(text).toMatch(/Option — T-shirt M × 1\s+15,00 €/);
    expect(text).toMatch(/Total\s+40,00 €/);
    expect(text).toContain('TVA non applicable');
    expect(text).not.toContain('Invoice');
    // Another runner may not read it (nor learn that it exists).
    expect((await call('GET', `/api/payments/orders/${orders[0]}/invoice.pdf`, runners[2]!)).statusCode).toBe(
      404,
    );
    // My entries links it.
    expect((await mine(runners[0]!))[0]).toMatchObject({ invoice: true, receipt: true });
  });

  it('with the organiser’s VAT rate and address, the invoice splits the VAT (English runner)', async () => {
    const patched = await app.inject({
      method: 'PATCH',
      url: `/api/console/organisations/${ORG_A}`,
      headers: staff,
      payload: { legal: { name: 'City Run ASBL', address: 'Rue du Parc 2, 1000 Bruxelles', vatRate: 21 } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const text = pdfText(
      (await call('GET', `/api/payments/orders/${orders[1]}/invoice.pdf`, runners[1]!)).rawPayload,
    );
    expect(text).toContain(`Invoice ${String(firstNumber + 1).padStart(6, '0')}`);
    expect(text).toContain('City Run ASBL');
    expect(text).toContain('Rue du Parc 2, 1000 Bruxelles');
    expect(text).toMatch(/Entry — 10 km — Runner1 Test\s+€25.00/);
    expect(text).toMatch(/Net\s+€20.66/);
    expect(text).toMatch(/VAT 21%\s+€4.34/);
    expect(text).toMatch(/Total\s+€25.00/);
    expect(text).not.toContain('VAT not applicable');
  });

  it('invoice numbers taken at once never repeat nor skip; a rolled-back one is given again', async () => {
    const base = await invoicesBefore();
    const ids: string[] = [];
    for (let k = 0; k < 6; k++) {
      await app.database.transaction(async (sql) => {
        const id = await nextOrderId(sql);
        await insertOrder(sql, {
          id,
          depositId: null,
          registration: true,
          eventId: EVENT,
          payerSub: runners[2]!.sub,
          company: false,
          state: 'paid',
          amountCents: 100,
          currency: 'EUR',
          structured: await freeStructured(sql),
          expiresAt: new Date(),
          lines: [],
        });
        ids.push(id);
      });
    }
    // One numbered then rolled back: its number is not lost.
    await app.database
      .transaction(async (sql) => {
        await assignInvoice(sql, ids[0]!);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const numbers = await Promise.all(
      ids.map((id) => app.database.transaction((sql) => assignInvoice(sql, id))),
    );
    expect([...numbers].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6].map((n) => base + n));
    // Asked again: the same number.
    expect(await app.database.transaction((sql) => assignInvoice(sql, ids[3]!))).toBe(numbers[3]);
  });

  let credit0 = '';
  it('a runner defers: the quote shows the credit (paid less the fee); the entry becomes a credit', async () => {
    const code = (await mine(runners[0]!))[0].code as string;
    const quote = JSON.parse(
      (await call('POST', `/api/entries/entry/${code}/quote`, runners[0]!, { action: 'defer' })).body,
    );
    expect(quote).toMatchObject({ allowed: true, payCents: 0, creditCents: 3500 });
    const done = await call('POST', `/api/entries/entry/${code}/action`, runners[0]!, { action: 'defer' });
    expect(done.statusCode, done.body).toBe(200);
    expect(JSON.parse(done.body)).toMatchObject({
      payCents: 0,
      orderId: null,
      entry: { state: 'deferred', credit: { cents: 3500, code: null, nextEventId: null } },
    });
    const code1 = (await mine(runners[1]!))[0].code as string;
    await call('POST', `/api/entries/entry/${code1}/action`, runners[1]!, { action: 'defer' });
    expect((await mine(runners[1]!))[0].credit).toMatchObject({ cents: 2000, code: null });
    // The place is free again.
    const [race] = await app.database.query<{ taken: number }>(
      'SELECT taken FROM registration_races WHERE race_id = $1',
      [TEN_K],
    );
    expect(race!.taken).toBe(0);
    credit0 = code;
  });

  it('the organiser names the next edition (another of its events): each credit gets its code there', async () => {
    const before = await app.database.query('SELECT count(*)::int AS n FROM registration_codes');
    const bad = await call(
      'PUT',
      `/api/entries/staff/events/${EVENT}/settings`,
      staff,
      settings({ nextEventId: EVENT }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(bad.body).errors).toContainEqual({ field: 'nextEventId', message: 'EVENT_NOT_FOUND' });
    const unknown = await call(
      'PUT',
      `/api/entries/staff/events/${EVENT}/settings`,
      staff,
      settings({ nextEventId: 'boston' }),
    );
    expect(unknown.statusCode).toBe(400);
    expect(await app.database.query('SELECT count(*)::int AS n FROM registration_codes')).toEqual(before);
    const saved = await call(
      'PUT',
      `/api/entries/staff/events/${EVENT}/settings`,
      staff,
      settings({ nextEventId: NEXT }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const view = JSON.parse(saved.body);
    expect(view).toMatchObject({ nextEventId: NEXT, credits: { deferred: 2, issued: 2 } });
    expect(view.editions.map((e: { eventId: string }) => e.eventId)).toContain(NEXT);
    const [entry] = await mine(runners[0]!);
    expect(entry.code).toBe(credit0);
    expect(entry.credit).toMatchObject({
      cents: 3500,
      nextEventId: NEXT,
      nextEventName: 'City Run 2027',
      used: false,
    });
    expect(entry.credit.code).toMatch(/^CR[0-9A-Z]{20}$/);
    // The next edition's organiser does not see (nor remove) the credits' codes.
    const nextView = JSON.parse(
      (await call('GET', `/api/entries/staff/events/${NEXT}/settings`, staff)).body,
    );
    expect(nextView.codes).toEqual([]);
    await call(
      'PUT',
      `/api/entries/staff/events/${NEXT}/settings`,
      staff,
      nextSettings('2099-01-01T00:00:00.000Z'),
    );
    expect((await mine(runners[0]!))[0].credit.code).toBe(entry.credit.code);
  });

  it('once the next edition opens, the runner enters with the credit: paying the difference, or nothing', async () => {
    const code0 = (await mine(runners[0]!))[0].credit.code as string;
    const code1 = (await mine(runners[1]!))[0].credit.code as string;
    const enterNext = (who: TestUser, k: number, extra: Record<string, unknown>) =>
      call('POST', `/api/entries/events/${NEXT}/orders`, who, {
        runners: [{ ...runner(k), raceId: NEXT_10K, answers: {}, waiverVersion: null, ...extra }],
      });
    // Not open yet.
    const closed = await enterNext(runners[0]!, 0, { discountCode: code0 });
    expect(closed.statusCode).toBe(400);
    expect(JSON.parse(closed.body).errors).toContainEqual({
      field: 'runners.0.raceId',
      message: 'RACE_CLOSED',
    });
    await call(
      'PUT',
      `/api/entries/staff/events/${NEXT}/settings`,
      staff,
      nextSettings('2020-01-01T00:00:00.000Z'),
    );
    // The entry step reads an event's rules at most once a second (enter.ts): past that, it is open.
    await new Promise((r) => setTimeout(r, 1100));
    // Someone else's credit is refused as unknown, and changes nothing.
    const stolen = await enterNext(runners[2]!, 2, { discountCode: code0 });
    expect(stolen.statusCode).toBe(400);
    expect(JSON.parse(stolen.body).errors).toContainEqual({
      field: 'runners.0.discountCode',
      message: 'CODE_INVALID',
    });
    // Runner 0: a credit of 35 € on the marathon (50 €) and a T-shirt (10 €): pays 25 €.
    const paying = await enterNext(runners[0]!, 0, {
      raceId: NEXT_MARATHON,
      discountCode: code0,
      addOns: [{ key: 'tshirt', quantity: 1 }],
    });
    expect(paying.statusCode, paying.body).toBe(201);
    const order = JSON.parse(paying.body);
    expect(order).toMatchObject({ amountCents: 2500, state: 'awaiting_payment' });
    expect(order.entries[0]).toMatchObject({
      entryCents: 5000,
      addOnsCents: 1000,
      discountCents: 3500,
      totalCents: 2500,
    });
    const { deliver } = await payWithMollie(app, mollie, runners[0]!.authorization, order.orderId);
    await deliver();
    const after = await mine(runners[0]!);
    expect(after.find((e: { eventId: string }) => e.eventId === NEXT)).toMatchObject({
      state: 'confirmed',
      raceId: NEXT_MARATHON,
      totalCents: 2500,
    });
    expect(after.find((e: { eventId: string }) => e.eventId === EVENT).credit.used).toBe(true);
    // Used once: not again.
    const again = await enterNext(runners[0]!, 0, { discountCode: code0 });
    expect(again.statusCode).toBe(409);
    expect(JSON.parse(again.body).code).toBe('CODE_USED_UP');
    // Runner 1: a credit of 20 € on the 10 km at 20 €: nothing to pay, confirmed at once.
    const free = await enterNext(runners[1]!, 1, { discountCode: code1 });
    expect(free.statusCode, free.body).toBe(201);
    expect(JSON.parse(free.body)).toMatchObject({
      amountCents: 0,
      state: 'paid',
      entries: [{ state: 'confirmed' }],
    });
  });

  it('a runner who deletes their account leaves no e-mail on a credit nor its code, and the code is used up', async () => {
    const who = runners[2]!;
    const res = await call('POST', `/api/entries/events/${EVENT}/orders`, who, { runners: [runner(2)] });
    expect(res.statusCode, res.body).toBe(201);
    const { deliver } = await payWithMollie(app, mollie, who.authorization, JSON.parse(res.body).orderId);
    await deliver();
    const code = (await mine(who))[0].code as string;
    const deferred = await call('POST', `/api/entries/entry/${code}/action`, who, { action: 'defer' });
    expect(deferred.statusCode, deferred.body).toBe(200);
    const credit = (await mine(who))[0].credit;
    expect(credit.code).toMatch(/^CR/);
    const trace = () =>
      app.database.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM registration_credits WHERE lower(email) = 'runner2@example.test')
              + (SELECT count(*) FROM registration_codes WHERE lower(owner_email) = 'runner2@example.test')
              AS n`,
      );
    expect((await trace())[0]!.n).toBe(2);
    // Its place kept in the next edition's 10 km (credit-places.test.ts) goes back with the account.
    const held = async () =>
      (
        await app.database.query<{ held: number }>('SELECT held FROM registration_races WHERE race_id = $1', [
          NEXT_10K,
        ])
      )[0]!.held;
    expect(credit.place).toMatchObject({ raceId: NEXT_10K, state: 'reserved' });
    const before = await held();
    const erased = await call('POST', '/api/me/erasure', who, { confirmEmail: 'runner2@example.test' });
    expect(erased.statusCode, erased.body).toBeLessThan(300);
    expect((await trace())[0]!.n).toBe(0);
    expect(await held()).toBe(before - 1);
    const [left] = await app.database.query<{ cents: number; usable: boolean }>(
      `SELECT c.cents, (k.capacity IS NULL OR k.taken + k.held < k.capacity) AS usable
         FROM registration_credits c JOIN registration_codes k ON k.id = c.code_id
        WHERE upper(k.code) = upper($1)`,
      [credit.code],
    );
    expect(left).toEqual({ cents: credit.cents, usable: false });
  });
});
