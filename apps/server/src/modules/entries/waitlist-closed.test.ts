import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, buildTestApp, testConfig } from '../../../test/helpers.ts';
import { captureMails, createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { buildApp } from '../../app.ts';
import { organisers } from '../content/test-helpers.ts';
import { caller, EVENT, MARATHON, registrationSettings, runner, TEN_K } from './test-helpers.ts';

/**
 * Runners still on the waitlist when their race's registration closes (issue 38) are told once,
 * in their language, that no place will come; their row is marked `closed`. A race still open
 * keeps its waitlist and mails nobody. The sweep is the test-only expiry route (the 20 s timer's
 * pass runs the same `expire`). On PGlite and, when TEST_DATABASE_URL is set, PostgreSQL (the
 * migration 0107 and the sweep's statement on both).
 */
describe.each(backends().map((b) => [b.name, b] as const))(
  'waitlist of a race that closes (%s)',
  (_name, backend) => {
    let app: FastifyInstance;
    let drop: (() => Promise<void>) | undefined;
    let staff: { authorization: string };
    let mails: ReturnType<typeof captureMails>;
    const runners: TestUser[] = [];
    const call = caller(() => app);

    /** Both races of one place each; the 10 km closes at `tenKCloses`. */
    const settings = (tenKCloses: string) => {
      const s = registrationSettings({ places: 1 });
      return {
        ...s,
        races: [
          { ...s.races[0]!, closesAt: tenKCloses },
          { ...s.races[1]!, capacity: 1 },
        ],
      };
    };
    const sweep = async () => {
      const res = await call('POST', `/api/entries/staff/events/${EVENT}/expire`, staff);
      expect(res.statusCode, res.body).toBe(200);
      return JSON.parse(res.body) as { expired: number; invited: number; closed: number; lapsed: number };
    };
    const waitlistRows = () =>
      app.database.query<{ email: string; state: string; closed: boolean }>(
        `SELECT email, state, closed_at IS NOT NULL AS closed FROM registration_waitlist ORDER BY id`,
      );

    beforeAll(async () => {
      if (backend.name === 'pglite') app = await buildTestApp();
      else {
        const fresh = await backend.fresh();
        drop = fresh.drop;
        const database = await fresh.open();
        app = await buildApp(testConfig(), { database, logger: false });
        app.addHook('onClose', () => database.close());
      }
      mails = captureMails(app);
      staff = (await organisers(app)).a;
      for (let k = 0; k < 5; k++)
        runners.push(await createTestUser(app, { email: `closing${k}@example.test`, profileComplete: true }));
    });
    afterAll(async () => {
      await app?.close();
      await drop?.();
    });

    it('both races fill; runners join their waitlists (one in French, one in English)', async () => {
      const open = settings('2099-12-31T00:00:00.000Z');
      const saved = await call('PUT', `/api/entries/staff/events/${EVENT}/settings`, staff, open);
      expect(saved.statusCode, saved.body).toBe(200);
      // One runner holds each race's only place (an order awaiting payment counts as held).
      const held = await call('POST', `/api/entries/events/${EVENT}/orders`, runners[0]!, {
        runners: [runner(0, { email: runners[0]!.email })],
      });
      expect(held.statusCode, held.body).toBe(201);
      const marathon = await call('POST', `/api/entries/events/${EVENT}/orders`, runners[1]!, {
        runners: [runner(1, { email: runners[1]!.email, raceId: MARATHON, answers: { 'size-club': 'web' } })],
      });
      expect(marathon.statusCode, marathon.body).toBe(201);
      for (const [k, race, lang] of [
        [2, TEN_K, 'fr'],
        [3, TEN_K, 'en'],
        [4, MARATHON, 'en'],
      ] as const) {
        const res = await call('POST', `/api/entries/races/${race}/waitlist`, runners[k]!, { lang });
        expect(JSON.parse(res.body)).toMatchObject({ state: 'waiting' });
      }
    });

    it('a sweep while both races are open tells nobody', async () => {
      const before = mails.sent.length;
      expect(await sweep()).toMatchObject({ invited: 0, closed: 0 });
      expect(mails.sent.length).toBe(before);
      expect((await waitlistRows()).map((r) => r.state)).toEqual(['waiting', 'waiting', 'waiting']);
    });

    it('the organiser closes the 10 km: two sweeps tell each of its waiting runners once, in their language', async () => {
      const closesAt = new Date(Date.now() - 60_000).toISOString();
      const saved = await call(
        'PUT',
        `/api/entries/staff/events/${EVENT}/settings`,
        staff,
        settings(closesAt),
      );
      expect(saved.statusCode, saved.body).toBe(200);
      const before = mails.sent.length;
      expect(await sweep()).toMatchObject({ closed: 2 });
      expect(await sweep()).toMatchObject({ closed: 0 });
      const sent = mails.sent.slice(before);
      expect(sent.map((m) => m.to).sort()).toEqual([runners[2]!.email, runners[3]!.email].sort());
      const fr = sent.find((m) => m.to === runners[2]!.email);
      expect(fr?.subject).toBe('Demo City Run : les inscriptions au 10 km sont closes');
      expect(fr?.text).toContain('vous n’obtiendrez pas de place');
      const en = sent.find((m) => m.to === runners[3]!.email);
      expect(en?.subject).toBe('Demo City Run: entries to 10 km are closed');
      expect(en?.text).toContain('you will not get a place');
      // Stored in the outbox once each.
      const [stored] = await app.database.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM outbox WHERE recipient = ANY($1::text[])`,
        [[runners[2]!.email, runners[3]!.email]],
      );
      expect(stored!.n).toBe(2);
      // The 10 km's rows are marked; the marathon's runner (still open) waits, untold.
      expect(await waitlistRows()).toEqual([
        { email: runners[2]!.email, state: 'closed', closed: true },
        { email: runners[3]!.email, state: 'closed', closed: true },
        { email: runners[4]!.email, state: 'waiting', closed: false },
      ]);
      expect(sent.some((m) => m.to === runners[4]!.email)).toBe(false);
      // The organiser's list counts nobody waiting in the 10 km any more.
      const list = JSON.parse((await call('GET', `/api/entries/staff/events/${EVENT}/entries`, staff)).body);
      expect(list.races.find((r: { raceId: string }) => r.raceId === TEN_K).waiting).toBe(0);
      expect(list.races.find((r: { raceId: string }) => r.raceId === MARATHON).waiting).toBe(1);
    });

    it('each runner sees their waitlist place: closed in the 10 km, waiting first in the marathon', async () => {
      const mine = async (k: number) =>
        JSON.parse((await call('GET', '/api/entries/waitlists/mine', runners[k]!)).body);
      expect(await mine(2)).toEqual([
        expect.objectContaining({ raceId: TEN_K, raceName: '10 km', state: 'closed', position: null }),
      ]);
      expect(await mine(4)).toEqual([
        expect.objectContaining({ raceId: MARATHON, eventId: EVENT, state: 'waiting', position: 1 }),
      ]);
      expect(await mine(0)).toEqual([]);
      expect((await app.inject({ method: 'GET', url: '/api/entries/waitlists/mine' })).statusCode).toBe(401);
    });

    it('an invitation that runs out unused is told once, in the runner’s language, and passes on', async () => {
      // A French runner waits behind runner 4 (English) in the marathon.
      const fr = await createTestUser(app, { email: 'closing5@example.test', profileComplete: true });
      const joined = await call('POST', `/api/entries/races/${MARATHON}/waitlist`, fr, { lang: 'fr' });
      expect(JSON.parse(joined.body)).toMatchObject({ state: 'waiting' });
      // Runner 1's unpaid hold on the marathon's only place lapses: runner 4 is invited.
      await app.database.query(
        `UPDATE registration_entries SET hold_expires_at = now() - interval '1 minute' WHERE race_id = $1 AND state = 'held'`,
        [MARATHON],
      );
      await app.database.query(
        `UPDATE orders SET expires_at = now() - interval '1 minute'
          WHERE id IN (SELECT order_id FROM registration_entries WHERE race_id = $1)`,
        [MARATHON],
      );
      expect(await sweep()).toMatchObject({ expired: 1, invited: 1, lapsed: 0 });
      const lapse = () =>
        app.database.query(
          `UPDATE registration_waitlist SET invited_until = now() - interval '1 minute' WHERE race_id = $1 AND state = 'invited'`,
          [MARATHON],
        );
      // Runner 4 lets the invitation run out: told once; the place passes to the French runner.
      await lapse();
      let before = mails.sent.length;
      expect(await sweep()).toMatchObject({ invited: 1, lapsed: 1 });
      expect(await sweep()).toMatchObject({ invited: 0, lapsed: 0 });
      let sent = mails.sent.slice(before);
      const en = sent.find((m) => m.to === runners[4]!.email);
      expect(en?.subject).toMatch(/^Demo City Run: your invitation to .+ has run out$/);
      expect(en?.text).toContain('the place went to the next runner on the waitlist');
      expect(sent.filter((m) => m.to === runners[4]!.email)).toHaveLength(1);
      expect(sent.some((m) => m.to === fr.email && /invitation=/.test(m.text ?? ''))).toBe(true);
      // The French runner's runs out too: told in French, once; nobody is left to invite.
      await lapse();
      before = mails.sent.length;
      expect(await sweep()).toMatchObject({ invited: 0, lapsed: 1 });
      expect(await sweep()).toMatchObject({ lapsed: 0 });
      sent = mails.sent.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.to).toBe(fr.email);
      expect(sent[0]?.subject).toMatch(/^Demo City Run : votre invitation au .+ a expiré$/);
      expect(sent[0]?.text).toContain('la place est allée à la personne suivante');
      const rows = await app.database.query<{ email: string; state: string; told: boolean }>(
        `SELECT email, state, lapsed_told_at IS NOT NULL AS told FROM registration_waitlist WHERE race_id = $1 ORDER BY id`,
        [MARATHON],
      );
      expect(rows).toEqual([
        { email: runners[4]!.email, state: 'expired', told: true },
        { email: fr.email, state: 'expired', told: true },
      ]);
      // Each runner sees their invitation expired.
      const mine = JSON.parse((await call('GET', '/api/entries/waitlists/mine', fr)).body);
      expect(mine).toEqual([expect.objectContaining({ raceId: MARATHON, state: 'expired' })]);
    });

    it('a closed race takes nobody on its waitlist', async () => {
      const res = await call('POST', `/api/entries/races/${TEN_K}/waitlist`, runners[2]!, { lang: 'fr' });
      expect(res.statusCode).toBe(409);
      expect(JSON.parse(res.body).code).toBe('RACE_CLOSED');
      expect((await waitlistRows()).length).toBe(4);
    });
  },
);
