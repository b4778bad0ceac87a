import type { FastifyRequest } from 'fastify';
import type { Sql } from '../../db/database.ts';
import { errors } from '../../errors.ts';

/** The subjects of the content module (packages/contracts/src/abilities.ts). */
export type ContentSubject = 'Event' | 'CmsPage' | 'Contact' | 'Stream' | 'Photo';
type Action = 'create' | 'update' | 'delete' | 'publish' | 'manage';

/** A CASL subject with its type, as `subject()` of @casl/ability marks it. */
export function asSubject<T extends Record<string, unknown>>(type: string, object: T): T {
  return Object.defineProperty(object, '__caslSubjectType__', { value: type });
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
