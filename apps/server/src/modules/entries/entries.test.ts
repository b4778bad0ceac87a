import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { captureMails, createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { startMollieStub } from '../../../test/mollie-stub.ts';
import { organisers } from '../content/test-helpers.ts';
import {
  deliver,
  EVENT,
  MARATHON,
  payWithMollie,
  registrationSettings,
  runner,
  TEN_K,
} from './test-helpers.ts';

/**
 * Online entries through the API (issue 38): the organiser's settings, runners entering (a code,
 * a T-shirt that sells out, the race filling, a waitlist), payments through Mollie's local stub
 * (webhooks twice, late), a cancellation refunded by the policy, the waitlisted runner invited and
 * entering, a move paid by its difference, and the entries as participants and in the export.
 */
describe('online entries', () => {
  const mollie = startMollieStub();
  let app: FastifyInstance;
  let staff: { authorization: string };
  let other: { authorization: string };
  let mails: ReturnType<typeof captureMails>;
  const runners: TestUser[] = [];
  const tlsBefore = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

  beforeAll(async () => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const url = await mollie.listen();
    app = await buildTestApp({ MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz', MOLLIE_API_URL: url });
    mails = captureMails(app);
    const orgs = await organisers(app);
    staff = orgs.a;
    other = orgs.b;
    for (let k = 0; k < 6; k++)
      runners.push(await createTestUser(app, { email: `runner${k}@example.test`, profileComplete: true }));
  });
  afterAll(async () => {
    await app.close();
    await mollie.close();
    if (tlsBefore === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tlsBefore;
  });

  const enter = (who: TestUser, payload: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: `/api/entries/events/${EVENT}/orders`,
      headers: { authorization: who.authorization },
      payload,
    });
  const counts = async () =>
    (
      await app.database.query<{ taken: number; held: number }>(
        `SELECT (SELECT taken FROM registration_races WHERE race_id = $1) AS taken, (SELECT held FROM registration_races WHERE race_id = $1) AS held`,
        [TEN_K],
      )
    )[0]!;
  const tableCounts = async () =>
    (
      await app.database.query<{ entries: number; orders: number; participants: number }>(
        `SELECT (SELECT count(*) FROM registration_entries)::int AS entries, (SELECT count(*) FROM orders)::int AS orders,
                (SELECT count(*) FROM participants WHERE deleted_at IS NULL)::int AS participants`,
      )
    )[0]!;

  it('the organiser sets registration up; another organisation may not', async () => {
    const refused = await app.inject({
      method: 'PUT',
      url: `/api/entries/staff/events/${EVENT}/settings`,
      headers: other,
      payload: registrationSettings(),
    });
    expect(refused.statusCode).toBe(403);
    const bad = await app.inject({
      method: 'PUT',
      url: `/api/entries/staff/events/${EVENT}/settings`,
      headers: staff,
      payload: {
        ...registrationSettings(),
        races: [{ ...registrationSettings().races[0], raceId: 'boston-2017' }],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body).errors[0]).toEqual({ field: 'races.0.raceId', message: 'RACE_NOT_FOUND' });
    const res = await app.inject({
      method: 'PUT',
      url: `/api/entries/staff/events/${EVENT}/settings`,
      headers: staff,
      payload: registrationSettings(),
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).waiverVersion).toBe(1);
    const page = JSON.parse((await app.inject({ method: 'GET', url: `/api/entries/events/${EVENT}` })).body);
    const tenK = page.races.find((r: { raceId: string }) => r.raceId === TEN_K);
    expect(tenK).toMatchObject({
      open: true,
      priceCents: 2500,
      next: { cents: 3500, from: '2099-01-01T00:00:00.000Z' },
      placesLeft: 3,
      waitlist: false,
    });
    expect(page.addOns).toEqual([{ key: 'tshirt-m', name: 'T-shirt M', priceCents: 1500, left: 1 }]);
    expect(page.waiver).toEqual({ version: 1, body: 'I run at my own risk.' });
  });

  it('bad input is refused on its field and changes nothing', async () => {
    const before = await tableCounts();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ waiverVersion: null }, 'runners.0.waiver', 'WAIVER_NOT_ACCEPTED'],
      [{ birthDate: '2020-01-01' }, 'runners.0.birthDate', 'AGE_TOO_LOW'],
      [{ discountCode: 'NOPE' }, 'runners.0.discountCode', 'CODE_INVALID'],
      [{ answers: {} }, 'runners.0.answers.size-club', 'REQUIRED'],
      [{ raceId: 'boston-2017' }, 'runners.0.raceId', 'RACE_NOT_FOUND'],
    ];
    for (const [change, field, code] of cases) {
      const res = await enter(runners[0]!, { runners: [runner(0, change)] });
      expect(res.statusCode, code).toBe(400);
      const body = JSON.parse(res.body);
      expect(body.code).toBe(code);
      expect(body.errors).toContainEqual({ field, message: code });
    }
    expect(await tableCounts()).toEqual(before);
    expect(await counts()).toEqual({ taken: 0, held: 0 });
  });

  it('a runner enters with the code and the T-shirt, pays by Mollie; the webhook twice counts once', async () => {
    const res = await enter(runners[0]!, {
      runners: [runner(0, { discountCode: 'early20', addOns: [{ key: 'tshirt-m', quantity: 1 }] })],
      lang: 'fr',
    });
    expect(res.statusCode).toBe(201);
    const order = JSON.parse(res.body);
    // 25 € − 20 % + 15 € T-shirt.
    expect(order).toMatchObject({ amountCents: 3500, state: 'awaiting_payment' });
    expect(order.entries[0]).toMatchObject({
      entryCents: 2500,
      discountCents: 500,
      addOnsCents: 1500,
      state: 'held',
    });
    expect(await counts()).toEqual({ taken: 0, held: 1 });
    // The organiser's entry page: no invoice before the order is paid.
    const staffEntry = async () =>
      JSON.parse(
        (
          await app.inject({
            method: 'GET',
            url: `/api/entries/staff/events/${EVENT}/entries/${order.entries[0].code}`,
            headers: staff,
          })
        ).body,
      ).entry;
    expect(await staffEntry()).toMatchObject({ orderId: order.orderId, invoice: null });
    const { deliver: hooks } = await payWithMollie(app, mollie, runners[0]!.authorization, order.orderId, 2);
    expect(await hooks()).toEqual([true, false]);
    expect(await counts()).toEqual({ taken: 1, held: 0 });
    // Once paid: the invoice's number as printed, and its PDF for the organiser's staff (not another organisation's).
    const invoiced = await staffEntry();
    expect(invoiced.invoice).toMatch(/^\d{6}$/);
    const [number] = await app.database.query<{ n: number }>(
      'SELECT number AS n FROM invoices WHERE order_id = $1::bigint',
      [order.orderId],
    );
    expect(Number(invoiced.invoice)).toBe(number!.n);
    const list = JSON.parse(
      (await app.inject({ method: 'GET', url: `/api/entries/staff/events/${EVENT}/entries`, headers: staff }))
        .body,
    );
    expect(list.entries.find((e: { code: string }) => e.code === order.entries[0].code).invoice).toBe(
      invoiced.invoice,
    );
    const pdf = (who: { authorization: string }) =>
      app.inject({ method: 'GET', url: `/api/payments/orders/${order.orderId}/invoice.pdf`, headers: who });
    const staffPdf = await pdf(staff);
    expect(staffPdf.statusCode).toBe(200);
    expect(staffPdf.headers['content-disposition']).toContain(`invoice-${invoiced.invoice}.pdf`);
    expect((await pdf(other)).statusCode).toBe(404);
    const view = JSON.parse(
      (
        await app.inject({
          method: 'GET',
          url: `/api/entries/orders/${order.orderId}`,
          headers: { authorization: runners[0]!.authorization },
        })
      ).body,
    );
    expect(view).toMatchObject({ state: 'paid', paidCents: 3500 });
    expect(view.entries[0].state).toBe('confirmed');
    const [p] = await app.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM participants WHERE race_id = $1 AND first_name = 'Runner0' AND deleted_at IS NULL
          AND account_id = $2::uuid`,
      [TEN_K, runners[0]!.sub],
    );
    expect(p!.n).toBe(1);
    const mail = mails.sent.find((m) => m.to === 'runner0@example.test' && /confirmée/.test(m.subject));
    expect(mail?.text).toContain(view.entries[0].code);
    // Another runner may not see this order.
    const stranger = await app.inject({
      method: 'GET',
      url: `/api/entries/orders/${order.orderId}`,
      headers: { authorization: runners[5]!.authorization },
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('the T-shirt is sold out and the code used up: refused, nothing changed', async () => {
    const before = await tableCounts();
    const shirt = await enter(runners[1]!, {
      runners: [runner(1, { addOns: [{ key: 'tshirt-m', quantity: 1 }] })],
    });
    expect(shirt.statusCode).toBe(409);
    expect(JSON.parse(shirt.body).code).toBe('ADDON_SOLD_OUT');
    const code = await enter(runners[1]!, { runners: [runner(1, { discountCode: 'EARLY20' })] });
    expect(code.statusCode).toBe(409);
    expect(JSON.parse(code.body).code).toBe('CODE_USED_UP');
    expect(await tableCounts()).toEqual(before);
    const page = JSON.parse((await app.inject({ method: 'GET', url: `/api/entries/events/${EVENT}` })).body);
    expect(page.addOns).toEqual([]);
  });

  let secondCode = '';
  it('the race fills; a fourth runner is refused and joins the waitlist', async () => {
    for (const k of [1, 2]) {
      const res = await enter(runners[k]!, { runners: [runner(k)] });
      expect(res.statusCode).toBe(201);
      const order = JSON.parse(res.body);
      if (k === 1) secondCode = order.entries[0].code;
      const { deliver: hooks } = await payWithMollie(app, mollie, runners[k]!.authorization, order.orderId);
      expect(await hooks()).toEqual([true]);
    }
    expect(await counts()).toEqual({ taken: 3, held: 0 });
    const full = await enter(runners[3]!, { runners: [runner(3)] });
    expect(full.statusCode).toBe(409);
    expect(JSON.parse(full.body)).toMatchObject({
      code: 'RACE_FULL',
      errors: [{ field: 'runners.0.raceId', message: 'RACE_FULL' }],
    });
    const wait = await app.inject({
      method: 'POST',
      url: `/api/entries/races/${TEN_K}/waitlist`,
      headers: { authorization: runners[3]!.authorization },
      payload: { lang: 'fr' },
    });
    expect(JSON.parse(wait.body)).toMatchObject({ position: 1, state: 'waiting' });
  });

  it('a runner cancels with the refund the policy says; the waitlisted runner is invited and enters', async () => {
    const auth = { authorization: runners[1]!.authorization };
    const quote = JSON.parse(
      (
        await app.inject({
          method: 'POST',
          url: `/api/entries/entry/${secondCode}/quote`,
          headers: auth,
          payload: { action: 'cancel' },
        })
      ).body,
    );
    expect(quote).toMatchObject({ allowed: true, refundCents: 2500, payCents: 0 });
    const refundsBefore = mollie.refunds.length;
    const done = await app.inject({
      method: 'POST',
      url: `/api/entries/entry/${secondCode}/action`,
      headers: auth,
      payload: { action: 'cancel' },
    });
    expect(done.statusCode).toBe(200);
    expect(JSON.parse(done.body)).toMatchObject({ refundCents: 2500, entry: { state: 'cancelled' } });
    expect(mollie.refunds.slice(refundsBefore)).toEqual([expect.objectContaining({ amount: '25.00' })]);
    // The freed place went to the waitlist: held by the invitation, not offered to anyone else.
    expect(await counts()).toEqual({ taken: 2, held: 1 });
    expect((await enter(runners[4]!, { runners: [runner(4)] })).statusCode).toBe(409);
    const invitation = mails.sent.findLast((m) => m.to === runners[3]!.email);
    const token = /invitation=([\w-]+)/.exec(invitation?.text ?? '')?.[1];
    expect(token).toBeTruthy();
    const res = await enter(runners[3]!, { runners: [runner(3)], invitation: token });
    expect(res.statusCode).toBe(201);
    const order = JSON.parse(res.body);
    const { deliver: hooks } = await payWithMollie(app, mollie, runners[3]!.authorization, order.orderId);
    await hooks();
    expect(await counts()).toEqual({ taken: 3, held: 0 });
  });

  it('a runner moves to the marathon and pays the difference', async () => {
    const mine = JSON.parse(
      (
        await app.inject({
          method: 'GET',
          url: '/api/entries/mine',
          headers: { authorization: runners[2]!.authorization },
        })
      ).body,
    );
    const code = mine[0].code as string;
    const auth = { authorization: runners[2]!.authorization };
    const quote = JSON.parse(
      (
        await app.inject({
          method: 'POST',
          url: `/api/entries/entry/${code}/quote`,
          headers: auth,
          payload: { action: 'move', raceId: MARATHON },
        })
      ).body,
    );
    expect(quote).toMatchObject({ allowed: true, payCents: 2000, refundCents: 0 });
    const asked = JSON.parse(
      (
        await app.inject({
          method: 'POST',
          url: `/api/entries/entry/${code}/action`,
          headers: auth,
          payload: { action: 'move', raceId: MARATHON },
        })
      ).body,
    );
    expect(asked).toMatchObject({ payCents: 2000, entry: { raceId: TEN_K } });
    const { deliver: hooks } = await payWithMollie(app, mollie, runners[2]!.authorization, asked.orderId);
    await hooks();
    const after = JSON.parse(
      (await app.inject({ method: 'GET', url: `/api/entries/entry/${code}`, headers: auth })).body,
    );
    expect(after).toMatchObject({ raceId: MARATHON, state: 'confirmed' });
    expect(await counts()).toEqual({ taken: 2, held: 0 });
    const [p] = await app.database.query<{ race: string }>(
      `SELECT p.race_id AS race FROM participants p JOIN registration_entries e ON e.participant_id = p.id WHERE e.code = $1`,
      [code],
    );
    expect(p!.race).toBe(MARATHON);
  });

  it('a payment after its hold expired: confirmed if a place is left, else refunded automatically', async () => {
    // One place left: runner 4 and runner 5 hold; runner 4's hold lapses, runner 5 pays; runner 4 pays late.
    const placed = await enter(runners[4]!, { runners: [runner(4)] });
    expect(placed.statusCode, placed.body).toBe(201);
    const a = JSON.parse(placed.body);
    const late = await payWithMollie(app, mollie, runners[4]!.authorization, a.orderId);
    await app.database.query(
      `UPDATE registration_entries SET hold_expires_at = now() - interval '1 minute' WHERE order_id = $1::bigint`,
      [a.orderId],
    );
    await app.database.query(
      `UPDATE orders SET expires_at = now() - interval '1 minute' WHERE id = $1::bigint`,
      [a.orderId],
    );
    const expired = await app.inject({
      method: 'POST',
      url: `/api/entries/staff/events/${EVENT}/expire`,
      headers: staff,
    });
    expect(JSON.parse(expired.body).expired).toBe(1);
    expect(await counts()).toEqual({ taken: 2, held: 0 });
    const b = JSON.parse((await enter(runners[5]!, { runners: [runner(5)] })).body);
    const paid = await payWithMollie(app, mollie, runners[5]!.authorization, b.orderId);
    await paid.deliver();
    expect(await counts()).toEqual({ taken: 3, held: 0 });
    const refundsBefore = mollie.refunds.length;
    expect(await deliver(app, mollie, late.id, 2)).toEqual([true, false]);
    expect(mollie.refunds.length - refundsBefore).toBe(1);
    const view = JSON.parse(
      (
        await app.inject({
          method: 'GET',
          url: `/api/entries/orders/${a.orderId}`,
          headers: { authorization: runners[4]!.authorization },
        })
      ).body,
    );
    expect(view).toMatchObject({
      state: 'refunded',
      notice: 'LATE_REFUNDED',
      entries: [{ state: 'refunded' }],
    });
    expect(await counts()).toEqual({ taken: 3, held: 0 });
    expect(mails.sent.some((m) => m.to === runners[4]!.email && /refunded/.test(m.subject))).toBe(true);
  });

  it('the organiser sees every entry with its answers, history, per-day counts and the export', async () => {
    const list = JSON.parse(
      (await app.inject({ method: 'GET', url: `/api/entries/staff/events/${EVENT}/entries`, headers: staff }))
        .body,
    );
    const states = list.entries.map((e: { firstName: string; state: string }) => `${e.firstName}:${e.state}`);
    expect(states).toEqual(
      expect.arrayContaining([
        'Runner0:confirmed',
        'Runner1:cancelled',
        'Runner2:confirmed',
        'Runner3:confirmed',
        'Runner4:refunded',
        'Runner5:confirmed',
      ]),
    );
    expect(list.perDay.reduce((s: number, d: { count: number }) => s + d.count, 0)).toBe(4);
    expect(list.races.find((r: { raceId: string }) => r.raceId === TEN_K)).toMatchObject({
      capacity: 3,
      taken: 3,
      held: 0,
    });
    const entry = JSON.parse(
      (
        await app.inject({
          method: 'GET',
          url: `/api/entries/staff/events/${EVENT}/entries/${secondCode}`,
          headers: staff,
        })
      ).body,
    );
    expect(entry.history.map((h: { action: string }) => h.action)).toEqual([
      'held',
      'confirmed',
      'cancelled',
    ]);
    const csv = await app.inject({
      method: 'GET',
      url: `/api/entries/staff/events/${EVENT}/export.csv`,
      headers: staff,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('How did you hear of us?');
    expect(csv.body).toContain('Runner3');
    const xlsx = await app.inject({
      method: 'GET',
      url: `/api/entries/staff/events/${EVENT}/export.xlsx`,
      headers: staff,
    });
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const manual = await app.inject({
      method: 'POST',
      url: `/api/entries/staff/events/${EVENT}/manual`,
      headers: staff,
      payload: { runner: runner(9, { raceId: MARATHON, waiverVersion: undefined }), payment: 'on_site' },
    });
    expect(manual.statusCode).toBe(201);
    expect(JSON.parse(manual.body)).toMatchObject({
      state: 'confirmed',
      source: 'manual',
      orderState: 'paid',
      totalCents: 4500,
    });
  });

  it('the entry code resolves for staff and its owner, and gives a QR code and a calendar file', async () => {
    const mine = JSON.parse(
      (
        await app.inject({
          method: 'GET',
          url: '/api/entries/mine',
          headers: { authorization: runners[0]!.authorization },
        })
      ).body,
    );
    const code = mine[0].code as string;
    expect(code).toMatch(/^E[0-9A-Z]{20}$/);
    const qr = await app.inject({
      method: 'GET',
      url: `/api/entries/entry/${code}/qr.svg`,
      headers: { authorization: runners[0]!.authorization },
    });
    expect(qr.body).toContain('<svg');
    const ics = await app.inject({
      method: 'GET',
      url: `/api/entries/entry/${code}/calendar.ics`,
      headers: { authorization: runners[0]!.authorization },
    });
    expect(ics.body).toContain('BEGIN:VEVENT');
    expect(
      (await app.inject({ method: 'GET', url: `/api/entries/entry/${code}`, headers: staff })).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: `/api/entries/entry/${code}`, headers: other })).statusCode,
    ).toBe(404);
  });
});
