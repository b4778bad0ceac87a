import { channelPart } from '@tempora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database.ts';
import { type AppError, errors } from '../errors.ts';
import { allows } from './policy.ts';

/**
 * Draft events and hidden reports are private (issues 14 and 42), decided here and nowhere else:
 * for every route, from the event its parameters belong to (not from a list of URL patterns),
 * and for every live channel, from the event of the context it names (`channelEvents`).
 *
 * A route's parameters lead to its event through {@link SCOPES}: one line per parameter name
 * that names an event's data (an event, a context, a race, a tracking key, a team's share token,
 * a photo, a certificate's verification token). Parameter names are unique to their meaning
 * across the app: a new route naming an event's data reuses one of these names, or adds a line.
 *
 * The rule (the route matrix asserts it for every route and caller, route-draft.test.ts):
 * - a route that is not public answers 401 to an anonymous caller before anything is looked up;
 * - a parameter naming nothing answers that parameter's 404, here, for every caller;
 * - a parameter naming a draft's data answers exactly that 404 (same status, code and message
 *   shape; never the event's name) to anyone outside the event's organisation (platform staff
 *   see it): a draft cannot be told from a missing id;
 * - a report the organiser hid answers the missing report's 404 to anyone outside the
 *   organisation, by its key on every route (`report` with its `db`, or its event and `group`).
 */

/** The server-to-server event telling every node to forget its visibilities. */
const FORGET_EVENT = 'visibility';

/** What the visibility check needs of an event. */
export interface EventVisibility {
  organisationId: string;
  draft: boolean;
}

/** How long a node trusts its copy of a visibility (another node may have changed it). */
const TTL_MS = 2_000;
const MAX_ENTRIES = 20_000;

type OwnerKind = 'db' | 'race' | 'tracking' | 'photo' | 'team';

const OWNER_SQL: Record<OwnerKind, string> = {
  db: 'SELECT event_id AS id FROM contexts WHERE db = $1',
  race: 'SELECT c.event_id AS id FROM races r JOIN contexts c ON c.db = r.db WHERE r.id = $1 LIMIT 1',
  tracking: `SELECT c.event_id AS id FROM participants p JOIN races r ON r.id = p.race_id
               JOIN contexts c ON c.db = r.db WHERE p.tracking_key = $1 LIMIT 1`,
  photo: 'SELECT event_id AS id FROM photos WHERE id::text = $1',
  team: 'SELECT c.event_id AS id FROM team_tokens t JOIN contexts c ON c.db = t.db WHERE t.token = $1',
};

/**
 * Cached lookups: which event a context, race, tracking key, team token or photo belongs to
 * (never changes), whether an event is a draft and which reports of a context are hidden (kept
 * `TTL_MS`, forgotten at once on this node when the console changes them). Reads of results are
 * hot (64 concurrent readers of a 26,000-row table): one query per read would cost more than the
 * read itself.
 */
export function createVisibilityCache(database: Database) {
  const owners = new Map<string, string>();
  const events = new Map<string, { at: number; value: EventVisibility | null }>();
  const hidden = new Map<string, { at: number; value: Set<string> }>();

  async function eventOf(kind: OwnerKind, key: string): Promise<string | null> {
    const cacheKey = `${kind}:${key}`;
    const known = owners.get(cacheKey);
    if (known !== undefined) return known;
    const [row] = await database.query<{ id: string }>(OWNER_SQL[kind], [key]);
    // Unknown keys are not cached: the thing may be created a moment later.
    if (!row) return null;
    if (owners.size > MAX_ENTRIES) owners.clear();
    owners.set(cacheKey, row.id);
    return row.id;
  }

  /** The event's visibility; `fresh` reads the database whatever the cache holds. */
  async function visibility(eventId: string, fresh = false): Promise<EventVisibility | null> {
    const hit = events.get(eventId);
    if (!fresh && hit && Date.now() - hit.at < TTL_MS) return hit.value;
    const [row] = await database.query<EventVisibility>(
      `SELECT organisation_id AS "organisationId", visibility = 'draft' AS draft FROM events WHERE id = $1`,
      [eventId],
    );
    if (events.size > MAX_ENTRIES) events.clear();
    events.set(eventId, { at: Date.now(), value: row ?? null });
    return row ?? null;
  }

  /** The hidden reports of a context, as `group/key` and `*\/key` (a key under any group). */
  async function hiddenReports(db: string): Promise<Set<string>> {
    const hit = hidden.get(db);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
    const rows = await database.query<{ groupKey: string; key: string }>(
      'SELECT group_key AS "groupKey", key FROM reports WHERE db = $1 AND hidden',
      [db],
    );
    const value = new Set(rows.flatMap((r) => [`${r.groupKey}/${r.key}`, `*/${r.key}`]));
    if (hidden.size > MAX_ENTRIES) hidden.clear();
    hidden.set(db, { at: Date.now(), value });
    return value;
  }

  /** The context of an event holding a report group (null: none). */
  async function contextOfGroup(eventId: string, group: string): Promise<string | null> {
    const cacheKey = `group:${eventId}/${group}`;
    const known = owners.get(cacheKey);
    if (known !== undefined) return known;
    const [row] = await database.query<{ db: string }>(
      `SELECT g.db FROM report_groups g JOIN contexts c ON c.db = g.db
        WHERE c.event_id = $1 AND g.key = $2 ORDER BY c.created_at, c.db LIMIT 1`,
      [eventId, group],
    );
    if (!row) return null;
    owners.set(cacheKey, row.db);
    return row.db;
  }

  return {
    eventOf,
    visibility,
    hiddenReports,
    contextOfGroup,
    /** Forgets every visibility and hidden report (after a console change on this node). */
    forget() {
      events.clear();
      hidden.clear();
    },
  };
}
export type VisibilityCache = ReturnType<typeof createVisibilityCache>;

