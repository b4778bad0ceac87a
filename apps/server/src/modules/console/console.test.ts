import { categoriesFromTemplate } from '@tempora/domain';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { captureMails, createTestUser, type TestUser } from '../../../test/identity-helpers.ts';

/** A GPX track due north from Brussels: `km` kilometres, a vertex every 100 m. */
export function straightGpx(km: number): string {
  const pts = Array.from({ length: km * 10 + 1 }, (_, k) => {
    const lat = 50.8 + (k * 100) / 111_195;
    return `<trkpt lat="${lat.toFixed(7)}" lon="4.35"><ele>50</ele></trkpt>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
  <trk><name>Course</name><trkseg>${pts.join('')}</trkseg></trk>
</gpx>`;
}

describe('organiser console API', () => {
  let app: FastifyInstance;
  let owner: TestUser;
  let staff: TestUser;
  let timekeeper: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let otherOrgId: string;
  let mails: ReturnType<typeof captureMails>;

  const call = async (
    method: InjectOptions['method'],
    url: string,
    who: TestUser | null,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await app.inject({
      method,
      url,
      headers: { ...(who ? { authorization: who.authorization } : {}), ...headers },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
    return {
      status: res.statusCode,
      // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field below
      body: res.body ? (res.json() as any) : null,
      type: String(res.headers['content-type'] ?? ''),
    };
  };

  /** 401 anonymous, 404 another organisation, 403 the given members; nothing else checked. */
  async function expectGuarded(
    method: InjectOptions['method'],
    url: string,
    payload: unknown,
    forbidden: TestUser[],
  ) {
    expect((await call(method, url, null, payload)).status).toBe(401);
    expect((await call(method, url, outsider, payload)).status).toBe(404);
    for (const who of forbidden) {
      const res = await call(method, url, who, payload);
      expect(res.status, `${method} ${url} as ${who.email}`).toBe(403);
      expect(res.type).toContain('application/problem+json');
    }
  }

  beforeAll(async () => {
    app = await buildTestApp({ SEED_DEMO: 'false', PUBLIC_URL: 'https://tempora.example' });
    mails = captureMails(app);
    owner = await createTestUser(app, { email: 'owner@example.test' });
    outsider = await createTestUser(app, { email: 'outsider@example.test' });
  });
  afterAll(() => app.close());

  describe('organisations and members', () => {
    it('refuses anonymous callers and invalid input with field errors', async () => {
      expect((await call('GET', '/api/console/organisations', null)).status).toBe(401);
      expect((await call('POST', '/api/console/organisations', null, { name: 'X' })).status).toBe(401);
      const bad = await call('POST', '/api/console/organisations', owner, {
        name: '',
        country: 'Belgium',
        contactEmail: 'nope',
      });
      expect(bad.status).toBe(400);
      expect(bad.type).toContain('application/problem+json');
      expect(bad.body.code).toBe('VALIDATION_FAILED');
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'contactEmail',
        'country',
        'name',
      ]);
      expect((await call('GET', '/api/console/organisations', owner)).body).toEqual([]);
    });

    it('makes the creator the owner; others do not see it', async () => {
      const created = await call('POST', '/api/console/organisations', owner, {
        name: 'Brussels Running Club',
        country: 'BE',
        contactEmail: 'info@brc.example',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'Brussels Running Club',
        slug: 'brussels-running-club',
        role: 'owner',
        members: 1,
      });
      orgId = created.body.id;
      const other = await call('POST', '/api/console/organisations', outsider, {
        name: 'Brussels Running Club',
        country: 'BE',
        contactEmail: 'x@y.example',
      });
      expect(other.body.slug).toBe('brussels-running-club-2');
      otherOrgId = other.body.id;
      expect(
        (await call('GET', '/api/console/organisations', owner)).body.map((o: { id: string }) => o.id),
      ).toEqual([orgId]);
      expect((await call('GET', `/api/console/organisations/${orgId}`, outsider)).status).toBe(404);
      expect((await call('GET', `/api/console/organisations/${orgId}`, owner)).body.role).toBe('owner');
      staff = await createTestUser(app, {
        email: 'staff@example.test',
        memberships: [{ organisationId: orgId, role: 'staff' }],
      });
      timekeeper = await createTestUser(app, {
        email: 'tk@example.test',
        memberships: [{ organisationId: orgId, role: 'timekeeper' }],
      });
      expect((await call('GET', `/api/console/organisations/${orgId}`, timekeeper)).body.role).toBe(
        'timekeeper',
      );
    });

    it('lets only owners edit the organisation', async () => {
      await expectGuarded('PATCH', `/api/console/organisations/${orgId}`, { name: 'BRC' }, [
        staff,
        timekeeper,
      ]);
      const bad = await call('PATCH', `/api/console/organisations/${orgId}`, owner, { country: 'be' });
      expect(bad.body.errors[0].field).toBe('country');
      const ok = await call('PATCH', `/api/console/organisations/${orgId}`, owner, { name: 'BRC' });
      expect(ok.body.name).toBe('BRC');
    });

    it('invites by e-mail with a single-use link the invitee accepts', async () => {
      await expectGuarded(
        'POST',
        `/api/console/organisations/${orgId}/invitations`,
        { email: 'new@example.test', role: 'staff' },
        [staff, timekeeper],
      );
      const bad = await call('POST', `/api/console/organisations/${orgId}/invitations`, owner, {
        email: 'x',
        role: 'boss',
      });
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'role']);
      const sent = await call('POST', `/api/console/organisations/${orgId}/invitations`, owner, {
        email: 'New@Example.test',
        role: 'staff',
        lng: 'en',
      });
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({
        email: 'new@example.test',
        role: 'staff',
        invitedBy: 'owner@example.test',
      });
      const mail = mails.sent.at(-1)!;
      expect(mail.to).toBe('new@example.test');
      const token = /#\/console\/invitations\/([\w-]+)/.exec(mail.text)![1]!;
      expect(mail.link).toBe(`https://tempora.example/#/console/invitations/${token}`);
      // The stored copy (dev/outbox, database) never holds the token (issue 13).
      const [stored] = await app.outbox.list(1);
      expect(stored!.text).not.toContain(token);
      expect((await call('GET', `/api/console/organisations/${orgId}/invitations`, owner)).body).toHaveLength(
        1,
      );
      expect((await call('GET', `/api/console/organisations/${orgId}/invitations`, staff)).status).toBe(403);

      // Issue 43: the link's holder reads it signed out (the sign-in page names it); an unknown
      // token is still nothing.
      const signedOut = await call('GET', `/api/console/invitations/${token}`, null);
      expect(signedOut.body).toMatchObject({
        organisation: { name: 'BRC' },
        role: 'staff',
        state: 'pending',
      });
      expect((await call('GET', '/api/console/invitations/not-a-real-token-at-all', null)).status).toBe(404);
      const preview = await call('GET', `/api/console/invitations/${token}`, outsider);
      expect(preview.body).toMatchObject({ organisation: { name: 'BRC' }, role: 'staff', state: 'pending' });
      const wrong = await call('POST', `/api/console/invitations/${token}/accept`, outsider);
      expect(wrong.status).toBe(403);
      expect(wrong.body.code).toBe('INVITATION_OTHER_EMAIL');
      const invitee = await createTestUser(app, { email: 'new@example.test' });
      const accepted = await call('POST', `/api/console/invitations/${token}/accept`, invitee);
      expect(accepted.status).toBe(200);
      expect(accepted.body).toMatchObject({ id: orgId, role: 'staff' });
      expect((await call('POST', `/api/console/invitations/${token}/accept`, invitee)).body.code).toBe(
        'INVITATION_USED',
      );
      expect((await call('GET', `/api/console/invitations/not-a-token-at-all-12345`, invitee)).status).toBe(
        404,
      );
      expect((await call('GET', `/api/console/invitations/x`, invitee)).status).toBe(400);
      const again = await call('POST', `/api/console/organisations/${orgId}/invitations`, owner, {
        email: 'new@example.test',
        role: 'staff',
      });
      expect(again.body.code).toBe('ALREADY_MEMBER');
    });

    it('revokes a pending invitation', async () => {
      const sent = await call('POST', `/api/console/organisations/${orgId}/invitations`, owner, {
        email: 'later@example.test',
        role: 'timekeeper',
      });
      const token = /#\/console\/invitations\/([\w-]+)/.exec(mails.sent.at(-1)!.text)![1]!;
      await expectGuarded(
        'DELETE',
        `/api/console/organisations/${orgId}/invitations/${sent.body.id}`,
        undefined,
        [staff, timekeeper],
      );
      expect(
        (await call('DELETE', `/api/console/organisations/${orgId}/invitations/${sent.body.id}`, owner))
          .status,
      ).toBe(204);
      const later = await createTestUser(app, { email: 'later@example.test' });
      expect((await call('POST', `/api/console/invitations/${token}/accept`, later)).body.code).toBe(
        'INVITATION_REVOKED',
      );
    });

    it('changes roles and removes members, never the last owner', async () => {
      const members = (await call('GET', `/api/console/organisations/${orgId}/members`, timekeeper)).body as {
        sub: string;
        role: string;
      }[];
      expect(members.map((m) => m.role).sort()).toEqual(['owner', 'staff', 'staff', 'timekeeper']);
      expect((await call('GET', `/api/console/organisations/${orgId}/members`, outsider)).status).toBe(404);
      const url = `/api/console/organisations/${orgId}/members/${timekeeper.sub}`;
      await expectGuarded('PATCH', url, { role: 'staff' }, [staff, timekeeper]);
      expect((await call('PATCH', url, owner, { role: 'chief' })).body.errors[0].field).toBe('role');
      expect(
        (
          await call('PATCH', `/api/console/organisations/${orgId}/members/${owner.sub}`, owner, {
            role: 'staff',
          })
        ).body.code,
      ).toBe('LAST_OWNER');
      expect(
        (await call('DELETE', `/api/console/organisations/${orgId}/members/${owner.sub}`, owner)).body.code,
      ).toBe('LAST_OWNER');
      expect((await call('PATCH', url, owner, { role: 'staff' })).body.role).toBe('staff');
      expect((await call('PATCH', url, owner, { role: 'timekeeper' })).body.role).toBe('timekeeper');
      const invitee = members.find((m) => ![owner.sub, staff.sub, timekeeper.sub].includes(m.sub))!;
      await expectGuarded('DELETE', `/api/console/organisations/${orgId}/members/${invitee.sub}`, undefined, [
        staff,
        timekeeper,
      ]);
      expect(
        (await call('DELETE', `/api/console/organisations/${orgId}/members/${invitee.sub}`, owner)).status,
      ).toBe(204);
      expect((await call('GET', `/api/console/organisations/${orgId}/members`, owner)).body).toHaveLength(3);
    });
  });

  describe('events, contexts, races', () => {
    const event = {
      id: 'brussels-marathon-2026',
      name: 'Brussels Marathon',
      startDate: '2026-10-04',
      endDate: '2026-10-04',
      place: 'Brussels',
      placeLat: 50.8467,
      placeLon: 4.3525,
      timeZone: 'Europe/Brussels',
    };

    it('creates a draft event that spectators cannot see', async () => {
      await expectGuarded('POST', `/api/console/organisations/${orgId}/events`, event, [timekeeper]);
      const bad = await call('POST', `/api/console/organisations/${orgId}/events`, staff, {
        ...event,
        timeZone: 'Mars/Olympus',
        endDate: '2026-10-01',
        placeLon: null,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'endDate',
        'placeLon',
        'timeZone',
      ]);
      const dates = await call('POST', `/api/console/organisations/${orgId}/events`, staff, {
        ...event,
        endDate: '2026-10-01',
      });
      expect(dates.body.errors[0].field).toBe('endDate');
      const created = await call('POST', `/api/console/organisations/${orgId}/events`, staff, event);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: event.id,
        visibility: 'draft',
        status: 'upcoming',
        timeZone: 'Europe/Brussels',
        passings: 0,
      });
      const generated = await call('POST', `/api/console/organisations/${orgId}/events`, owner, {
        ...event,
        id: undefined,
        name: 'Trail des Fagnes',
      });
      expect(generated.body.id).toBe('trail-des-fagnes-2026');
      // A name that says its year does not get it twice (issue 29).
      const named = await call('POST', `/api/console/organisations/${orgId}/events`, owner, {
        ...event,
        id: undefined,
        name: 'Marathon 2026 de Namur',
      });
      expect(named.body.id).toBe('marathon-2026-de-namur');
      expect((await call('DELETE', `/api/console/events/${named.body.id}`, owner)).status).toBe(204);
      expect((await call('GET', `/api/console/organisations/${orgId}/events`, timekeeper)).body).toHaveLength(
        2,
      );

      expect((await call('GET', '/api/events', null)).body.map((e: { id: string }) => e.id)).not.toContain(
        event.id,
      );
      expect((await call('GET', `/api/events/${event.id}`, null)).status).toBe(404);
      expect((await call('GET', `/api/events/${event.id}`, outsider)).status).toBe(404);
      // Issue 29: the organisers' preview of the public pages says the event is a draft.
      const preview = await call('GET', `/api/events/${event.id}`, timekeeper);
      expect(preview.status).toBe(200);
      expect(preview.body.draft).toBe(true);
      expect((await call('GET', `/api/results/${event.id}/reportlist`, null)).status).toBe(404);
      expect((await call('GET', `/api/console/events/${event.id}`, outsider)).status).toBe(404);
    });

    it('edits an event: details, status moves, branding, visibility', async () => {
      const url = `/api/console/events/${event.id}`;
      await expectGuarded('PATCH', url, { name: 'x' }, [timekeeper]);
      expect(
        (await call('PATCH', url, staff, { accentColor: 'red', visibility: 'hidden' })).body.errors
          .map((e: { field: string }) => e.field)
          .sort(),
      ).toEqual(['accentColor', 'visibility']);
      const edited = await call('PATCH', url, staff, {
        accentColor: '#ff6600',
        tagline: 'Run the capital',
        status: 'live',
      });
      expect(edited.body).toMatchObject({
        accentColor: '#ff6600',
        tagline: 'Run the capital',
        status: 'live',
      });
      expect((await call('PATCH', url, staff, { status: 'finished' })).body.status).toBe('finished');
      expect((await call('PATCH', url, staff, { status: 'upcoming' })).body.errors[0].field).toBe('status');
      expect((await call('PATCH', url, staff, { status: 'live' })).body.status).toBe('live');
      expect((await call('PATCH', url, staff, { status: 'upcoming', accentColor: null })).body).toMatchObject(
        { status: 'upcoming', accentColor: null },
      );
    });

    it('uploads a logo served with the event', async () => {
      const url = `/api/console/events/${event.id}/logo`;
      const png = await (await import('sharp'))
        .default({ create: { width: 64, height: 32, channels: 3, background: '#39aade' } })
        .png()
        .toBuffer();
      expect((await call('PUT', url, null, png, { 'content-type': 'image/png' })).status).toBe(401);
      expect((await call('PUT', url, timekeeper, png, { 'content-type': 'image/png' })).status).toBe(403);
      expect(
        (await call('PUT', url, staff, Buffer.from('not an image'), { 'content-type': 'image/png' })).body
          .code,
      ).toBe('IMAGE_REQUIRED');
      const up = await call('PUT', url, staff, png, { 'content-type': 'image/png' });
      expect(up.body.logoUrl).toMatch(/^\/api\/events\/brussels-marathon-2026\/logo\?v=/);
      const logo = await app.inject({
        url: up.body.logoUrl,
        headers: { authorization: staff.authorization },
      });
      expect(logo.headers['content-type']).toBe('image/webp');
      expect((await app.inject({ url: up.body.logoUrl })).statusCode).toBe(404); // draft
    });

    it('adds contexts', async () => {
      const url = `/api/console/events/${event.id}/contexts`;
      await expectGuarded('POST', url, { db: 'bm2026', name: 'Marathon' }, [timekeeper]);
      expect((await call('POST', url, staff, { db: 'bad db!', name: '' })).body.errors).toHaveLength(2);
      expect((await call('POST', url, staff, { db: 'bm2026', name: 'Marathon' })).status).toBe(201);
      expect((await call('POST', url, staff, { db: 'bm2026', name: 'Again' })).body.code).toBe(
        'CONTEXT_EXISTS',
      );
      expect(
        (await call('PATCH', '/api/console/contexts/bm2026', staff, { name: 'Marathon 2026' })).body.name,
      ).toBe('Marathon 2026');
      await expectGuarded('PATCH', '/api/console/contexts/bm2026', { name: 'x' }, [timekeeper]);
      expect((await call('POST', url, staff, { db: 'spare', name: 'Spare' })).status).toBe(201);
      await expectGuarded('DELETE', '/api/console/contexts/spare', undefined, [timekeeper]);
      expect((await call('DELETE', '/api/console/contexts/spare', staff)).status).toBe(204);
    });

    it('creates a race with its gun time in the event zone and the standard reports', async () => {
      const url = '/api/console/contexts/bm2026/races';
      const race = {
        id: 'marathon',
        name: 'Marathon',
        date: '2026-10-04',
        distanceM: 42195,
        startType: 'mass',
        gunTime: '09:30',
      };
      await expectGuarded('POST', url, race, [timekeeper]);
      const bad = await call('POST', url, staff, {
        ...race,
        gunTime: '25:00',
        startType: 'relay',
        distanceM: -1,
      });
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'distanceM',
        'gunTime',
        'startType',
      ]);
      const created = await call('POST', url, staff, race);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        gunTime: '09:30:00',
        gunTimeMs: Date.UTC(2026, 9, 4, 7, 30),
        timeZone: 'Europe/Brussels',
      });
      expect(created.body.points.map((p: { key: string }) => p.key)).toEqual(['start', 'finish']);
      expect(created.body.points[0].name).toEqual({ en: 'Start', fr: 'Départ' });
      const reports = await call('GET', '/api/console/races/marathon/reports', timekeeper);
      expect(reports.body.map((r: { key: string }) => r.key)).toEqual([
        'LIVE1',
        'LIVE2',
        'LIVE3',
        'LAST',
        'START',
      ]);
      expect((await call('GET', '/api/console/races/marathon/reports', outsider)).status).toBe(404);
      const waves = await call('POST', url, staff, { ...race, id: 'waves', startType: 'waves', waves: [] });
      expect(waves.body.errors[0].field).toBe('waves');
      const edited = await call('PATCH', '/api/console/races/marathon', staff, {
        startType: 'waves',
        waves: [
          { id: 'W1', name: 'Elite', gunTime: '09:00' },
          { id: 'W2', gunTime: '09:20:30' },
        ],
      });
      expect(edited.body.waves.map((w: { gunTimeMs: number }) => w.gunTimeMs)).toEqual([
        Date.UTC(2026, 9, 4, 7, 0),
        Date.UTC(2026, 9, 4, 7, 20, 30),
      ]);
      const moved = await call('PATCH', '/api/console/races/marathon', staff, {
        date: '2026-11-01',
        startType: 'mass',
        waves: [],
      });
      // Winter time from 25 October: the same 09:30 is 08:30 UTC.
      expect(moved.body.gunTimeMs).toBe(Date.UTC(2026, 10, 1, 8, 30));
      await expectGuarded('PATCH', '/api/console/races/marathon', { name: 'x' }, [timekeeper]);
    });

    it('replaces the timing points, refusing them out of order', async () => {
      const url = '/api/console/races/marathon/points';
      const points = [
        { key: 'start', name: { en: 'Start', fr: 'Départ' }, distanceM: 0, kind: 'start' },
        { key: '10k', name: { en: '10 km', fr: '10 km' }, distanceM: 10000, kind: 'split' },
        { key: 'half', name: { en: 'Half', fr: 'Semi' }, distanceM: 21097, kind: 'split' },
        { key: '30k', name: { en: '30 km', fr: '30 km' }, distanceM: 30000, kind: 'split' },
        { key: 'finish', name: { en: 'Finish', fr: 'Arrivée' }, distanceM: 42195, kind: 'finish' },
      ];
      await expectGuarded('PUT', url, { points }, [timekeeper]);
      const bad = await call('PUT', url, staff, {
        points: [
          points[0],
          { ...points[2], distanceM: 5 },
          points[1],
          { ...points[3], key: '10k' },
          { ...points[4], kind: 'split' },
        ],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(
        expect.arrayContaining(['points.3.key', 'points.4.kind']),
      );
      const ok = await call('PUT', url, staff, { points });
      expect(ok.body.points.map((p: { key: string }) => p.key)).toEqual([
        'start',
        '10k',
        'half',
        '30k',
        'finish',
      ]);
      const pub = await call('GET', '/api/results/contexts/bm2026/races', staff);
      expect(pub.body[0].points.map((p: { key: string }) => p.key)).toEqual([
        'start',
        '10k',
        'half',
        '30k',
        'finish',
      ]);
    });

    it('stores a GPX course, places points along it', async () => {
      const url = '/api/console/races/marathon/course';
      const gpx = straightGpx(43);
      expect(
        (await call('PUT', url, timekeeper, gpx, { 'content-type': 'application/gpx+xml' })).status,
      ).toBe(403);
      const bad = await call('PUT', url, staff, '<gpx><trk>', { 'content-type': 'application/gpx+xml' });
      expect(bad.body.code).toBe('COURSE_INVALID');
      const empty = await call('PUT', url, staff, { type: 'Point', coordinates: [4, 50] });
      expect(empty.body.code).toBe('COURSE_EMPTY');
      const up = await call('PUT', url, staff, gpx, { 'content-type': 'application/gpx+xml' });
      expect(up.status).toBe(200);
      expect(Math.abs(up.body.courseLengthM - 43000)).toBeLessThan(50);
      // Points without coordinates were put at their distance along the track.
      const half = up.body.points.find((p: { key: string }) => p.key === 'half');
      expect(half.lat).toBeCloseTo(50.8 + 21097 / 111_195, 3);
      const placed = await call('POST', `${url}/place`, staff, {
        placements: [{ key: '10k', lat: 50.8 + 12000 / 111_195, lon: 4.3501 }],
      });
      const p10 = placed.body.points.find((p: { key: string }) => p.key === '10k');
      expect(Math.abs(p10.distanceM - 12000)).toBeLessThan(30);
      expect(p10.lon).toBeCloseTo(4.35, 5);
      const wrong = await call('POST', `${url}/place`, staff, {
        placements: [{ key: '10k', distanceM: 35000 }],
      });
      expect(wrong.body.errors[0].field).toBe('points.2.distanceM');
      expect(
        (await call('POST', `${url}/place`, staff, { placements: [{ key: 'nope', distanceM: 1 }] })).body
          .errors[0].field,
      ).toBe('placements.0.key');
      const geo = await call('PUT', url, staff, {
        type: 'Feature',
        geometry: {
          type: 'LineString',
          coordinates: [
            [4.35, 50.8],
            [4.35, 50.81],
          ],
        },
      });
      expect(geo.body.course.coordinates).toHaveLength(2);
      await call('PUT', url, staff, gpx, { 'content-type': 'application/gpx+xml' });
      const pub = await call('GET', '/api/results/contexts/bm2026/races/marathon/course', staff);
      expect(pub.body.course.coordinates.length).toBe(431);
    });

    it('sets categories from a template, reports overlaps, keeps one report per category', async () => {
      const url = '/api/console/races/marathon/categories';
      const categories = categoriesFromTemplate('boston');
      await expectGuarded('PUT', url, { ageBasis: 'raceDay', categories }, [timekeeper]);
      expect((await call('PUT', url, staff, { ageBasis: 'someday', categories })).body.errors[0].field).toBe(
        'ageBasis',
      );
      const bad = await call('PUT', url, staff, {
        ageBasis: 'raceDay',
        categories: [
          { id: 'A', name: 'A', minAge: 40, maxAge: 30 },
          { id: 'A', name: 'B' },
        ],
      });
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'categories.0.maxAge',
        'categories.1.id',
      ]);
      const ok = await call('PUT', url, staff, { ageBasis: 'birthYear', categories });
      expect(ok.body.categories).toHaveLength(22);
      expect(ok.body.ageBasis).toBe('birthYear');
      expect(ok.body.categoryIssues).toEqual([]);
      const reports = (await call('GET', '/api/console/races/marathon/reports', staff)).body as {
        key: string;
      }[];
      expect(reports.filter((r) => r.key.startsWith('CAT-'))).toHaveLength(22);
      const overlap = await call('PUT', url, staff, {
        ageBasis: 'raceDay',
        categories: [
          { id: 'M18-39', name: 'M 18-39', gender: 'M', minAge: 18, maxAge: 39 },
          { id: 'M35-49', name: 'M 35-49', gender: 'M', minAge: 35, maxAge: 49 },
          { id: 'M55', name: 'M 55+', gender: 'M', minAge: 55 },
        ],
      });
      expect(overlap.body.categoryIssues).toEqual([
        { kind: 'overlap', gender: 'M', fromAge: 35, toAge: 39, categoryIds: ['M18-39', 'M35-49'] },
        { kind: 'gap', gender: 'M', fromAge: 50, toAge: 54 },
      ]);
      const after = (await call('GET', '/api/console/races/marathon/reports', staff)).body as {
        key: string;
      }[];
      expect(after.filter((r) => r.key.startsWith('CAT-')).map((r) => r.key)).toEqual([
        'CAT-M18-39',
        'CAT-M35-49',
        'CAT-M55',
      ]);
      await call('PUT', url, staff, { ageBasis: 'raceDay', categories });
    });

    it('sets the team rule', async () => {
      const url = '/api/console/races/marathon/team-rule';
      await expectGuarded('PUT', url, { best: 3, minMembers: 5 }, [timekeeper]);
      expect((await call('PUT', url, staff, { best: 5, minMembers: 3 })).body.errors[0].field).toBe(
        'minMembers',
      );
      expect((await call('PUT', url, staff, { best: 3, minMembers: 5 })).body.teamRule).toEqual({
        best: 3,
        minMembers: 5,
      });
    });

    it('takes a previous edition for the finish prediction, from a CSV or an earlier race (issue 19)', async () => {
      const url = '/api/console/races/marathon/fade-prior';
      // Six runners around a 1:45 half who all finished in 3:45 (ratio 2.143), one line malformed.
      const lines = [
        'Bib;Half;Official Time',
        ...[1, 2, 3, 4, 5, 6].map((b) => `${b};1:45:00;3:45:00`),
        '7;-;4:00:00',
      ];
      const csv = lines.join('\n');
      await expectGuarded('PUT', url, { csv }, [timekeeper]);
      const few = await call('PUT', url, staff, { csv: lines.slice(0, 4).join('\n') });
      expect(few.status).toBe(400);
      expect(few.body.errors[0].field).toBe('csv');
      // The marathon has no results yet: nothing to learn from it.
      expect((await call('PUT', url, staff, { fromRaceId: 'marathon' })).body.errors[0].field).toBe(
        'fromRaceId',
      );
      const stored = await call('PUT', url, staff, { csv });
      expect(stored.status).toBe(200);
      expect(stored.body.fadePrior).toEqual({ source: 'csv', runners: 6 });
      const [row] = await app.database.query<{ prior: unknown }>(
        `SELECT rules->'fadePrior' AS prior FROM races WHERE id = 'marathon'`,
      );
      expect(row?.prior).toEqual({
        source: 'csv',
        bandMs: 300_000,
        bands: [{ band: 21, ratio: 225 / 105, runners: 6 }],
      });
      // The race's live state predicts with it: the band's ratio, the general model elsewhere.
      const live = (await app.results.state('bm2026')).races.get('marathon');
      expect(live?.prior?.(105 * 60_000)).toBeCloseTo(225 / 105, 10);
      expect(live?.prior?.(60 * 60_000)).toBeLessThan(2.05);
      await expectGuarded('DELETE', url, undefined, [timekeeper]);
      expect((await call('DELETE', url, staff)).body.fadePrior).toBeNull();
      expect((await app.results.state('bm2026')).races.get('marathon')?.prior).toBeUndefined();
    });

    it('edits report definitions: rename, hide, columns, filtered reports, order', async () => {
      const base = '/api/console/races/marathon/reports';
      await expectGuarded('PATCH', `${base}/LIVE1`, { hidden: true }, [timekeeper]);
      expect(
        (await call('PATCH', `${base}/LIVE1`, staff, { columns: ['rank', 'elevation'] })).body.errors[0]
          .field,
      ).toBe('columns.1');
      expect((await call('PATCH', `${base}/START`, staff, { columns: ['rank'] })).body.errors[0].field).toBe(
        'columns.0',
      );
      const renamed = await call('PATCH', `${base}/LIVE1`, staff, {
        name: { en: 'Scratch', fr: 'Scratch' },
        columns: ['rank', 'bib', 'name', 'time'],
      });
      expect(renamed.body).toMatchObject({
        name: { en: 'Scratch' },
        columns: ['rank', 'bib', 'name', 'time'],
        standard: true,
      });
      await call('PATCH', `${base}/LAST`, staff, { hidden: true });

      await expectGuarded('POST', base, { key: 'CLUB', name: { en: 'c', fr: 'c' }, kind: 'ranking' }, [
        timekeeper,
      ]);
      const bad = await call('POST', base, staff, {
        key: 'CLUB',
        name: { en: '', fr: 'x' },
        kind: 'startList',
        columns: ['rank'],
      });
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['columns.0', 'name.en']);
      const club = await call('POST', base, staff, {
        key: 'CLUB',
        name: { en: 'BRC runners', fr: 'Coureurs du BRC' },
        kind: 'ranking',
        filter: { club: 'BRC' },
        columns: ['rank', 'name', 'club', 'time', 'gunTime'],
      });
      expect(club.status).toBe(201);
      expect(club.body).toMatchObject({ standard: false, filter: { club: 'BRC' } });
      expect(
        (await call('POST', base, staff, { key: 'CLUB', name: { en: 'x', fr: 'x' }, kind: 'ranking' })).body
          .code,
      ).toBe('REPORT_EXISTS');

      // The engine draws what the definitions say: filtered rows, chosen columns, renamed title.
      await app.inject({
        method: 'POST',
        url: '/api/results/contexts/bm2026/races/marathon/participants',
        headers: { authorization: staff.authorization },
        payload: {
          participants: [
            { bib: '1', firstName: 'Ann', lastName: 'A', gender: 'F', club: 'BRC', birthDate: '1980-05-01' },
            {
              bib: '2',
              firstName: 'Bob',
              lastName: 'B',
              gender: 'M',
              club: 'Other',
              birthDate: '1990-05-01',
            },
          ],
        },
      });
      const table = (await call('GET', '/api/results/contexts/bm2026/reports/CLUB', staff)).body;
      expect(table.rows.map((r: unknown[]) => r[0])).toEqual(['1']);
      expect(table.columns.map((c: { Title: { en: string } }) => c.Title.en)).toEqual([
        'Rank',
        'Name',
        'Club',
        'Time',
        'Gun time',
      ]);
      const live1 = (await call('GET', '/api/results/contexts/bm2026/reports/LIVE1', staff)).body;
      expect(live1.title.en).toBe('Scratch');
      expect(live1.columns).toHaveLength(4);

      expect((await call('DELETE', `${base}/LIVE2`, staff)).body.code).toBe('REPORT_STANDARD');
      const keys = (await call('GET', base, staff)).body.map((r: { key: string }) => r.key) as string[];
      expect((await call('PUT', `${base}/order`, staff, { keys: keys.slice(1) })).body.errors[0].field).toBe(
        'keys',
      );
      const reordered = await call('PUT', `${base}/order`, staff, {
        keys: ['CLUB', ...keys.filter((k) => k !== 'CLUB')],
      });
      expect(reordered.body[0].key).toBe('CLUB');
      await expectGuarded('DELETE', `${base}/CLUB`, undefined, [timekeeper]);
      const extra = await call('POST', base, staff, {
        key: 'W1',
        name: { en: 'Wave 1', fr: 'Vague 1' },
        kind: 'startList',
        filter: { wave: 'W1' },
      });
      expect(extra.status).toBe(201);
      expect((await call('DELETE', `${base}/W1`, staff)).status).toBe(204);
    });

    it('shows a public event to spectators, without hidden reports', async () => {
      await call('PATCH', `/api/console/events/${event.id}`, staff, { visibility: 'public' });
      const list = await call('GET', `/api/results/${event.id}/reportlist`, null);
      expect(list.status).toBe(200);
      expect((await call('GET', `/api/events/${event.id}`, null)).body.draft).toBeUndefined();
      const keys = list.body.groups[0].reports.map((r: { key: string }) => r.key);
      expect(keys).toContain('CLUB');
      expect(keys).not.toContain('LAST');
      expect((await call('GET', '/api/events', null)).body.map((e: { id: string }) => e.id)).toContain(
        event.id,
      );
      expect((await app.inject({ url: `/api/events/${event.id}/logo` })).statusCode).toBe(200);
    });

    it('shows and hides several reports in one request, and names category reports in words (issue 29)', async () => {
      const base = '/api/console/races/marathon/reports';
      const url = `${base}/visibility`;
      const all = (await call('GET', base, staff)).body as {
        key: string;
        name: { en: string; fr: string };
      }[];
      const cats = all.filter((r) => r.key.startsWith('CAT-')).map((r) => r.key);
      expect(cats.length).toBe(22);
      expect(all.find((r) => r.key === 'CAT-F40-44')?.name).toEqual({
        en: 'Women 40–44',
        fr: 'Femmes 40–44',
      });
      await expectGuarded('POST', url, { keys: cats, hidden: true }, [timekeeper]);
      const unknown = await call('POST', url, staff, { keys: ['LIVE1', 'NOPE'], hidden: true });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual([{ field: 'keys.1', message: "no report 'NOPE' in this race" }]);
      expect((await call('POST', url, staff, { keys: [], hidden: true })).status).toBe(400);
      expect((await call('POST', url, staff, { keys: ['LIVE1'] })).body.errors[0].field).toBe('hidden');
      const hidden = await call('POST', url, staff, { keys: cats, hidden: true });
      expect(hidden.status).toBe(200);
      const byKey = new Map(
        (hidden.body as { key: string; hidden: boolean }[]).map((r) => [r.key, r.hidden] as const),
      );
      expect(cats.every((k) => byKey.get(k) === true)).toBe(true);
      // Nothing else moved (LIVE1 was not in the request; an unknown key above changed nothing).
      expect(byKey.get('LIVE1')).toBe(false);
      const list = await call('GET', `/api/results/${event.id}/reportlist`, null);
      const publicKeys = list.body.groups[0].reports.map((r: { key: string }) => r.key) as string[];
      expect(publicKeys.filter((k) => k.startsWith('CAT-'))).toEqual([]);
      expect(publicKeys).toContain('LIVE1');
      const shown = await call('POST', url, staff, { keys: cats.slice(0, 2), hidden: false });
      expect(
        shown.body.filter((r: { hidden: boolean; key: string }) => r.key.startsWith('CAT-') && !r.hidden),
      ).toHaveLength(2);
    });

    it('refuses deleting a race or an event holding passings', async () => {
      const device = await call('POST', '/api/results/contexts/bm2026/devices', staff, {
        name: 'finish',
        pointKey: 'finish',
      });
      await app.inject({
        method: 'POST',
        url: '/api/ingest/passings',
        headers: { 'x-device-key': device.body.key },
        payload: { passings: [{ bib: '1', time: Date.UTC(2026, 10, 1, 11, 0) }] },
      });
      // Times of day in reports are the event's: 11:00 UTC is noon in Brussels in November…
      const last = async () =>
        (await call('GET', '/api/results/contexts/bm2026/reports/LAST', staff)).body.rows[0][2];
      expect(await last()).toBe('12:00:00');
      // …and 06:00 once the event moves to New York.
      await call('PATCH', `/api/console/events/${event.id}`, staff, { timeZone: 'America/New_York' });
      expect(await last()).toBe('06:00:00');
      await expectGuarded('DELETE', '/api/console/races/marathon', undefined, [timekeeper]);
      expect((await call('DELETE', '/api/console/races/marathon', staff)).body.code).toBe(
        'RACE_HAS_PASSINGS',
      );
      expect((await call('DELETE', `/api/console/events/${event.id}`, staff)).body.code).toBe(
        'EVENT_HAS_PASSINGS',
      );
      expect((await call('DELETE', '/api/console/contexts/bm2026', staff)).body.code).toBe(
        'CONTEXT_NOT_EMPTY',
      );
    });

    it('deletes an event without passings, with its contexts and races', async () => {
      const id = 'trail-des-fagnes-2026';
      await call('POST', `/api/console/events/${id}/contexts`, staff, { db: 'tdf', name: 'Trail' });
      await call('POST', '/api/console/contexts/tdf/races', staff, {
        id: 'trail-25k',
        name: 'Trail 25',
        date: '2026-10-04',
        distanceM: 25000,
        startType: 'individual',
      });
      await expectGuarded('DELETE', '/api/console/races/trail-25k', undefined, [timekeeper]);
      await expectGuarded('DELETE', `/api/console/events/${id}`, undefined, [timekeeper]);
      expect((await call('DELETE', `/api/console/events/${id}`, staff)).status).toBe(204);
      expect((await app.database.query(`SELECT 1 FROM races WHERE id = 'trail-25k'`)).length).toBe(0);
      expect((await call('GET', `/api/console/events/${id}`, staff)).status).toBe(404);
      expect(otherOrgId).toBeTruthy();
    });

    it('refuses deleting an event its confirmation documents hold, naming them (issue 41: it answered 500)', async () => {
      const id = 'cross-des-bois-2026';
      const created = await call('POST', `/api/console/organisations/${orgId}/events`, staff, {
        ...event,
        id,
        name: 'Cross des Bois',
      });
      expect(created.status).toBe(201);
      await call('POST', `/api/console/events/${id}/contexts`, staff, { db: 'cdb', name: 'Cross' });
      await app.database.query(
        `INSERT INTO confirmation_documents (event_id, title, sender_name, sender_kind, contact_email)
         VALUES ($1, 'Club list', 'AC Bois', 'club', 'club@example.org'), ($1, 'School list', 'Athénée', 'school', 's@example.org')`,
        [id],
      );
      const refused = await call('DELETE', `/api/console/events/${id}`, staff);
      expect(refused.status).toBe(409);
      expect(refused.type).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({ code: 'EVENT_IN_USE' });
      expect(refused.body.detail).toContain('2 confirmation documents');
      // Nothing changed: the event and its context are still there.
      expect((await call('GET', `/api/console/events/${id}`, staff)).body.contexts).toHaveLength(1);
      await app.database.query('DELETE FROM confirmation_documents WHERE event_id = $1', [id]);
      expect((await call('DELETE', `/api/console/events/${id}`, staff)).status).toBe(204);
    });

    it('creates the event’s timing context with it when asked (issue 29)', async () => {
      const created = await call('POST', `/api/console/organisations/${orgId}/events`, staff, {
        ...event,
        id: 'city-trail-2026',
        name: 'City Trail',
        context: true,
      });
      expect(created.status).toBe(201);
      expect(created.body.contexts).toMatchObject([{ db: 'city-trail-2026', name: 'City Trail' }]);
      // A race can be added at once.
      const race = await call('POST', '/api/console/contexts/city-trail-2026/races', staff, {
        id: 'city-trail-12k',
        name: 'Trail 12',
        date: '2026-10-04',
        distanceM: 12000,
        startType: 'mass',
      });
      expect(race.status).toBe(201);
      const bare = await call('POST', `/api/console/organisations/${orgId}/events`, staff, {
        ...event,
        id: 'bare-trail-2026',
        name: 'Bare Trail',
      });
      expect(bare.body.contexts).toEqual([]);
    });
  });
});
