import type { Action, Subject } from '@tempora/contracts';
import type { FastifyRequest } from 'fastify';
import type { Sql } from '../db/database.ts';
import { type AppError, errors } from '../errors.ts';

/**
 * The one authorisation policy of the server (issue 30). Every route checks its caller here, on
 * the abilities the identity plugin computed (`request.ability`, the CASL rules of
 * packages/contracts/src/abilities.ts): modules load the row a request touches (the owners every
 * module shares — organisation, event, context, race — are loaded here; a module's own rows —
 * deposit, order, document, webhook — by the module) and ask one question of this file.
 *
 * The one rule for refusals (test/routes/route-access.ts asserts it for every route and caller):
 * - 401 anonymous (or a bad token), before anything is looked up;
 * - 404, the same answer as for a row that does not exist, when the caller is outside the row's
 *   organisation and the row is not public (a deposit, an order, a document, a webhook, anything
 *   the organisation console shows): ids cannot be probed;
 * - 403 when the caller can see the row but may not do the action: a member whose role does not
 *   allow it, or anyone outside the organisation on a row under a published event, context or
 *   race (its id is public on the results pages).
 */

/** The subject types a check names (those of the abilities, `all` aside). */
export type SubjectType = Exclude<Subject, 'all'>;

/** A CASL subject with its type (typed: no cast at the call site). */
export function asSubject<T extends Record<string, unknown>>(type: SubjectType, object: T): T {
  return Object.defineProperty(object, '__caslSubjectType__', { value: type });
}

/** Whether the caller may `action` the `type` of an organisation (no throw). */
export function allows(
  request: FastifyRequest,
  action: Action,
  type: SubjectType,
  object: { organisationId: string } & Record<string, unknown>,
): boolean {
  return Boolean(request.ability?.can(action, asSubject(type, { ...object })));
}

/** Whether the caller is a member of the organisation (or platform staff). */
export function isMember(request: FastifyRequest, organisationId: string): boolean {
  return Boolean(request.ability?.can('read', asSubject('Organisation', { id: organisationId })));
}

/** 401 when anonymous; the caller otherwise. */
export function requireUser(request: FastifyRequest) {
  if (!request.user) throw errors.unauthorized();
  return request.user;
}

/**
 * A check on a row that is public (a published event's content, results, devices): 401 when
 * anonymous, 403 when the ability does not allow the action.
 */
export function requireAbility(
  request: FastifyRequest,
  action: Action,
  type: SubjectType,
  organisationId: string,
  what = `${type}`,
): void {
  requireUser(request);
  if (!allows(request, action, type, { organisationId }))
    throw errors.forbidden(`No ${action} access to ${what}`);
}

/**
 * A check on a private row (the console's organisations, events, contexts, races): 401 anonymous,
 * `notFound` when the caller is no member of the organisation, 403 when a member's role does not
 * allow the action. The console's reads are private (spectators' reads are the public routes):
 * membership is the read right; other actions need the role's ability.
 */
export function authorize(
  request: FastifyRequest,
  action: Action,
  type: SubjectType,
  organisationId: string,
  notFound: () => Error,
): void {
  requireUser(request);
  if (!isMember(request, organisationId)) throw notFound();
  if (action === 'read') return;
  const object = type === 'Organisation' ? { id: organisationId } : { organisationId };
  if (request.ability.can(action, asSubject(type, object))) return;
  throw errors.forbidden(`Your role does not allow ${action} ${type}`);
}

/**
 * The 404 half of the rule for a row addressed by its own id, after an ability check that threw
 * 403: a caller outside the row's organisation gets `notFound` instead. Use as
 * `.catch(hideFromOutsiders(…))`, after the caller is known to be signed in.
 */
export function hideFromOutsiders(request: FastifyRequest, organisationId: string, notFound: () => AppError) {
  return (error: unknown): never => {
    if ((error as AppError | undefined)?.status === 403 && !isMember(request, organisationId))
      throw notFound();
    throw error;
  };
}

export interface OrganisationRef {
  id: string;
  name: string;
}

/** The owner of an event, as every module needs it. */
export interface EventOwner {
  id: string;
  organisationId: string;
  name: string;
}

