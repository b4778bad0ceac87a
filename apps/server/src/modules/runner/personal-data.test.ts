import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { startMollieStub } from '../../../test/mollie-stub.ts';
import { hashPassword } from '../../identity/service.ts';
import { organisers } from '../content/test-helpers.ts';
import { EVENT, payWithMollie, registrationSettings, runner } from '../entries/test-helpers.ts';
import { dropSnapshots } from '../results/port.ts';
import { createRetention } from './retention.ts';
import { createRunnerWorld, type RunnerWorld } from './test-helpers.ts';

// Issue 40, the runner's data (GDPR articles 15 and 17) and each event's retention: "Download my
// data" (JSON and PDF), "Delete my account" (entries to come cancelled by the refund policy first,
// results kept anonymous with every rank unchanged, the rest removed, the organisers' audit), and
// the scheduled anonymisation of events past their retention, run with a clock the test moves.
describe('my data, my account’s erasure and the retention of personal data', () => {
  const mollie = startMollieStub();
  const tlsBefore = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  let app: FastifyInstance;
  let world: RunnerWorld;
  let kept: RunnerWorld;
  let jeanne: TestUser;
  let other: TestUser;
  let olderOwner: TestUser;
  let newerOwner: TestUser;
  let staff: { authorization: string };
  let entryCode: string;
  let slug: string;

  const as = (
    user: { authorization: string } | null,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: user ? { authorization: user.authorization } : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const keysOf = async (raceId: string) =>
    app.database.query<{ bib: string; key: string }>(
      'SELECT bib, tracking_key AS key FROM participants WHERE race_id = $1 ORDER BY bib',
      [raceId],
    );
  /** Every runner's status, times and ranks at each point, by bib (the public tracking card). */
  const ranksOf = async (raceId: string) => {
    const out: Record<string, unknown> = {};
    for (const { bib, key } of await keysOf(raceId)) {
      const card = (await app.inject(`/api/tracking/${key}`)).json() as { status: string; splits: unknown[] };
      out[bib] = { status: card.status, splits: card.splits };
    }
    return out;
  };
  const table = async (w: RunnerWorld['older']) =>
    (await app.inject(`/api/results/${w.eventId}/groups/${w.raceId}/reports/LIVE1`)).body;
  const cardName = async (raceId: string, bib: string) => {
    const key = (await keysOf(raceId)).find((k) => k.bib === bib)!.key;
    const card = (await app.inject(`/api/tracking/${key}`)).json() as {
      athlete: { firstName: string; lastName: string };
    };
    return `${card.athlete.firstName} ${card.athlete.lastName}`.trim();
  };

  beforeAll(async () => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const url = await mollie.listen();
    app = await buildTestApp({ MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz', MOLLIE_API_URL: url });
    world = await createRunnerWorld(app.database, 'pd');
    kept = await createRunnerWorld(app.database, 'rt');
    jeanne = await createTestUser(app, { email: 'jeanne@example.org' });
    await app.database.query(
      `UPDATE users SET first_name = 'Jeanne', last_name = 'Dupré', birth_date = '1990-04-02', password_hash = $2
        WHERE sub = $1`,
      [jeanne.sub, await hashPassword('correct horse battery')],
    );
    other = await createTestUser(app);
    olderOwner = await createTestUser(app, {
      memberships: [{ organisationId: world.older.orgId, role: 'owner' }],
    });
    newerOwner = await createTestUser(app, {
      memberships: [{ organisationId: world.newer.orgId, role: 'owner' }],
    });
    staff = (await organisers(app)).a;
    // Jeanne's two results are hers (the claims are issue 40's other tests).
    await app.database.query(
      `UPDATE participants SET account_id = $1 WHERE bib = '1' AND race_id = ANY($2::text[])`,
      [jeanne.sub, [world.older.raceId, world.newer.raceId]],
    );
    // She follows Marc (alerts by e-mail); someone else asked for alerts about her.
    const [marc] = await keysOf(world.newer.raceId).then((k) => k.filter((r) => r.bib === '2'));
    const [her] = await keysOf(world.newer.raceId).then((k) => k.filter((r) => r.bib === '1'));
    await app.database.query(
      `INSERT INTO alert_subscriptions (tracking_key, channel, email, points, token)
       VALUES ($1, 'email', 'jeanne@example.org', '{finish}', 'tok-follow-1'),
              ($2, 'email', 'friend@example.org', '{finish}', 'tok-about-1')`,
      [marc!.key, her!.key],
    );
    // An entry to come (the demo 10 km), paid by Mollie, refunded 100 % by the policy.
    const settings = await app.inject({
      method: 'PUT',
      url: `/api/entries/staff/events/${EVENT}/settings`,
      headers: staff,
      payload: registrationSettings({ places: 10, shirts: 5, uses: 5 }),
    });
    expect(settings.statusCode).toBe(200);
    const order = await as(jeanne, 'POST', `/api/entries/events/${EVENT}/orders`, {
      runners: [
        runner(7, { firstName: 'Jeanne', lastName: 'Dupré', email: 'jeanne@example.org', gender: 'F' }),
      ],
      lang: 'fr',
    });
    expect(order.statusCode).toBe(201);
    const { deliver } = await payWithMollie(app, mollie, jeanne.authorization, order.json().orderId);
    await deliver();
    entryCode = order.json().entries[0].code;
    slug = (await as(jeanne, 'PUT', '/api/me/public-page', { enabled: true })).json().publicSlug;
    // She joined a relay team someone else leads (issue 38's team entries).
    const [team] = await app.database.query<{ id: string }>(
      `INSERT INTO registration_teams (token, event_id, race_id, name, captain_sub, pays)
       VALUES ('team-token-40', $1, 'city-10k', 'Les Rapides', $2, 'each') RETURNING id`,
      [EVENT, other.sub],
    );
    await app.database.query(
      `INSERT INTO registration_team_members (team_id, account_sub, email, runner)
       VALUES ($1, $2, 'jeanne@example.org', '{"firstName": "Jeanne", "lastName": "Dupré"}')`,
      [team!.id, jeanne.sub],
    );
  }, 120_000);
  afterAll(async () => {
    await app.close();
    await mollie.close();
    if (tlsBefore === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tlsBefore;
  });

  it('downloads everything held about me as JSON, and nothing of another runner', async () => {
    expect((await as(null, 'GET', '/api/me/data')).statusCode).toBe(401);
    const res = await as(jeanne, 'GET', '/api/me/data');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="tempora-my-data-\d{4}-\d\d-\d\d\.json"/,
    );
    const data = res.json();
    expect(data.account).toMatchObject({
      email: 'jeanne@example.org',
      first_name: 'Jeanne',
      last_name: 'Dupré',
    });
    expect(data.account.password_hash).toBeUndefined();
    // Her two results, and the entry to come (a participant of the demo 10 km).
    const results = data.results as { eventName: string; eventId: string }[];
    expect(results.map((r) => r.eventName)).toEqual(
      expect.arrayContaining(['City 10K 2025', 'Foulées 2024']),
    );
    expect(results.map((r) => r.eventId)).toContain(EVENT);
    expect(results.find((r) => r.eventName === 'City 10K 2025')).toMatchObject({
      rankOverall: 2,
      netMs: 49 * 60_000,
    });
    expect(data.entries).toHaveLength(1);
    expect(data.entries[0]).toMatchObject({
      code: entryCode,
      answers: { 'size-club': 'web' },
      state: 'confirmed',
    });
    expect(data.orders[0]).toMatchObject({ state: 'paid' });
    expect(data.payments).toHaveLength(1);
    expect(data.follows).toEqual([
      expect.objectContaining({ email: 'jeanne@example.org', runner: 'Marc Lenoir' }),
    ]);
    expect(data.alertsAboutMe).toEqual({ subscriptions: 1 });
    expect(JSON.stringify(data)).not.toContain('friend@example.org');
    expect(data.consents).toMatchObject({
      publicProfile: true,
      waivers: [expect.objectContaining({ version: 1 })],
    });
    expect(data.audit.some((a: { subject: string }) => a.subject === 'entry')).toBe(true);
    expect(data.mails.length).toBeGreaterThan(0);
    expect(data.teams).toEqual([expect.objectContaining({ team: 'Les Rapides', captain: false })]);

    const theirs = (await as(other, 'GET', '/api/me/data')).json();
    expect(theirs.results).toEqual([]);
    expect(theirs.entries).toEqual([]);
    expect(JSON.stringify(theirs)).not.toContain('Dupré');
  });

  it('prints the same as a readable PDF in each language; a bad language is refused', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mydata-'));
    for (const [lng, title] of [
      ['en', 'My data on Tempora'],
      ['fr', 'Mes données sur Tempora'],
    ] as const) {
      const res = await as(jeanne, 'GET', `/api/me/data.pdf?lng=${lng}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const file = path.join(dir, `${lng}.pdf`);
      fs.writeFileSync(file, res.rawPayload);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      expect(text).toContain(title);
      expect(text).toContain('Dupré');
      expect(text).toContain('Foulées 2024');
      expect(text).toContain(entryCode);
    }
    expect((await as(jeanne, 'GET', '/api/me/data.pdf?lng=de')).statusCode).toBe(400);
    expect((await as(null, 'GET', '/api/me/data.pdf')).statusCode).toBe(401);
  });

  it('shows what deleting the account does; a wrong confirmation or a blocked account changes nothing', async () => {
    const preview = (await as(jeanne, 'GET', '/api/me/erasure')).json();
    expect(preview).toMatchObject({
      email: 'jeanne@example.org',
      entriesToCancel: [{ code: entryCode, policyAllows: true, refundCents: 2500, currency: 'EUR' }],
      resultsKeptAnonymous: 2,
      follows: 1,
      alertSubscriptionsAboutMe: 1,
      blockers: [],
    });
    const users = async () => (await app.database.query('SELECT sub FROM users')).length;
    const before = await users();
    for (const payload of [
      {},
      { confirmEmail: '' },
      { confirmEmail: 'someone@example.org' },
      { confirm: 'x' },
    ]) {
      const res = await as(jeanne, 'POST', '/api/me/erasure', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
    }
    expect(
      (await as(null, 'POST', '/api/me/erasure', { confirmEmail: 'jeanne@example.org' })).statusCode,
    ).toBe(401);
    // The only owner of an organisation is refused (409): its events would have nobody.
    expect((await as(olderOwner, 'GET', '/api/me/erasure')).json().blockers).toEqual(['SOLE_OWNER']);
    // So is a team's captain (the team's members depend on them).
    expect((await as(other, 'GET', '/api/me/erasure')).json().blockers).toEqual(['TEAM_CAPTAIN']);
    expect((await as(other, 'POST', '/api/me/erasure', { confirmEmail: other.email })).statusCode).toBe(409);
    const owner = await as(olderOwner, 'POST', '/api/me/erasure', { confirmEmail: olderOwner.email });
    expect(owner.statusCode).toBe(409);
    expect(await users()).toBe(before);
    expect((await as(jeanne, 'GET', '/api/me/results')).json().results).toHaveLength(3);
  });

  it('deletes the account: entry refunded by the policy, results anonymous with every rank unchanged, the rest gone', async () => {
    const ranks = { older: await ranksOf(world.older.raceId), newer: await ranksOf(world.newer.raceId) };
    expect(await cardName(world.newer.raceId, '1')).toBe('Jeanne Dupré');
    // The finished races' tables, stored as snapshots, name her before.
    expect(await table(world.older)).toMatch(/dupré/i);
    expect(await table(world.newer)).toMatch(/dupré/i);
    const [stored] = await app.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM report_snapshots WHERE rows ILIKE '%dupré%' AND db LIKE 'pd-%'`,
    );
    expect(stored!.n).toBeGreaterThan(0);
    const res = await as(jeanne, 'POST', '/api/me/erasure', { confirmEmail: ' Jeanne@Example.org ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ entriesCancelled: 1, refundedCents: 2500, resultsKeptAnonymous: 2 });

    // Ranks and times of both races unchanged; the name gone from every public view.
    expect(await ranksOf(world.older.raceId)).toEqual(ranks.older);
    expect(await ranksOf(world.newer.raceId)).toEqual(ranks.newer);
    expect(await cardName(world.newer.raceId, '1')).toBe('Hidden runner');
    for (const w of [world.older, world.newer]) {
      const after = await table(w);
      expect(after).not.toMatch(/dupré/i);
      expect(after).toContain('Hidden runner');
    }
    // The entry was cancelled through the entries module, refunded as the policy says.
    const [entry] = await app.database.query<{ state: string; email: string; answers: object }>(
      'SELECT state, email, answers FROM registration_entries WHERE code = $1',
      [entryCode],
    );
    expect(entry).toEqual({ state: 'cancelled', email: '', answers: {} });
    const refunds = await app.database.query<{ amount: number }>(
      `SELECT f.amount_cents AS amount FROM refunds f JOIN registration_entries e ON e.order_id = f.order_id
        WHERE e.code = $1`,
      [entryCode],
    );
    expect(refunds).toEqual([{ amount: 2500 }]);
    // Nothing of hers is left in the tables.
    const [left] = await app.database.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM users WHERE email = 'jeanne@example.org') AS users,
              (SELECT count(*)::int FROM participants
                WHERE ((first_name = 'Jeanne' OR email IN ('jeanne.entry@example.org', 'jeanne@example.org'))
                       AND race_id NOT LIKE 'rt-%') OR account_id = $1) AS participants,
              (SELECT count(*)::int FROM alert_subscriptions
                WHERE email = 'jeanne@example.org' OR token = 'tok-about-1') AS alerts,
              (SELECT count(*)::int FROM runner_claims WHERE account_id = $1) AS claims,
              (SELECT count(*)::int FROM refresh_tokens WHERE user_sub = $1) AS sessions,
              (SELECT count(*)::int FROM outbox WHERE recipient = 'jeanne@example.org') AS mails,
              (SELECT count(*)::int FROM audit_trail WHERE actor_sub = $1::text OR actor_email = 'jeanne@example.org'
                  OR detail::text LIKE '%Dupré%' OR detail::text LIKE '%jeanne@%') AS audit,
              (SELECT count(*)::int FROM registration_entries
                WHERE email = 'jeanne@example.org' OR details::text LIKE '%Dupré%') AS entries,
              (SELECT count(*)::int FROM report_snapshots WHERE rows ILIKE '%dupré%' AND db NOT LIKE 'rt-%') AS snapshots,
              (SELECT count(*)::int FROM registration_team_members
                WHERE account_sub = $1 OR email <> '' OR runner::text LIKE '%Dupré%') AS teams`,
      [jeanne.sub],
    );
    expect(left).toEqual({
      users: 0,
      participants: 0,
      alerts: 0,
      claims: 0,
      sessions: 0,
      mails: 0,
      audit: 0,
      entries: 0,
      snapshots: 0,
      teams: 0,
    });
    // Signing in with the old e-mail fails; her token is refused; her public page is gone.
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: 'jeanne@example.org', password: 'correct horse battery' },
    });
    expect(signIn.statusCode).toBe(401);
    expect((await as(jeanne, 'GET', '/api/me/results')).statusCode).toBe(401);
    expect((await app.inject(`/api/runners/${slug}`)).statusCode).toBe(404);

    // Each organiser sees what was removed and when (counts, no personal data); not another's.
    const log = (await as(olderOwner, 'GET', `/api/console/events/${world.older.eventId}/retention`)).json()
      .log;
    expect(log).toEqual([
      {
        action: 'account-erased',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        detail: { resultsKeptAnonymous: 1, entriesCancelled: 0, refundedCents: 0 },
      },
    ]);
    const demo = (await app.inject({ url: `/api/console/events/${EVENT}/retention`, headers: staff })).json()
      .log;
    expect(demo[0]).toMatchObject({
      action: 'account-erased',
      detail: { entriesCancelled: 1, refundedCents: 2500 },
    });
    expect(JSON.stringify([log, demo])).not.toMatch(/jeanne|Dupré/i);
    expect(
      (await as(newerOwner, 'GET', `/api/console/events/${world.older.eventId}/retention`)).statusCode,
    ).toBe(403);
  });

  it('an organiser sets the retention; bad values and other organisers change nothing', async () => {
    const url = `/api/console/events/${kept.older.eventId}/retention`;
    const owner = await createTestUser(app, {
      memberships: [{ organisationId: kept.older.orgId, role: 'owner' }],
    });
    const timekeeper = await createTestUser(app, {
      memberships: [{ organisationId: kept.older.orgId, role: 'timekeeper' }],
    });
    for (const retentionDays of [-1, 3651, 1.5, '30', undefined])
      expect((await as(owner, 'PUT', url, { retentionDays })).statusCode, String(retentionDays)).toBe(400);
    expect((await as(timekeeper, 'PUT', url, { retentionDays: 30 })).statusCode).toBe(403);
    // Another organisation: 403 under a published event (route-access.ts's rule).
    expect((await as(newerOwner, 'PUT', url, { retentionDays: 30 })).statusCode).toBe(403);
    expect((await as(owner, 'GET', url)).json()).toMatchObject({ retentionDays: null, anonymiseOn: null });
    const set = await as(owner, 'PUT', url, { retentionDays: 30 });
    expect(set.statusCode).toBe(200);
    // The 10 km of 2024-05-26: kept 30 days after it, anonymised on 2024-06-26.
    expect(set.json()).toMatchObject({
      retentionDays: 30,
      endDate: '2024-05-26',
      anonymiseOn: '2024-06-26',
      anonymisedAt: null,
    });
  });

  it('the scheduled job anonymises an event once its time has come, by a clock the test moves', async () => {
    let clock = new Date('2024-06-25T23:59:00Z');
    const republished: string[] = [];
    const job = createRetention({
      database: app.database,
      now: () => clock,
      republish: async (dbs) => {
        for (const db of dbs) {
          republished.push(db);
          await dropSnapshots(app.database, db);
          await app.results.reload(db);
          await dropSnapshots(app.database, db);
        }
      },
    });
    const race = kept.older.raceId;
    const ranks = await ranksOf(race);
    // A stored snapshot of the finished race's table holds the names before.
    expect(await table(kept.older)).toMatch(/lenoir/i);
    const report = await app.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM report_snapshots WHERE rows ILIKE '%lenoir%'`,
    );
    const namesBefore = report[0]!.n;
    expect(await cardName(race, '2')).toBe('Marc Lenoir');

    expect(await job.run()).toEqual([]);
    expect(await cardName(race, '2')).toBe('Marc Lenoir');
    clock = new Date('2024-06-26T00:00:00Z');
    expect(await job.run()).toEqual([kept.older.eventId]);
    expect(republished).toEqual([kept.older.db]);
    // Names, birth dates and e-mails gone; ranks and times unchanged; the newer event untouched.
    expect(await ranksOf(race)).toEqual(ranks);
    expect(await cardName(race, '2')).toBe('Hidden runner');
    const rows = await app.database.query<Record<string, unknown>>(
      `SELECT first_name, last_name, email, birth_date, club, nationality FROM participants WHERE race_id = $1`,
      [race],
    );
    expect(new Set(rows.map((r) => JSON.stringify(r)))).toEqual(
      new Set([
        JSON.stringify({
          first_name: '',
          last_name: '',
          email: '',
          birth_date: null,
          club: '',
          nationality: '',
        }),
      ]),
    );
    const [age] = await app.database.query<{ age: number }>(
      `SELECT age FROM participants WHERE race_id = $1 AND bib = '1'`,
      [race],
    );
    expect(age!.age).toBe(34);
    expect(await cardName(kept.newer.raceId, '2')).toBe('Marc Lenoir');
    const after = await app.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM report_snapshots s JOIN races r ON r.db = s.db
        WHERE r.id = $1 AND (s.rows ILIKE '%lenoir%' OR s.rows ILIKE '%dupré%')`,
      [race],
    );
    expect(after[0]!.n).toBe(0);
    expect(namesBefore).toBeGreaterThan(0);
    expect(await table(kept.older)).not.toMatch(/lenoir/i);
    // Once: a later run finds nothing to do; the organiser's log says it, with counts.
    clock = new Date('2025-01-01T00:00:00Z');
    expect(await job.run()).toEqual([]);
    const owner = await createTestUser(app, {
      memberships: [{ organisationId: kept.older.orgId, role: 'staff' }],
    });
    const view = (await as(owner, 'GET', `/api/console/events/${kept.older.eventId}/retention`)).json();
    expect(view.anonymisedAt).toBe('2024-06-26T00:00:00Z');
    expect(view.log).toEqual([
      { action: 'retention-anonymised', at: expect.any(String), detail: { participants: 3, entries: 0 } },
    ]);
  });
});
