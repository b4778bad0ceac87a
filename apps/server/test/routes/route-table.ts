import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import type { RouteEntry } from '../../src/app.ts';
import { ID_TOKEN_AUDIENCE } from '../../src/identity/keys.ts';
import { createTestUser } from '../identity-helpers.ts';
import { type Access, type AccessOptions, routeAccess } from './route-access.ts';

/** The demo organisation (seeded): every route's resource belongs to it unless told otherwise. */
export const DEMO_ORG = '00000000-0000-4000-8000-000000000001';

/** A real value for each path parameter name, pointing at the demo organisation's resources. */
export const PARAMS: Record<string, string> = {
  db: 'demo-city-run-10k',
  eventId: 'demo-city-run',
  id: 'demo-city-run',
  orgId: DEMO_ORG,
  raceId: 'city-10k',
  context: 'demo-challenge',
  raceKey: 'demo-city-run-10k',
  key: 'course-info',
  group: 'city-10k',
  report: 'LIVE1',
  bib: '1',
  token: 'no-such-token',
  sub: '00000000-0000-4000-8000-00000000dead',
  contactId: '00000000-0000-4000-8000-00000000c0de',
  photoId: '00000000-0000-4000-8000-00000000beef',
  streamId: '00000000-0000-4000-8000-00000000feed',
  size: 'thumb',
  appId: 'tempora',
  channelName: 'results-demo-city-run-10k',
  ui: 'web',
  ns: 'common',
  lng: 'en',
  event: 'demo-city-run',
  deviceId: '00000000-0000-4000-8000-00000000d001',
  auditId: '00000000-0000-4000-8000-00000000a001',
  entryId: '00000000-0000-4000-8000-00000000e001',
  deliveryId: '999999',
  lineId: '00000000-0000-4000-8000-00000000f001',
  userId: 'no-such-user',
  code: 'no-such-code',
  trackingKey: 'no-such-key',
  objectToken: 'no-such-token',
  certificateToken: 'no-such-token',
  format: 'csv',
  '*': 'index.html',
};

/** `METHOD /url` of a route: the key of route-access.ts. */
export const routeKey = (route: RouteEntry) => `${route.method} ${route.url}`;

/** The routes of the app with their access entry; throws naming every route without one. */
export function routesWithAccess(
  app: FastifyInstance,
): (RouteEntry & { access: Access; options: AccessOptions })[] {
  const missing = app.routeTable.map(routeKey).filter((key) => !(key in routeAccess));
  if (missing.length)
    throw new Error(
      `Routes without an entry in apps/server/test/routes/route-access.ts (add one line each, see its header):\n  ${missing.join('\n  ')}`,
    );
  return app.routeTable.map((route) => {
    const entry = routeAccess[routeKey(route)] as Access | [Access, AccessOptions];
    const [access, options] = Array.isArray(entry) ? entry : [entry, {}];
    return { ...route, access, options };
  });
}

/** The route's URL with its parameters filled (`overrides`, then PARAMS, then `x`). */
export function fillUrl(url: string, overrides: Record<string, string> = {}): string {
  return url.replace(/:([A-Za-z0-9_]+)|\*/g, (match, name: string | undefined) => {
    const key = name ?? '*';
    const value = overrides[key] ?? PARAMS[key] ?? 'x';
    return match === '*' ? value : encodeURIComponent(value);
  });
}

/** The callers the matrix tries, as `authorization` headers (undefined: anonymous). */
export interface Actors {
  anonymous: undefined;
  user: string;
  otherOrganiser: string;
  /** A timekeeper of the other organisation (issue 42: the draft rows' third outsider). */
  otherTimekeeper: string;
  timekeeper: string;
  owner: string;
  /** An organisation owner's token, expired (signed with our own key). */
  expired: string;
  /** A token naming the demo owner, from an issuer we do not trust. */
  foreignIssuer: string;
}

