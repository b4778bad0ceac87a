import type { FastifyRequest } from 'fastify';
import type { Sql } from '../../db/database.ts';
import { type AppError, errors } from '../../errors.ts';

/** The subjects of the content module (packages/contracts/src/abilities.ts). */
export type ContentSubject = 'Event' | 'CmsPage' | 'Contact' | 'Stream' | 'Photo';
type Action = 'create' | 'update' | 'delete' | 'publish' | 'manage';

/** A CASL subject with its type, as `subject()` of @casl/ability marks it. */
export function asSubject<T extends Record<string, unknown>>(type: string, object: T): T {
  return Object.defineProperty(object, '__caslSubjectType__', { value: type });
}

/**
 * The 404-vs-403 rule for a row addressed by its own id (issue 25; the matrix in
 * test/routes/route-access.ts states it for every route): a caller outside the row's organisation
 * gets the same 404 as for a missing row, so ids cannot be probed; a member of the organisation
 * whose role does not allow the action gets 403. Use as `.catch(hideFromOutsiders(…))` on the
 * ability check, after the caller is known to be signed in.
 */
export function hideFromOutsiders(request: FastifyRequest, organisationId: string, notFound: () => AppError) {
  return (error: unknown): never => {
    const user = request.user;
    const insider =
      user?.isPlatformStaff || user?.memberships.some((m) => m.organisationId === organisationId);
    if ((error as AppError | undefined)?.status === 403 && !insider) throw notFound();
    throw error;
  };
}

/** The owner of an event, for ability conditions. */
export interface EventOwner {
  id: string;
  organisationId: string;
  name: string;
}

/** The event (404 EVENT_NOT_FOUND when there is none). */
export async function findEventOwner(sql: Sql, eventId: string): Promise<EventOwner> {
  const [event] = await sql.query<EventOwner>(
    'SELECT id, organisation_id AS "organisationId", name FROM events WHERE id = $1',
    [eventId],
  );
  if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
  return event;
}

/** Whether the caller may `action` the `subjectType` of an organisation (no throw). */
export function can(
  request: FastifyRequest,
  action: Action,
  subjectType: ContentSubject,
  organisationId: string,
) {
  return request.ability.can(action, asSubject(subjectType, { organisationId }) as never);
}

/**
 * Loads the event and checks the caller's ability on its organisation: 401 when anonymous, 403
 * when the ability (organisation-scoped, product.md "organisers see only their own organisation's
 * data") does not allow it, 404 when the event does not exist.
 */
export async function requireEventAbility(
  request: FastifyRequest,
  sql: Sql,
  eventId: string,
  action: Action,
  subjectType: ContentSubject,
): Promise<EventOwner> {
  const event = await findEventOwner(sql, eventId);
  if (!request.user) throw errors.unauthorized();
  if (!can(request, action, subjectType, event.organisationId)) {
    throw errors.forbidden(`No ${action} access to ${subjectType} of event '${eventId}'`);
  }
  return event;
}
