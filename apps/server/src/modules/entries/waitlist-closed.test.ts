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
      return JSON.parse(res.body) as { expired: number; invited: number; closed: number };
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

    it('a closed race takes nobody on its waitlist', async () => {
      const res = await call('POST', `/api/entries/races/${TEN_K}/waitlist`, runners[2]!, { lang: 'fr' });
      expect(res.statusCode).toBe(409);
      expect(JSON.parse(res.body).code).toBe('RACE_CLOSED');
      expect((await waitlistRows()).length).toBe(3);
    });
  },
);