/** Creates the actors: users, memberships and tokens. */
export async function createActors(app: FastifyInstance): Promise<Actors> {
  const [other] = await app.database.query<{ id: string }>(
    `INSERT INTO organisations (slug, name) VALUES ('matrix-other-${crypto.randomBytes(3).toString('hex')}', 'Other') RETURNING id`,
  );
  const owner = await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] });
  const user = await createTestUser(app, { profileComplete: true });
  const otherOrganiser = await createTestUser(app, {
    memberships: [{ organisationId: (other as { id: string }).id, role: 'owner' }],
  });
  const timekeeper = await createTestUser(app, {
    memberships: [{ organisationId: DEMO_ORG, role: 'timekeeper' }],
  });
  const otherTimekeeper = await createTestUser(app, {
    memberships: [{ organisationId: (other as { id: string }).id, role: 'timekeeper' }],
  });
  const [row] = await app.database.query<{ private_jwk: JWK; kid: string }>(
    'SELECT private_jwk, kid FROM signing_keys ORDER BY generation DESC LIMIT 1',
  );
  const now = Math.floor(Date.now() / 1000);
  const expired = await new SignJWT({ email: owner.email, email_verified: true })
    .setProtectedHeader({ alg: 'ES256', kid: row?.kid })
    .setIssuer(app.identity.signer.issuer)
    .setAudience(ID_TOKEN_AUDIENCE)
    .setSubject(owner.sub)
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 3600)
    .sign(await importJWK(row?.private_jwk as JWK, 'ES256'));
  const { privateKey } = await generateKeyPair('ES256');
  const foreign = await new SignJWT({ email: owner.email, email_verified: true })
    .setProtectedHeader({ alg: 'ES256', kid: row?.kid })
    .setIssuer('https://issuer.invalid')
    .setAudience(ID_TOKEN_AUDIENCE)
    .setSubject(owner.sub)
    .setExpirationTime('10m')
    .sign(privateKey);
  return {
    anonymous: undefined,
    user: user.authorization,
    otherOrganiser: otherOrganiser.authorization,
    otherTimekeeper: otherTimekeeper.authorization,
    timekeeper: timekeeper.authorization,
    owner: owner.authorization,
    expired: `Bearer ${expired}`,
    foreignIssuer: `Bearer ${foreign}`,
  };
}

/** Which actors a route of each access must refuse. */
export const refusedBy: Record<Access, (keyof Actors)[]> = {
  public: [],
  'signed-in': ['anonymous', 'expired', 'foreignIssuer'],
  party: ['anonymous', 'user', 'otherOrganiser', 'timekeeper', 'expired', 'foreignIssuer'],
  key: ['anonymous', 'user', 'otherOrganiser', 'timekeeper', 'expired', 'foreignIssuer'],
  staff: ['anonymous', 'user', 'otherOrganiser', 'timekeeper', 'owner', 'expired', 'foreignIssuer'],
  owner: ['anonymous', 'user', 'otherOrganiser', 'timekeeper', 'expired', 'foreignIssuer'],
  manager: ['anonymous', 'user', 'otherOrganiser', 'timekeeper', 'expired', 'foreignIssuer'],
  timekeeper: ['anonymous', 'user', 'otherOrganiser', 'expired', 'foreignIssuer'],
  pickup: ['anonymous', 'user', 'otherOrganiser', 'timekeeper', 'expired', 'foreignIssuer'],
};

/** Rows addressed by their own id: a caller outside their organisation gets 404 (route-access.ts). */
const OWN_ID_ROUTES = [/^\/api\/webhooks\/:id(\/|$)/, /^\/api\/confirmation\/documents\/:id(\/|$)/];
/** The organisation console's own spaces, hidden from outsiders (404): not the participant pages. */
const CONSOLE_PRIVATE =
  /^\/api\/console\/(organisations|contexts|races|events\/:eventId($|\/(logo|contexts)$))/;

/**
 * The code a refused caller must get (the rule in the header of route-access.ts): 401 without a
 * valid user (and for users on `key` routes), 404 for an outsider on a row addressed by its own id
 * or on the console's spaces, 403 otherwise.
 */
export function expectedRefusal(route: { url: string; access: Access }, who: keyof Actors): 401 | 403 | 404 {
  if (who === 'anonymous' || who === 'expired' || who === 'foreignIssuer' || route.access === 'key')
    return 401;
  if (route.access === 'staff') return 403;
  const outsider =
    who === 'user' || who === 'otherOrganiser' || (route.access === 'party' && who === 'timekeeper');
  const hidden =
    route.access === 'party' ||
    OWN_ID_ROUTES.some((re) => re.test(route.url)) ||
    CONSOLE_PRIVATE.test(route.url);
  return outsider && hidden ? 404 : 403;
}

/** A digest of every table (md5 of its rows in order), to prove a refused call changed nothing. */
export async function tableDigests(app: FastifyInstance): Promise<Record<string, string>> {
  const tables = await app.database.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await app.database.query<{ d: string | null; n: number }>(
      `SELECT md5(coalesce(string_agg(md5(t::text), '' ORDER BY md5(t::text)), '')) AS d, count(*)::int AS n FROM "${name}" t`,
    );
    out[name] = `${row?.n}:${row?.d}`;
  }
  return out;
}