/** How a route parameter leads to its event, and the 404 it answers when it names nothing. */
interface Scope {
  eventOf(cache: VisibilityCache, value: string): Promise<string | null>;
  missing(value: string): AppError;
  /** The route itself answers a value naming nothing (its 404 needs what only it knows). */
  routeAnswersMissing?: boolean;
}

const event: Scope = {
  eventOf: async (cache, value) => ((await cache.visibility(value)) ? value : null),
  missing: (value) => errors.notFound('EVENT_NOT_FOUND', `No event '${value}'`),
};
const athlete = () => errors.notFound('ATHLETE_NOT_FOUND', 'No athlete with this tracking key');

/**
 * Every parameter name that names an event's data → how it leads to the event. The certificate
 * token is resolved by the exports module (only it holds the signing secret), through
 * {@link Visibility.addScope}: an ungenuine token names nothing here, and its route answers.
 */
const SCOPES: Record<string, Scope> = {
  eventId: event,
  event,
  db: {
    eventOf: (cache, value) => cache.eventOf('db', value),
    missing: (value) => errors.notFound('CONTEXT_NOT_FOUND', `No context '${value}'`),
  },
  raceId: {
    eventOf: (cache, value) => cache.eventOf('race', value),
    missing: (value) => errors.notFound('RACE_NOT_FOUND', `No race '${value}'`),
  },
  trackingKey: { eventOf: (cache, value) => cache.eventOf('tracking', value), missing: athlete },
  // A team's share token, else an athlete's tracking key (`objectdetail/{token}`).
  objectToken: {
    eventOf: async (cache, value) => (await cache.eventOf('team', value)) ?? cache.eventOf('tracking', value),
    missing: athlete,
  },
  photoId: {
    eventOf: (cache, value) => cache.eventOf('photo', value),
    missing: () => errors.notFound('PHOTO_NOT_FOUND', 'No such photo'),
  },
};

/** Whether the caller sees a draft of the organisation: its members and platform staff. */
export function seesDrafts(request: FastifyRequest, organisationId: string): boolean {
  return allows(request, 'read', 'Event', { organisationId, visibility: 'draft' });
}

/** The route's parameters that name an event's data, in their order in the URL. */
function scopedParams(request: FastifyRequest, scopes: Record<string, Scope>): [string, string, Scope][] {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const names = [...(request.routeOptions.url ?? '').matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  const out: [string, string, Scope][] = [];
  for (const name of names) {
    const scope = scopes[name];
    const value = params[name];
    if (scope && typeof value === 'string') out.push([name, value, scope]);
  }
  return out;
}

/**
 * A write naming its event in its body (`{eventId}`: a deposit, a confirmation document): the
 * route answers an event that does not exist; a draft's answers the same (EVENT_NOT_FOUND).
 */
function eventInBody(request: FastifyRequest): [string, string, Scope] | null {
  const body = request.body as { eventId?: unknown } | null | undefined;
  if (!body || typeof body !== 'object' || typeof body.eventId !== 'string') return null;
  return ['eventId', body.eventId, { ...event, routeAnswersMissing: true }];
}

/** A hidden report named by the route (`report` with `db`, or with the event and `group`). */
async function hiddenReport(
  request: FastifyRequest,
  cache: VisibilityCache,
  eventId: string | null,
): Promise<boolean> {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const { report, group } = params;
  if (!report) return false;
  const db = params.db ?? (eventId && group ? await cache.contextOfGroup(eventId, group) : null);
  if (!db) return false;
  return (await cache.hiddenReports(db)).has(`${group ?? '*'}/${report}`);
}

export interface Visibility {
  cache: VisibilityCache;
  /**
   * Forgets the visibilities and hidden reports every node holds (after a console change): this
   * node at once, the others through the realtime bus (`tempora_internal:visibility`).
   */
  forget(): Promise<void>;
  /** Adds the resolution of a parameter only a module can read (the certificate token). */
  addScope(name: string, scope: Scope): void;
  /** The parameter names that lead to an event (the route matrix's draft rows use them). */
  scopeNames(): string[];
  /**
   * The events a live channel belongs to (its context's, `results-{db}…`), or none. A channel
   * name does not say where a context's name ends (`-` is in both): every context whose name
   * the channel starts with counts.
   */
  channelEvents(channel: string): Promise<string[]>;
  /** Whether a channel belongs to a draft (any of its events) or a hidden report. */
  channelClosed(channel: string, fresh?: boolean): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Draft events and hidden reports (policy/visibility.ts). */
    visibility: Visibility;
  }
}

