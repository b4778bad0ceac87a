import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { ORG_A, organisers } from '../content/test-helpers.ts';
import { EVENT, registrationSettings, runner, TEN_K } from '../entries/test-helpers.ts';

/**
 * Race-day pickup through the API (issue 39): a volunteer of the pickup role reads the list
 * (nothing private), scans an entry code, gives the next free bib, binds a chip (one another runner
 * holds is refused with their name and bib), takes the unpaid balance in cash, hands out (sent
 * twice: once; from another phone: a conflict kept), takes a late entry paid on site with a bib at
 * once; the organiser's dashboard, DNS after the start through the desk's status path, the PDF.
 */
describe('race-day pickup', () => {
  let app: FastifyInstance;
  let staff: { authorization: string };
  let other: { authorization: string };
  let volunteer: TestUser;
  let timekeeper: TestUser;
  let entrant: TestUser;
  const base = `/api/pickup/events/${EVENT}`;
  const ops = (who: { authorization: string }, list: unknown[]) =>
    app.inject({
      method: 'POST',
      url: `${base}/ops`,
      headers: { authorization: who.authorization },
      payload: { ops: list },
    });
  const at = '2026-05-31T07:30:00.000Z';

  beforeAll(async () => {
    app = await buildTestApp();
    const orgs = await organisers(app);
    staff = orgs.a;
    other = orgs.b;
    volunteer = await createTestUser(app, { memberships: [{ organisationId: ORG_A, role: 'pickup' }] });
    timekeeper = await createTestUser(app, { memberships: [{ organisationId: ORG_A, role: 'timekeeper' }] });
    entrant = await createTestUser(app, { email: 'pickup-runner@example.test', profileComplete: true });
    const settings = { ...registrationSettings({ places: 20, shirts: 5 }), questions: [] };
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/entries/staff/events/${EVENT}/settings`,
      headers: staff,
      payload: settings,
    });
    expect(saved.statusCode).toBe(200);
    await app.database.query(
      `INSERT INTO bib_ranges (race_id, first_bib, last_bib) VALUES ($1, 9001, 9100)
       ON CONFLICT (race_id) DO UPDATE SET first_bib = 9001, last_bib = 9100`,
      [TEN_K],
    );
  });
  afterAll(async () => {
    await app.close();
  });

  let code = '';
  let runnerId = '';

  it('a runner who chose to pay on site is on the volunteer’s list, with nothing private', async () => {
    const order = await app.inject({
      method: 'POST',
      url: `/api/entries/events/${EVENT}/orders`,
      headers: { authorization: entrant.authorization },
      payload: {
        runners: [
          runner(1, {
            firstName: 'Zoé',
            lastName: 'Pickup',
            email: 'pickup-runner@example.test',
            phone: '+32 470 00 00 00',
            answers: {},
            addOns: [{ key: 'tshirt-m', quantity: 1 }],
          }),
        ],
      },
    });
    expect(order.statusCode, order.body).toBe(201);
    const { orderId } = JSON.parse(order.body);
    const onSite = await app.inject({
      method: 'POST',
      url: `/api/entries/orders/${orderId}/on-site`,
      headers: { authorization: entrant.authorization },
    });
    expect(onSite.statusCode, onSite.body).toBe(200);

    for (const [who, status] of [
      [timekeeper.authorization, 403],
      [other.authorization, 403],
      [undefined, 401],
    ] as const) {
      const refused = await app.inject({
        method: 'GET',
        url: `${base}/list`,
        headers: who ? { authorization: who } : {},
      });
      expect(refused.statusCode).toBe(status);
    }
    const res = await app.inject({
      method: 'GET',
      url: `${base}/list`,
      headers: { authorization: volunteer.authorization },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('pickup-runner@example.test');
    expect(res.body).not.toContain('+32 470');
    const list = JSON.parse(res.body);
    const zoe = list.runners.find((r: { lastName: string }) => r.lastName === 'Pickup');
    expect(zoe).toMatchObject({
      raceId: TEN_K,
      bib: null,
      addOns: [{ key: 'tshirt-m', quantity: 1 }],
      unpaidCents: 4000,
      handedOut: null,
    });
    expect(zoe.code).toMatch(/^E[0-9A-Z]{20}$/);
    code = zoe.code;
    runnerId = zoe.id;
    expect(list.races.find((r: { id: string }) => r.id === TEN_K)).toMatchObject({
      firstBib: 9001,
      lateEntries: true,
    });

    const card = await app.inject({
      method: 'GET',
      url: `${base}/entries/${code}`,
      headers: { authorization: volunteer.authorization },
    });
    expect(JSON.parse(card.body)).toMatchObject({ id: runnerId, firstName: 'Zoé' });
    const unknown = await app.inject({
      method: 'GET',
      url: `${base}/entries/E00000000000000000000`,
      headers: { authorization: volunteer.authorization },
    });
    expect(unknown.statusCode).toBe(404);
    // The volunteer's role opens nothing else: not the participants, not the desk.
    const grid = await app.inject({
      method: 'GET',
      url: `/api/entries/staff/events/${EVENT}/entries`,
      headers: { authorization: volunteer.authorization },
    });
    expect(grid.statusCode).toBe(403);
  });

  it('bib from the range, chip bound (another runner’s refused by name and bib), cash taken, handed out once', async () => {
    const bib = await ops(volunteer, [{ kind: 'bib', opId: 'op-bib-0001', at, participantId: runnerId }]);
    expect(bib.statusCode, bib.body).toBe(200);
    const given = JSON.parse(bib.body).answers[0];
    expect(given).toMatchObject({ status: 'done', runner: { bib: '9001' } });

    const [holder] = await app.database.query<{ id: string; bib: string; name: string }>(
      `SELECT id::text AS id, bib, first_name || ' ' || last_name AS name FROM participants
        WHERE race_id = $1 AND bib IS NOT NULL AND deleted_at IS NULL AND id <> $2 ORDER BY bib LIMIT 1`,
      [TEN_K, runnerId],
    );
    await app.database.query(
      `UPDATE participants SET chips = array_append(chips, 'CHIP-HELD') WHERE id = $1`,
      [holder!.id],
    );
    const chips = JSON.parse(
      (
        await ops(volunteer, [
          { kind: 'chip', opId: 'op-chip-0001', at, participantId: runnerId, chip: 'CHIP-HELD' },
          { kind: 'chip', opId: 'op-chip-0002', at, participantId: runnerId, chip: 'CHIP-ZOE' },
        ])
      ).body,
    ).answers;
    expect(chips[0]).toMatchObject({
      status: 'refused',
      code: 'CHIP_TAKEN',
      holder: { name: holder!.name, bib: holder!.bib },
    });
    expect(chips[0].message).toContain(holder!.name);
    expect(chips[1]).toMatchObject({ status: 'done', runner: { chips: ['CHIP-ZOE'] } });
    const [held] = await app.database.query<{ chips: string[] }>(
      'SELECT chips FROM participants WHERE id = $1',
      [holder!.id],
    );
    expect(held!.chips).toContain('CHIP-HELD');
    // The desk's reads find the runner by the chip bound (the ingest's chip map).
    const desk = await app.inject({
      method: 'GET',
      url: '/api/raceday/contexts/demo-city-run-10k/runners',
      headers: staff,
    });
    expect(desk.statusCode).toBe(200);

    const tooMuch = await ops(volunteer, [
      { kind: 'pay', opId: 'op-pay-0000', at, participantId: runnerId, method: 'cash', amountCents: 9999 },
    ]);
    expect(JSON.parse(tooMuch.body).answers[0]).toMatchObject({ status: 'refused', code: 'AMOUNT_TOO_HIGH' });
    const paid = await ops(volunteer, [
      { kind: 'pay', opId: 'op-pay-0001', at, participantId: runnerId, method: 'cash', amountCents: 4000 },
    ]);
    expect(JSON.parse(paid.body).answers[0]).toMatchObject({ status: 'done', runner: { unpaidCents: 0 } });

    const handout = {
      kind: 'handout',
      opId: 'op-hand-0001',
      at,
      participantId: runnerId,
      items: ['bib', 'chip', 'tshirt-m'],
      device: 'phone-a',
    };
    const first = JSON.parse((await ops(volunteer, [handout])).body).answers[0];
    expect(first).toMatchObject({ status: 'done', runner: { handedOut: { at } } });
    const again = JSON.parse((await ops(volunteer, [handout])).body).answers[0];
    expect(again).toEqual(first);
    const second = JSON.parse(
      (
        await ops(staff, [
          { ...handout, opId: 'op-hand-0002', device: 'phone-b', at: '2026-05-31T07:31:00.000Z' },
        ])
      ).body,
    ).answers[0];
    expect(second).toMatchObject({ status: 'conflict', code: 'ALREADY_HANDED_OUT' });
    const rows = await app.database.query<{ state: string }>(
      'SELECT state FROM pickup_handouts WHERE participant_id = $1 ORDER BY id',
      [runnerId],
    );
    expect(rows.map((r) => r.state)).toEqual(['kept', 'conflict']);
    const conflicts = JSON.parse(
      (
        await app.inject({
          method: 'GET',
          url: `${base}/conflicts`,
          headers: { authorization: volunteer.authorization },
        })
      ).body,
    );
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({
      state: 'conflict',
      resolution: null,
      first: { device: 'phone-a', by: volunteer.email },
      second: { device: 'phone-b' },
    });
    const resolve = (id: string, payload?: unknown) =>
      app.inject({
        method: 'POST',
        url: `${base}/conflicts/${id}/resolve`,
        headers: { authorization: volunteer.authorization },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    const states = async () =>
      (
        await app.database.query<{ state: string; device: string }>(
          'SELECT state, device FROM pickup_handouts WHERE participant_id = $1 ORDER BY id',
          [runnerId],
        )
      ).map((r) => `${r.device}:${r.state}`);
    // Bad input (no choice, a choice that is not one) changes nothing.
    for (const payload of [undefined, {}, { keep: 'both' }]) {
      const bad = await resolve(conflicts[0].id, payload);
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.headers['content-type']).toContain('application/problem+json');
    }
    expect((await resolve('424242', { keep: 'first' })).statusCode).toBe(404);
    expect(await states()).toEqual(['phone-a:kept', 'phone-b:conflict']);

    // The second handout is kept (phone A's was a wrong runner, say): phone A's undone, with who and when.
    const kept = await resolve(conflicts[0].id, { keep: 'second' });
    expect(kept.statusCode, kept.body).toBe(200);
    const body = JSON.parse(kept.body);
    expect(body).toMatchObject({ state: 'resolved', resolution: 'second', resolvedBy: volunteer.email });
    expect(Date.parse(body.resolvedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await states()).toEqual(['phone-a:undone', 'phone-b:kept']);
    const list = JSON.parse(
      (
        await app.inject({
          method: 'GET',
          url: `${base}/list`,
          headers: { authorization: volunteer.authorization },
        })
      ).body,
    );
    expect(list.runners.find((r: { id: string }) => r.id === runnerId).handedOut.at).toBe(
      '2026-05-31T07:31:00.000Z',
    );
    // Sent again the same way (another phone): the same answer; the other way: refused, nothing changed.
    expect(JSON.parse((await resolve(conflicts[0].id, { keep: 'second' })).body)).toEqual(body);
    const other = await resolve(conflicts[0].id, { keep: 'first' });
    expect(other.statusCode).toBe(409);
    expect(JSON.parse(other.body).code).toBe('CONFLICT_RESOLVED');
    expect(await states()).toEqual(['phone-a:undone', 'phone-b:kept']);

    // A third phone hands the runner out: a conflict with phone B's handout; the first kept.
    const third = JSON.parse(
      (await ops(volunteer, [{ ...handout, opId: 'op-hand-0003', device: 'phone-c' }])).body,
    ).answers[0];
    expect(third).toMatchObject({ status: 'conflict' });
    const open = JSON.parse(
      (
        await app.inject({
          method: 'GET',
          url: `${base}/conflicts`,
          headers: { authorization: volunteer.authorization },
        })
      ).body,
    );
    expect(open[0]).toMatchObject({
      state: 'conflict',
      first: { device: 'phone-b' },
      second: { device: 'phone-c' },
    });
    expect(open[1]).toMatchObject({ state: 'resolved', resolution: 'second' });
    const keepFirst = await resolve(open[0].id, { keep: 'first' });
    expect(JSON.parse(keepFirst.body)).toMatchObject({
      state: 'resolved',
      resolution: 'first',
      resolvedBy: volunteer.email,
    });
    expect(await states()).toEqual(['phone-a:undone', 'phone-b:kept', 'phone-c:resolved']);
  });

  it('bad input changes nothing; a typed bib someone holds is refused', async () => {
    const before = await app.database.query('SELECT count(*)::int AS n FROM pickup_operations');
    const bad = await ops(volunteer, [{ kind: 'chip', opId: 'x', at, participantId: runnerId, chip: '' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(await app.database.query('SELECT count(*)::int AS n FROM pickup_operations')).toEqual(before);
    const [holder] = await app.database.query<{ bib: string }>(
      `SELECT bib FROM participants WHERE race_id = $1 AND bib IS NOT NULL AND id <> $2 AND deleted_at IS NULL LIMIT 1`,
      [TEN_K, runnerId],
    );
    const typed = await ops(volunteer, [
      { kind: 'bib', opId: 'op-bib-0002', at, participantId: runnerId, bib: holder!.bib },
    ]);
    expect(JSON.parse(typed.body).answers[0]).toMatchObject({ status: 'refused', code: 'BIB_TAKEN' });
  });

  it('a late entry paid on site gets a bib at once and is on the start list', async () => {
    const res = await ops(volunteer, [
      {
        kind: 'late',
        opId: 'op-late-0001',
        at,
        method: 'card',
        runner: {
          raceId: TEN_K,
          firstName: 'Late',
          lastName: 'Comer',
          email: 'late@example.test',
          birthDate: '1980-02-02',
          gender: 'M',
        },
      },
    ]);
    const answer = JSON.parse(res.body).answers[0];
    expect(answer, res.body).toMatchObject({
      status: 'done',
      runner: { bib: '9002', unpaidCents: 0, lastName: 'Comer' },
    });
    const again = JSON.parse(
      (
        await ops(volunteer, [
          {
            kind: 'late',
            opId: 'op-late-0001',
            at,
            method: 'card',
            runner: {
              raceId: TEN_K,
              firstName: 'Late',
              lastName: 'Comer',
              email: 'late@example.test',
              birthDate: '1980-02-02',
              gender: 'M',
            },
          },
        ])
      ).body,
    ).answers[0];
    expect(again).toEqual(answer);
    const starters = await app.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM participants WHERE race_id = $1 AND last_name = 'Comer' AND bib = '9002' AND deleted_at IS NULL`,
      [TEN_K],
    );
    expect(starters[0]!.n).toBe(1);
  });

  it('the organiser’s dashboard, DNS after the start (the desk’s status path), the paper list', async () => {
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `${base}/dashboard`,
          headers: { authorization: volunteer.authorization },
        })
      ).statusCode,
    ).toBe(403);
    const dash = JSON.parse(
      (await app.inject({ method: 'GET', url: `${base}/dashboard`, headers: staff })).body,
    );
    expect(dash.collected).toEqual([
      { method: 'card', cents: 2500, count: 1 },
      { method: 'cash', cents: 4000, count: 1 },
    ]);
    expect(dash.addOns[0]).toMatchObject({
      key: 'tshirt-m',
      sold: 1,
      handedOut: 1,
      toHandOut: 0,
      stockLeft: 4,
      // Five shirts brought, one handed out: four on the tables, none owed to a runner yet.
      stock: 5,
      onSite: 4,
      spare: 4,
    });
    expect(dash.unpaid).toEqual({ cents: 0, runners: 0 });
    expect(dash.timeZone).toBe('Europe/Brussels');
    const tenK = dash.races.find((r: { raceId: string }) => r.raceId === TEN_K);
    expect(tenK.pickedUp).toBe(1);
    // The kept handout (phone B's, 07:31 UTC) in the event's hour, by race.
    expect(dash.perHour).toEqual([
      { hour: '2026-05-31 09:00', count: 1, races: [{ raceId: TEN_K, count: 1 }] },
    ]);

    await app.database.query('UPDATE races SET gun_time_ms = NULL WHERE id = $1', [TEN_K]);
    const early = await app.inject({
      method: 'POST',
      url: `${base}/dns`,
      headers: staff,
      payload: { raceId: TEN_K },
    });
    expect(early.statusCode).toBe(409);
    await app.database.query('UPDATE races SET gun_time_ms = $2 WHERE id = $1', [TEN_K, Date.parse(at)]);
    const waiting = tenK.runners - tenK.pickedUp;
    const dnsCount = async () =>
      (
        await app.database.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM participants WHERE race_id = $1 AND deleted_at IS NULL AND status = 'DNS'`,
          [TEN_K],
        )
      )[0]!.n;
    const dnsBefore = await dnsCount();
    const dns = await app.inject({
      method: 'POST',
      url: `${base}/dns`,
      headers: staff,
      payload: { raceId: TEN_K },
    });
    expect(dns.statusCode, dns.body).toBe(200);
    const { marked } = JSON.parse(dns.body);
    expect(marked).toBeGreaterThan(0);
    expect(marked).toBeLessThanOrEqual(waiting);
    expect(await dnsCount()).toBe(dnsBefore + marked);
    const [zoe] = await app.database.query<{ status: string }>(
      'SELECT status FROM participants WHERE id = $1',
      [runnerId],
    );
    expect(zoe!.status).toBe('registered');
    const audit = await app.inject({
      method: 'GET',
      url: '/api/raceday/contexts/demo-city-run-10k/audit',
      headers: staff,
    });
    expect(audit.body).toContain('not picked up');

    const pdf = await app.inject({
      method: 'GET',
      url: `${base}/list.pdf?order=bib&from=9000&to=9100&lng=fr`,
      headers: staff,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
