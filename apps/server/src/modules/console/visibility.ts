import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import { allows } from '../../policy/policy.ts';

/** What the visibility check needs of an event. */
interface EventVisibility {
  organisationId: string;
  draft: boolean;
}

/** How long a node trusts its copy of an event's visibility (another node may have changed it). */
const TTL_MS = 2_000;
const MAX_ENTRIES = 20_000;

/**
 * Cached lookups for the visibility check: which event a context, a tracking key or a photo
 * belongs to (never changes) and whether that event is a draft (kept `TTL_MS`, forgotten at once
 * on this node when the console changes it). Reads of results are hot (64 concurrent readers of
 * a 26,000-row table): one query per read would cost more than the read itself.
 */
export function createVisibilityCache(database: Database) {
  const owners = new Map<string, string | null>();
  const events = new Map<string, { at: number; value: EventVisibility | null }>();

  async function eventOf(kind: 'db' | 'tracking' | 'photo' | 'token', key: string): Promise<string | null> {
    const cacheKey = `${kind}:${key}`;
    if (owners.has(cacheKey)) return owners.get(cacheKey) ?? null;
    const sql = {
      db: 'SELECT event_id AS id FROM contexts WHERE db = $1',
      tracking: `SELECT c.event_id AS id FROM participants p JOIN races r ON r.id = p.race_id
                   JOIN contexts c ON c.db = r.db WHERE p.tracking_key = $1`,
      photo: 'SELECT event_id AS id FROM photos WHERE id::text = $1',
      token: 'SELECT c.event_id AS id FROM team_tokens t JOIN contexts c ON c.db = t.db WHERE t.token = $1',
    }[kind];
    const [row] = await database.query<{ id: string }>(sql, [key]);
    // Unknown keys are not cached: the thing may be created a moment later.
    if (!row) return null;
    if (owners.size > MAX_ENTRIES) owners.clear();
    owners.set(cacheKey, row.id);
    return row.id;
  }

  async function visibility(eventId: string): Promise<EventVisibility | null> {
    const hit = events.get(eventId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
    const [row] = await database.query<EventVisibility>(
      `SELECT organisation_id AS "organisationId", visibility = 'draft' AS draft FROM events WHERE id = $1`,
      [eventId],
    );
    if (events.size > MAX_ENTRIES) events.clear();
    events.set(eventId, { at: Date.now(), value: row ?? null });
    return row ?? null;
  }

  return {
    eventOf,
    visibility,
    /** Forgets every visibility (after a console change on this node). */
    forget() {
      events.clear();
    },
  };
}
export type VisibilityCache = ReturnType<typeof createVisibilityCache>;

/** The event a public read names through its route parameters, if any. */
async function eventOfRequest(request: FastifyRequest, cache: VisibilityCache): Promise<string | null> {
  const url = request.routeOptions.url ?? '';
  const params = (request.params ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : null);
  if (url.startsWith('/api/console/')) return null;
  if (url.startsWith('/api/events/:id')) return text('id');
  if (url.startsWith('/api/results/:eventId')) return text('eventId');
  const db = text('db');
  if (db !== null) return cache.eventOf('db', db);
  if (url.startsWith('/api/tracking/:key')) return cache.eventOf('tracking', text('key') ?? '');
  if (url.startsWith('/api/objects/:token')) {
    const token = text('token') ?? '';
    return (await cache.eventOf('token', token)) ?? cache.eventOf('tracking', token);
  }
  if (url.startsWith('/api/photos/:photoId')) return cache.eventOf('photo', text('photoId') ?? '');
  return null;
}

/**
 * Draft events are invisible to spectators everywhere (issue 14): every GET naming an event —
 * directly (`/api/events/{id}/…`, `/api/results/{eventId}/…`) or through one of its contexts, a
 * tracking key, a team token or a photo — answers 404 unless the caller is a member of the
 * event's organisation (or platform staff). The events list leaves drafts out on its own.
 * Writes are the routes' own ability checks.
 */
export function enforceDraftVisibility(app: FastifyInstance, cache: VisibilityCache) {
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const eventId = await eventOfRequest(request, cache);
    if (eventId === null) return;
    const event = await cache.visibility(eventId);
    if (!event?.draft) return;
    const seen = allows(request, 'read', 'Event', {
      organisationId: event.organisationId,
      visibility: 'draft',
    });
    if (!seen) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
  });
}
