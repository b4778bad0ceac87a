import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryDatabase, testConfig } from '../../../test/helpers.ts';
import { captureMails, createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { buildApp } from '../../app.ts';
import type { Database } from '../../db/database.ts';
import { createRunnerWorld, type RunnerWorld } from './test-helpers.ts';

// Issue 40, My results with claims: a result timed without an account becomes mine only when
// proven (the code sent to the entry's e-mail, or the organiser's approval), never before.
describe('claims, my results, personal bests and the public runner page', () => {
  let database: Database;
  let app: FastifyInstance;
  let world: RunnerWorld;
  let jeanne: TestUser;
  let namesake: TestUser;
  let organiser: TestUser;
  let mails: ReturnType<typeof captureMails>;

  const as = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { authorization: user.authorization },
      ...(payload ? { payload } : {}),
    });
  const idOf = async (raceId: string, bib: string) =>
    (
      await database.query<{ id: string }>('SELECT id FROM participants WHERE race_id = $1 AND bib = $2', [
        raceId,
        bib,
      ])
    )[0]!.id;
  const profile = (user: TestUser, first: string, last: string, birth: string) =>
    database.query('UPDATE users SET first_name = $2, last_name = $3, birth_date = $4 WHERE sub = $1', [
      user.sub,
      first,
      last,
      birth,
    ]);

  beforeAll(async () => {
    database = await memoryDatabase();
    app = await buildApp(testConfig({ SEED_DEMO: 'false' }), { database, logger: false });
    world = await createRunnerWorld(database);
    jeanne = await createTestUser(app);
    await profile(jeanne, 'jeanne', 'DUPRE', '1990-04-02');
    namesake = await createTestUser(app);
    await profile(namesake, 'Jeanne', 'Dupré', '1971-01-01');
    organiser = await createTestUser(app, {
      memberships: [{ organisationId: world.newer.orgId, role: 'owner' }],
    });
    mails = captureMails(app);
  }, 120_000);
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('suggests results by name and birth year only, none of them mine yet', async () => {
    const res = await as(jeanne, 'GET', '/api/me/claims/suggestions');
    expect(res.statusCode).toBe(200);
    const found = res.json() as { eventName: string; method: string; maskedEmail: string | null }[];
    expect(found.map((s) => [s.eventName, s.method, s.maskedEmail])).toEqual([
      ['City 10K 2025', 'organiser', null],
      ['Foulées 2024', 'email', 'j•••@example.org'],
    ]);
    expect(JSON.stringify(found)).not.toContain('jeanne.entry');
    expect(((await as(namesake, 'GET', '/api/me/claims/suggestions')).json() as unknown[]).length).toBe(0);
    expect((await as(jeanne, 'GET', '/api/me/results')).json()).toMatchObject({ results: [] });
  });

  it('proves the older result by the e-mail code; a wrong code or another account changes nothing', async () => {
    const older = await idOf(world.older.raceId, '1');
    // Not suggested to the namesake born in 1971: the id alone reaches nothing.
    const stranger = await as(namesake, 'POST', '/api/me/claims', { participantId: older });
    expect(stranger.statusCode).toBe(404);
    expect(mails.sent.length).toBe(0);

    const opened = await as(jeanne, 'POST', '/api/me/claims', { participantId: older });
    expect(opened.statusCode).toBe(201);
    const claim = opened.json() as { id: string; method: string };
    expect(claim.method).toBe('email');
    expect(mails.sent.length).toBe(1);
    const mail = mails.sent[0]!;
    expect(mail.to).toBe('jeanne.entry@example.org');
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
    expect(mail.link).toContain(`claim=${claim.id}`);
    // The outbox keeps the mail with its code masked.
    const stored = await database.query<{ text_body: string }>('SELECT text_body FROM outbox');
    expect(stored.at(-1)!.text_body).not.toContain(code);

    const wrong = await as(jeanne, 'POST', `/api/me/claims/${claim.id}/confirm`, {
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'CLAIM_CODE_INVALID' });
    const byOther = await as(namesake, 'POST', `/api/me/claims/${claim.id}/confirm`, { code });
    expect(byOther.statusCode).toBe(404);
    const [still] = await database.query<{ account_id: string | null }>(
      'SELECT account_id FROM participants WHERE id = $1',
      [older],
    );
    expect(still!.account_id).toBeNull();

    expect((await as(jeanne, 'POST', `/api/me/claims/${claim.id}/confirm`, { code })).statusCode).toBe(204);
    const mine = (await as(jeanne, 'GET', '/api/me/results')).json() as {
      results: { eventName: string; netMs: number; rankOverall: number; splits: { netMs: number }[] }[];
    };
    expect(mine.results).toHaveLength(1);
    expect(mine.results[0]).toMatchObject({ eventName: 'Foulées 2024', netMs: 52 * 60_000, rankOverall: 2 });
    expect(mine.results[0]!.splits.map((s) => s.netMs)).toEqual([26 * 60_000, 52 * 60_000]);
    // Used once: the same code again answers 404.
    expect((await as(jeanne, 'POST', `/api/me/claims/${claim.id}/confirm`, { code })).statusCode).toBe(404);
  });

  it('the organiser decides a claim on an entry without an e-mail (audited)', async () => {
    const newer = await idOf(world.newer.raceId, '1');
    const opened = await as(jeanne, 'POST', '/api/me/claims', { participantId: newer });
    expect(opened.json()).toMatchObject({ method: 'organiser' });
    const list = await as(organiser, 'GET', `/api/console/events/${world.newer.eventId}/claims`);
    expect(list.statusCode).toBe(200);
    const [pending] = list.json() as { id: string; claimantEmail: string; lastName: string }[];
    expect(pending).toMatchObject({ claimantEmail: jeanne.email, lastName: 'Dupré' });
    // Another organisation's organiser never sees it.
    const other = await createTestUser(app, {
      memberships: [{ organisationId: world.older.orgId, role: 'owner' }],
    });
    const refused = await as(
      other,
      'POST',
      `/api/console/events/${world.newer.eventId}/claims/${pending!.id}/decision`,
      {
        approve: true,
      },
    );
    expect(refused.statusCode).toBe(403);

    const decided = await as(
      organiser,
      'POST',
      `/api/console/events/${world.newer.eventId}/claims/${pending!.id}/decision`,
      { approve: true },
    );
    expect(decided.statusCode).toBe(204);
    const audit = await database.query<{ action: string; event_id: string }>(
      `SELECT action, event_id FROM audit_trail WHERE subject = 'participant' AND subject_id = $1`,
      [newer],
    );
    expect(audit).toEqual([{ action: 'claim.approved', event_id: world.newer.eventId }]);
  });

  it('lists both results with a personal best per distance', async () => {
    const mine = (await as(jeanne, 'GET', '/api/me/results')).json() as {
      results: { eventName: string; organisationName: string }[];
      personalBests: { distanceM: number; netMs: number; eventName: string }[];
    };
    expect(mine.results.map((r) => [r.eventName, r.organisationName])).toEqual([
      ['City 10K 2025', 'Run Club'],
      ['Foulées 2024', 'Les Foulées'],
    ]);
    expect(mine.personalBests).toEqual([
      expect.objectContaining({ distanceM: 10_000, netMs: 49 * 60_000, eventName: 'City 10K 2025' }),
    ]);
    expect(((await as(jeanne, 'GET', '/api/me/claims/suggestions')).json() as unknown[]).length).toBe(0);
  });

  it('the public runner page is off by default, opt-in with a short link, without hidden results', async () => {
    expect((await as(jeanne, 'GET', '/api/me/results')).json()).toMatchObject({ publicSlug: null });
    const on = await as(jeanne, 'PUT', '/api/me/public-page', { enabled: true });
    const { publicSlug } = on.json() as { publicSlug: string };
    expect(publicSlug).toMatch(/^[a-z2-9]{8}$/);
    const page = await app.inject(`/api/runners/${publicSlug}`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ name: 'jeanne DUPRE', personalBests: [{ distanceM: 10_000 }] });
    expect((page.json() as { results: unknown[] }).results).toHaveLength(2);

    const [newer] = (await as(jeanne, 'GET', '/api/me/results')).json().results as {
      participantId: string;
    }[];
    await as(jeanne, 'PUT', `/api/me/results/${newer!.participantId}/privacy`, { hidden: true });
    expect(
      ((await app.inject(`/api/runners/${publicSlug}`)).json() as { results: unknown[] }).results,
    ).toHaveLength(1);

    await as(jeanne, 'PUT', '/api/me/public-page', { enabled: false });
    expect((await app.inject(`/api/runners/${publicSlug}`)).statusCode).toBe(404);
    // On again: the same link.
    expect((await as(jeanne, 'PUT', '/api/me/public-page', { enabled: true })).json()).toEqual({
      publicSlug,
    });
  });
});
