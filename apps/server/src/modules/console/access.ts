import type { FastifyRequest } from 'fastify';
import type { Sql } from '../../db/database.ts';
import { errors } from '../../errors.ts';

type Action = 'read' | 'create' | 'update' | 'delete' | 'manage';
type Subject = 'Organisation' | 'Event' | 'Race' | 'Report' | 'Participant' | 'Passing';

/** A CASL subject with its type, as `subject()` of @casl/ability marks it. */
export function asSubject<T extends Record<string, unknown>>(type: string, object: T): T {
  return Object.defineProperty(object, '__caslSubjectType__', { value: type });
}

/** 401 when anonymous. */
export function requireUser(request: FastifyRequest) {
  if (!request.user) throw errors.unauthorized();
  return request.user;
}

/**
 * Checks the caller's ability on a subject of an organisation: 401 anonymous, 404 when the caller
 * is no member of it at all (another organisation's things are not even confirmed to exist,
 * product.md "organisers see only their own organisation's data"), 403 when a member's role does
 * not allow the action.
 */
export function authorize(
  request: FastifyRequest,
  action: Action,
  subject: Subject,
  organisationId: string,
  notFound: () => Error,
) {
  requireUser(request);
  const member = request.ability.can('read', asSubject('Organisation', { id: organisationId }) as never);
  if (!member) throw notFound();
  // The console's reads are private (spectators' reads are the public routes): membership is the
  // read right; other actions need the role's ability.
  if (action === 'read') return;
  const object = subject === 'Organisation' ? { id: organisationId } : { organisationId };
  if (request.ability.can(action, asSubject(subject, object) as never)) return;
  throw errors.forbidden(`Your role does not allow ${action} ${subject}`);
}

export interface OrganisationRef {
  id: string;
  name: string;
}

export interface EventRef {
  id: string;
  organisationId: string;
  name: string;
  timeZone: string;
  visibility: 'draft' | 'public';
}

export interface ContextRef {
  db: string;
  eventId: string;
  organisationId: string;
  timeZone: string;
}

export interface RaceRef extends ContextRef {
  id: string;
  raceDate: string;
}

const notFound = (code: string, what: string) => () => errors.notFound(code, `No ${what}`);

/** The organisation, checked (404 ORGANISATION_NOT_FOUND). */
export async function organisationFor(
  request: FastifyRequest,
  sql: Sql,
  organisationId: string,
  action: Action,
): Promise<OrganisationRef> {
  const miss = notFound('ORGANISATION_NOT_FOUND', `organisation '${organisationId}'`);
  requireUser(request);
  const [row] = /^[0-9a-f-]{36}$/i.test(organisationId)
    ? await sql.query<OrganisationRef>('SELECT id, name FROM organisations WHERE id = $1', [organisationId])
    : [];
  if (!row) throw miss();
  authorize(request, action, 'Organisation', row.id, miss);
  return row;
}

/** The event, checked on `subject` of its organisation (404 EVENT_NOT_FOUND). */
export async function eventFor(
  request: FastifyRequest,
  sql: Sql,
  eventId: string,
  action: Action,
  subject: Subject = 'Event',
): Promise<EventRef> {
  const miss = notFound('EVENT_NOT_FOUND', `event '${eventId}'`);
  requireUser(request);
  const [row] = await sql.query<EventRef>(
    `SELECT id, organisation_id AS "organisationId", name, time_zone AS "timeZone", visibility
       FROM events WHERE id = $1`,
    [eventId],
  );
  if (!row) throw miss();
  authorize(request, action, subject, row.organisationId, miss);
  return row;
}

/** The context, checked on `subject` of its event's organisation (404 CONTEXT_NOT_FOUND). */
export async function contextFor(
  request: FastifyRequest,
  sql: Sql,
  db: string,
  action: Action,
  subject: Subject = 'Event',
): Promise<ContextRef> {
  const miss = notFound('CONTEXT_NOT_FOUND', `context '${db}'`);
  requireUser(request);
  const [row] = await sql.query<ContextRef>(
    `SELECT c.db, c.event_id AS "eventId", e.organisation_id AS "organisationId", e.time_zone AS "timeZone"
       FROM contexts c JOIN events e ON e.id = c.event_id WHERE c.db = $1`,
    [db],
  );
  if (!row) throw miss();
  authorize(request, action, subject, row.organisationId, miss);
  return row;
}

/** The race, checked on `subject` of its organisation (404 RACE_NOT_FOUND). */
export async function raceFor(
  request: FastifyRequest,
  sql: Sql,
  raceId: string,
  action: Action,
  subject: Subject = 'Race',
): Promise<RaceRef> {
  const miss = notFound('RACE_NOT_FOUND', `race '${raceId}'`);
  requireUser(request);
  const [row] = await sql.query<RaceRef>(
    `SELECT r.id, r.db, to_char(r.race_date, 'YYYY-MM-DD') AS "raceDate", c.event_id AS "eventId",
            e.organisation_id AS "organisationId", e.time_zone AS "timeZone"
       FROM races r JOIN contexts c ON c.db = r.db JOIN events e ON e.id = c.event_id WHERE r.id = $1`,
    [raceId],
  );
  if (!row) throw miss();
  authorize(request, action, subject, row.organisationId, miss);
  return row;
}
