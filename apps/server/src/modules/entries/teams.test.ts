import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { captureMails, createTestUser, type TestUser } from '../../../test/identity-helpers.ts';
import { startMollieStub } from '../../../test/mollie-stub.ts';
import { organisers } from '../content/test-helpers.ts';
import { EVENT, MARATHON, payWithMollie, registrationSettings, runner, TEN_K } from './test-helpers.ts';

/**
 * Team entries through the API (issue 38): a captain names a relay team, members join with its
 * link (a link opened on another event or for another race refused on the `team` field, nothing
 * changed), each pays their own or the captain pays for all; places are held and paid like any
 * entry, the team's size is never passed, and the team's name is the members' club on the start list.
 */
/** Waits (up to 5 s) for a value: mails go out after the payment's transaction. */
async function waitFor<T>(find: () => T | undefined): Promise<T> {
  const until = Date.now() + 5000;
  for (;;) {
    const found = find();
    if (found) return found;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('team entries', () => {
  const mollie = startMollieStub();
  let app: FastifyInstance;
  let staff: { authorization: string };
  const people: TestUser[] = [];
  let otherEvent: string;
  let mails: ReturnType<typeof captureMails>;
  const tlsBefore = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

  beforeAll(async () => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const url = await mollie.listen();
    app = await buildTestApp({ MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz', MOLLIE_API_URL: url });
    staff = (await organisers(app)).a;
    mails = captureMails(app);
    for (let k = 0; k < 7; k++)
      people.push(await createTestUser(app, { email: `member${k}@example.test`, profileComplete: true }));
    const res = await app.inject({
      method: 'PUT',
      url: `/api/entries/staff/events/${EVENT}/settings`,
      headers: staff,
      payload: {
        ...registrationSettings({ places: 100 }),
        questions: [
          ...(registrationSettings().questions ?? []),
          { key: 'shirt-name', label: 'Name on the bib', kind: 'text', public: true },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    // Another public event of the same organisation, whose page a team's link may be opened on.
    otherEvent = 'other-event-38';
    await app.database.query(
      `INSERT INTO events (id, organisation_id, name, place, start_date, end_date, status, visibility)
       SELECT $2, organisation_id, 'Other event', place, start_date, end_date, status, 'public' FROM events WHERE id = $1`,
      [EVENT, otherEvent],
    );
  });
  afterAll(async () => {
    await app.close();
    await mollie.close();
    if (tlsBefore === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tlsBefore;
  });

  const member = (n: number) =>
    runner(n, {
      raceId: MARATHON,
      email: people[n]!.email,
      firstName: `Member${n}`,
      answers: { 'size-club': 'web', 'shirt-name': `M${n}` },
    });
  const call = (who: TestUser | null, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: who ? { authorization: who.authorization } : {},
      ...(payload ? { payload: payload as object } : {}),
    });
  const counts = async () =>
    (
      await app.database.query<{ entries: number; members: number; orders: number; held: number }>(
        `SELECT (SELECT count(*) FROM registration_entries)::int AS entries,
                (SELECT count(*) FROM registration_team_members)::int AS members,
                (SELECT count(*) FROM orders)::int AS orders,
                (SELECT held FROM registration_races WHERE race_id = $1) AS held`,
        [MARATHON],
      )
    )[0]!;

  it('a captain names a team for a race that takes teams; a race without teams and a name taken are refused on their field', async () => {
    const noTeams = await call(people[0]!, 'POST', `/api/entries/events/${EVENT}/teams`, {
      raceId: TEN_K,
      name: 'Ten',
      pays: 'each',
    });
    expect(noTeams.statusCode).toBe(400);
    expect(JSON.parse(noTeams.body).errors).toEqual([{ field: 'raceId', message: 'TEAMS_NOT_TAKEN' }]);
    const made = await call(people[0]!, 'POST', `/api/entries/events/${EVENT}/teams`, {
      raceId: MARATHON,
      name: 'Les Gazelles',
      pays: 'each',
    });
    expect(made.statusCode).toBe(201);
    const team = JSON.parse(made.body);
    expect(team).toMatchObject({
      name: 'Les Gazelles',
      raceId: MARATHON,
      pays: 'each',
      teamSize: 3,
      captain: true,
      members: [],
    });
    expect(team.token).toMatch(/^T[0-9A-Za-z_-]{22}$/);
    const twice = await call(people[1]!, 'POST', `/api/entries/events/${EVENT}/teams`, {
      raceId: MARATHON,
      name: 'les gazelles',
      pays: 'captain',
    });
    expect(twice.statusCode).toBe(409);
    expect(JSON.parse(twice.body).errors).toEqual([{ field: 'name', message: 'TEAM_NAME_TAKEN' }]);
    // The link's page is public; a signed-out visitor is not the captain.
    const seen = JSON.parse((await call(null, 'GET', `/api/entries/teams/${team.token}`)).body);
    expect(seen).toMatchObject({ name: 'Les Gazelles', captain: false, eventId: EVENT });
  });

  it('each pays their own: a link of another event or race is refused on its field; a member’s place is held, paid and on the start list under the team', async () => {
    const team = JSON.parse(
      (
        await call(people[0]!, 'POST', `/api/entries/events/${EVENT}/teams`, {
          raceId: MARATHON,
          name: 'Relais du Nord',
          pays: 'each',
        })
      ).body,
    );
    const before = await counts();
    const otherEventJoin = await call(
      people[1]!,
      'POST',
      `/api/entries/events/${otherEvent}/teams/${team.token}/join`,
      { runners: [member(1)] },
    );
    expect(otherEventJoin.statusCode).toBe(400);
    expect(JSON.parse(otherEventJoin.body)).toMatchObject({
      code: 'TEAM_OTHER_EVENT',
      errors: [{ field: 'team', message: 'TEAM_OTHER_EVENT' }],
    });
    const otherRace = await call(
      people[1]!,
      'POST',
      `/api/entries/events/${EVENT}/teams/${team.token}/join`,
      {
        runners: [runner(1, { email: people[1]!.email })],
      },
    );
    expect(otherRace.statusCode).toBe(400);
    expect(JSON.parse(otherRace.body).errors).toContainEqual({ field: 'team', message: 'TEAM_OTHER_RACE' });
    expect(await counts()).toEqual(before);

    const joined = await call(people[1]!, 'POST', `/api/entries/events/${EVENT}/teams/${team.token}/join`, {
      runners: [member(1)],
      lang: 'fr',
    });
    expect(joined.statusCode).toBe(201);
    const { order, team: after } = JSON.parse(joined.body);
    expect(order).toMatchObject({ amountCents: 4500, state: 'awaiting_payment' });
    expect(after.members).toEqual([{ name: 'Member1 Test', state: 'held' }]);
    expect((await counts()).held).toBe(before.held + 1);

    const pay = await payWithMollie(app, mollie, people[1]!.authorization, order.orderId);
    await pay.deliver();
    const view = JSON.parse((await call(null, 'GET', `/api/entries/teams/${team.token}`)).body);
    expect(view.members).toEqual([{ name: 'Member1 Test', state: 'confirmed' }]);
    // The start list's participant: the team's name as the club.
    const [p] = await app.database.query<{ club: string }>(
      `SELECT club FROM participants WHERE race_id = $1 AND first_name = 'Member1' AND deleted_at IS NULL`,
      [MARATHON],
    );
    expect(p?.club).toBe('Relais du Nord');
    // The entries' start list: the team, and the question shown on the start list as a column
    // (a private one never).
    const list = JSON.parse((await call(null, 'GET', `/api/entries/events/${EVENT}/start-list`)).body);
    expect(list.columns).toEqual([{ key: 'shirt-name', label: 'Name on the bib', kind: 'text' }]);
    const marathon = list.races.find((r: { raceId: string }) => r.raceId === MARATHON);
    expect(marathon.runners).toContainEqual({
      bib: null,
      name: 'Member1 Test',
      club: 'Relais du Nord',
      team: 'Relais du Nord',
      answers: { 'shirt-name': 'M1' },
    });
    expect(JSON.stringify(list)).not.toContain('size-club');
    // The confirmation, in the runner's language, carries the entry code as a QR code image and
    // the race day as a calendar file.
    const mail = await waitFor(() =>
      mails.sent.find((m) => m.to === people[1]!.email && /confirm/.test(m.subject)),
    );
    expect(mail.subject).toContain('confirmée');
    const files = (
      mail as { attachments?: { filename: string; contentType: string; content: Buffer | string }[] }
    ).attachments;
    expect(files?.map((f) => f.contentType)).toEqual(['image/png', 'text/calendar; charset=utf-8']);
    expect(Buffer.from(files![0]!.content).subarray(1, 4).toString()).toBe('PNG');
    expect(String(files?.[1]?.content)).toMatch(/BEGIN:VCALENDAR[\s\S]*DTSTART;VALUE=DATE:\d{8}/);
  });

  it('the captain pays for all: members wait, the team’s size is never passed, the captain’s one order holds their places', async () => {
    const team = JSON.parse(
      (
        await call(people[2]!, 'POST', `/api/entries/events/${EVENT}/teams`, {
          raceId: MARATHON,
          name: 'Acme Corp',
          pays: 'captain',
        })
      ).body,
    );
    const join = (n: number) =>
      call(people[n]!, 'POST', `/api/entries/events/${EVENT}/teams/${team.token}/join`, {
        runners: [member(n)],
      });
    // A member's field error comes back on its field (the waiver), nothing kept.
    const noWaiver = await call(people[3]!, 'POST', `/api/entries/events/${EVENT}/teams/${team.token}/join`, {
      runners: [{ ...member(3), waiverVersion: null }],
    });
    expect(noWaiver.statusCode).toBe(400);
    expect(JSON.parse(noWaiver.body).errors).toContainEqual({
      field: 'runners.0.waiver',
      message: 'WAIVER_NOT_ACCEPTED',
    });
    const before = await counts();
    const answers = await Promise.all([2, 3, 4, 5].map(join));
    const statuses = answers.map((a) => a.statusCode).sort();
    // Three places in the team: one of four joining at once is refused.
    expect(statuses).toEqual([201, 201, 201, 409]);
    const refused = answers.find((a) => a.statusCode === 409)!;
    expect(JSON.parse(refused.body).errors).toEqual([{ field: 'team', message: 'TEAM_FULL' }]);
    const mid = await counts();
    expect(mid).toMatchObject({
      entries: before.entries,
      orders: before.orders,
      members: before.members + 3,
    });

    const captainView = JSON.parse((await call(people[2]!, 'GET', `/api/entries/teams/${team.token}`)).body);
    expect(captainView.captain).toBe(true);
    expect(captainView.dueCents).toBe(3 * 4500);
    expect(captainView.members.every((m: { state: string }) => m.state === 'waiting')).toBe(true);

    const notCaptain = await call(people[3]!, 'POST', `/api/entries/teams/${team.token}/order`, {});
    expect(notCaptain.statusCode).toBe(404);
    const ordered = await call(people[2]!, 'POST', `/api/entries/teams/${team.token}/order`, { lang: 'en' });
    expect(ordered.statusCode).toBe(201);
    const order = JSON.parse(ordered.body);
    expect(order).toMatchObject({ amountCents: 3 * 4500, state: 'awaiting_payment' });
    expect(order.entries).toHaveLength(3);
    expect((await counts()).held).toBe(mid.held + 3);
    const again = await call(people[2]!, 'POST', `/api/entries/teams/${team.token}/order`, { lang: 'en' });
    expect(again.statusCode).toBe(409);

    const pay = await payWithMollie(app, mollie, people[2]!.authorization, order.orderId);
    await pay.deliver();
    const after = JSON.parse((await call(people[2]!, 'GET', `/api/entries/teams/${team.token}`)).body);
    expect(after.members.map((m: { state: string }) => m.state)).toEqual([
      'confirmed',
      'confirmed',
      'confirmed',
    ]);
    expect(after.dueCents).toBe(0);
    // Each member sees their own entry in My entries (made with their account, paid by the captain).
    const joinedMember = answers.findIndex((a) => a.statusCode === 201 && a !== answers[0]);
    const who = people[[2, 3, 4, 5][joinedMember]!]!;
    const mine = JSON.parse((await call(who, 'GET', '/api/entries/mine')).body);
    expect(mine.map((e: { raceId: string; state: string }) => [e.raceId, e.state])).toContainEqual([
      MARATHON,
      'confirmed',
    ]);
  });
});