export interface EventRef extends EventOwner {
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

/** The event (404 EVENT_NOT_FOUND when there is none), unchecked. */
export async function findEventOwner(sql: Sql, eventId: string): Promise<EventOwner> {
  const [event] = await sql.query<EventOwner>(
    'SELECT id, organisation_id AS "organisationId", name FROM events WHERE id = $1',
    [eventId],
  );
  if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
  return event;
}

/** A published event's row, checked: 404 EVENT_NOT_FOUND, 401, 403 ({@link requireAbility}). */
export async function requireEventAbility(
  request: FastifyRequest,
  sql: Sql,
  eventId: string,
  action: Action,
  type: SubjectType,
): Promise<EventOwner> {
  const event = await findEventOwner(sql, eventId);
  requireAbility(request, action, type, event.organisationId, `${type} of event '${eventId}'`);
  return event;
}

/** The organisation, checked privately (404 ORGANISATION_NOT_FOUND). */
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

/** A row of an organisation loaded by its id, then checked privately ({@link authorize}). */
async function loadChecked<T extends { organisationId: string }>(
  request: FastifyRequest,
  sql: Sql,
  query: string,
  id: string,
  miss: () => Error,
  action: Action,
  type: SubjectType,
): Promise<T> {
  requireUser(request);
  const [row] = await sql.query<T>(query, [id]);
  if (!row) throw miss();
  authorize(request, action, type, row.organisationId, miss);
  return row;
}

/** The event, checked privately on `type` of its organisation (404 EVENT_NOT_FOUND). */
export async function eventFor(
  request: FastifyRequest,
  sql: Sql,
  eventId: string,
  action: Action,
  type: SubjectType = 'Event',
): Promise<EventRef> {
  return loadChecked<EventRef>(
    request,
    sql,
    `SELECT id, organisation_id AS "organisationId", name, time_zone AS "timeZone", visibility
       FROM events WHERE id = $1`,
    eventId,
    notFound('EVENT_NOT_FOUND', `event '${eventId}'`),
    action,
    type,
  );
}

/** The context, checked privately on `type` of its event's organisation (404 CONTEXT_NOT_FOUND). */
export async function contextFor(
  request: FastifyRequest,
  sql: Sql,
  db: string,
  action: Action,
  type: SubjectType = 'Event',
): Promise<ContextRef> {
  return loadChecked<ContextRef>(
    request,
    sql,
    `SELECT c.db, c.event_id AS "eventId", e.organisation_id AS "organisationId", e.time_zone AS "timeZone"
       FROM contexts c JOIN events e ON e.id = c.event_id WHERE c.db = $1`,
    db,
    notFound('CONTEXT_NOT_FOUND', `context '${db}'`),
    action,
    type,
  );
}

/** The race, checked privately on `type` of its organisation (404 RACE_NOT_FOUND). */
export async function raceFor(
  request: FastifyRequest,
  sql: Sql,
  raceId: string,
  action: Action,
  type: SubjectType = 'Race',
): Promise<RaceRef> {
  return loadChecked<RaceRef>(
    request,
    sql,
    `SELECT r.id, r.db, to_char(r.race_date, 'YYYY-MM-DD') AS "raceDate", c.event_id AS "eventId",
            e.organisation_id AS "organisationId", e.time_zone AS "timeZone"
       FROM races r JOIN contexts c ON c.db = r.db JOIN events e ON e.id = c.event_id WHERE r.id = $1`,
    raceId,
    notFound('RACE_NOT_FOUND', `race '${raceId}'`),
    action,
    type,
  );
}

/** Whether the caller manages deposits and payments of an organisation (owner or staff). */
export function isOrganiserStaff(request: FastifyRequest, organisationId: string): boolean {
  return Boolean(request.user) && allows(request, 'manage', 'Deposit', { organisationId });
}

/**
 * The event, when the caller is owner or staff of its organisation: 404 EVENT_NOT_FOUND, 401
 * anonymous, 403 otherwise (another organisation's staff included: the event is public).
 */
export async function requireEventStaff(request: FastifyRequest, sql: Sql, eventId: string) {
  const event = await findEventOwner(sql, eventId);
  requireUser(request);
  if (!isOrganiserStaff(request, event.organisationId)) {
    throw errors.forbidden(`Not an organiser of event '${eventId}'`);
  }
  return event;
}