export type { Scope as VisibilityScope };

/**
 * The visibility plugin: the cache, the one preHandler deciding draft and hidden visibility for
 * every route (the rule in this file's header), and the channel resolution realtime asks.
 */
export const visibilityPlugin = fp(
  async (app: FastifyInstance) => {
    const cache = createVisibilityCache(app.database);
    const scopes: Record<string, Scope> = { ...SCOPES };
    const channelOwners = new Map<string, { at: number; events: string[]; db: string | null }>();

    async function channelOwner(channel: string) {
      const hit = channelOwners.get(channel);
      if (hit && Date.now() - hit.at < 60_000) return hit;
      const rows = await app.database.query<{ db: string; eventId: string }>(
        `SELECT db, event_id AS "eventId" FROM contexts
          WHERE $1 = 'results-' || db OR starts_with($1, 'results-' || db || '-')`,
        [channel],
      );
      const longest = rows.sort((a, b) => b.db.length - a.db.length)[0]?.db ?? null;
      const value = { at: Date.now(), events: [...new Set(rows.map((r) => r.eventId))], db: longest };
      // A channel naming no context yet is not remembered: the context may be made a moment later.
      if (!rows.length) return value;
      if (channelOwners.size > MAX_ENTRIES) channelOwners.clear();
      channelOwners.set(channel, value);
      return value;
    }

    const visibility: Visibility = {
      cache,
      addScope(name, scope) {
        scopes[name] = scope;
      },
      scopeNames: () => Object.keys(scopes),
      async forget() {
        cache.forget();
        if (app.hasDecorator('realtime')) await app.realtime.broadcastInternal(FORGET_EVENT, '');
      },
      async channelEvents(channel) {
        if (channel.startsWith('photos-')) return [channel.slice('photos-'.length)];
        if (!channel.startsWith('results-')) return [];
        return (await channelOwner(channel)).events;
      },
      async channelClosed(channel, fresh = false) {
        if (channel.startsWith('photos-'))
          return Boolean((await cache.visibility(channel.slice('photos-'.length), fresh))?.draft);
        if (!channel.startsWith('results-')) return false;
        const owner = await channelOwner(channel);
        for (const eventId of owner.events) if ((await cache.visibility(eventId, fresh))?.draft) return true;
        // `results-{db}-report-{group}-{report}[-top|-w{k}]` of a hidden report.
        if (!owner.db) return false;
        const rest = channel.slice(`results-${owner.db}-report-`.length);
        if (!channel.startsWith(`results-${owner.db}-report-`)) return false;
        for (const name of await cache.hiddenReports(owner.db)) {
          if (name.startsWith('*/')) continue;
          const [group, key] = name.split('/') as [string, string];
          const base = `${channelPart(group)}-${channelPart(key)}`;
          const window = rest.startsWith(`${base}-w`) && /^\d+$/.test(rest.slice(base.length + 2));
          if (rest === base || rest === `${base}-top` || window) return true;
        }
        return false;
      },
    };
    app.decorate('visibility', visibility);
    app.addHook('onReady', async () => {
      if (app.hasDecorator('realtime')) app.realtime.onInternal(FORGET_EVENT, () => cache.forget());
    });

    app.addHook('preHandler', async (request) => {
      const access = request.routeOptions.schema?.access;
      // Issue 42: 401 before any lookup, whether the id exists or not.
      if (access && access !== 'public' && access !== 'key' && !request.user) throw errors.unauthorized();
      // The outermost parameter names the event; the ones under it (a photo of an event, a race
      // of a context) are the route's: it checks the caller before it looks them up.
      const [outer] = scopedParams(request, scopes);
      const named = outer ?? eventInBody(request);
      if (!named) return;
      const [, value, scope] = named;
      const owner = await scope.eventOf(cache, value);
      if (owner === null) {
        if (scope.routeAnswersMissing) return;
        throw scope.missing(value);
      }
      const seen = await cache.visibility(owner);
      if (!seen) throw scope.missing(value);
      if (seen.draft && !seesDrafts(request, seen.organisationId)) throw scope.missing(value);
      if (!(await hiddenReport(request, cache, owner))) return;
      if (seesDrafts(request, seen.organisationId)) return;
      const { report } = request.params as { report: string };
      throw errors.notFound('REPORT_NOT_FOUND', `No report '${report}'`);
    });
  },
  { name: 'visibility', dependencies: ['identity'] },
);
