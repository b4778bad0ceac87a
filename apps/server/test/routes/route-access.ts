/**
 * Who may call each route: the expectations of the authorization-matrix test
 * (route-matrix.test.ts) and the route list of the fuzz test (route-fuzz.test.ts).
 *
 * EVERY route registered in the app must have a line here, or both tests fail naming it. Adding
 * a route? Add one line, `'METHOD /url/:param': 'access',` with the access it grants:
 *   public      anyone, anonymous included (the matrix checks nothing; the fuzz still runs)
 *   signed-in   any signed-in user (refused: anonymous, expired token, token of another issuer)
 *   staff       platform staff only (refused: everyone else, organisers included)
 *   owner       owners of the organisation (refused: staff members below, timekeepers, others…)
 *   manager     owners and staff of the organisation (refused: timekeepers, other organisers, …)
 *   timekeeper  owners, staff and timekeepers of the organisation (refused: other organisers, …)
 *   key         a device key or an app signature, no user (refused: every user and anonymous)
 * The route's resource is the demo organisation's (`demo-city-run`, `demo-city-run-10k`,
 * `city-10k`, …: see `PARAMS` in route-table.ts); add `{ params: { name: value } }` as a second
 * element when a param of a new name needs a real value, or `{ body }` when the route reads
 * its body before checking the caller.
 */
export type Access = 'public' | 'signed-in' | 'staff' | 'owner' | 'manager' | 'timekeeper' | 'key';
export interface AccessOptions {
  params?: Record<string, string>;
  body?: unknown;
  /** The fuzz test leaves the route out (say why). */
  noFuzz?: string;
}
export type AccessEntry = Access | [Access, AccessOptions];

export const routeAccess: Record<string, AccessEntry> = {
  'GET /*': 'public',
  'GET /.well-known/jwks.json': 'public',
  'POST /api/auth/forgot-password': 'public',
  'POST /api/auth/refresh': 'public',
  'POST /api/auth/resend-verification': 'public',
  'POST /api/auth/reset-password': 'public',
  'POST /api/auth/sign-in': 'public',
  'POST /api/auth/sign-out': 'public',
  'POST /api/auth/sign-up': 'public',
  'POST /api/auth/verify-email': 'public',
  'DELETE /api/console/contexts/:db': 'manager',
  'PATCH /api/console/contexts/:db': 'manager',
  'POST /api/console/contexts/:db/races': 'manager',
  'DELETE /api/console/events/:eventId': 'manager',
  'GET /api/console/events/:eventId': 'timekeeper',
  'PATCH /api/console/events/:eventId': 'manager',
  'POST /api/console/events/:eventId/contexts': 'manager',
  'DELETE /api/console/events/:eventId/logo': 'manager',
  'PUT /api/console/events/:eventId/logo': 'manager',
  'GET /api/console/invitations/:token': 'public',
  'POST /api/console/invitations/:token/accept': [
    'signed-in',
    { params: { token: 'matrix-invitation-token-0001' } },
  ],
  'GET /api/console/organisations': 'signed-in',
  'POST /api/console/organisations': 'signed-in',
  'GET /api/console/organisations/:orgId': 'timekeeper',
  'PATCH /api/console/organisations/:orgId': 'owner',
  'GET /api/console/organisations/:orgId/events': 'timekeeper',
  'POST /api/console/organisations/:orgId/events': 'manager',
  'GET /api/console/organisations/:orgId/invitations': 'owner',
  'POST /api/console/organisations/:orgId/invitations': 'owner',
  'DELETE /api/console/organisations/:orgId/invitations/:id': [
    'owner',
    { params: { id: '00000000-0000-4000-8000-0000000001a0' } },
  ],
  'GET /api/console/organisations/:orgId/members': 'timekeeper',
  'DELETE /api/console/organisations/:orgId/members/:sub': 'owner',
  'PATCH /api/console/organisations/:orgId/members/:sub': 'owner',
  'DELETE /api/console/races/:raceId': 'manager',
  'GET /api/console/races/:raceId': 'timekeeper',
  'PATCH /api/console/races/:raceId': 'manager',
  'PUT /api/console/races/:raceId/categories': 'manager',
  'DELETE /api/console/races/:raceId/course': 'manager',
  'PUT /api/console/races/:raceId/course': 'manager',
  'POST /api/console/races/:raceId/course/place': 'manager',
  'PUT /api/console/races/:raceId/points': 'manager',
  'GET /api/console/races/:raceId/reports': 'timekeeper',
  'POST /api/console/races/:raceId/reports': 'manager',
  'DELETE /api/console/races/:raceId/reports/:key': 'manager',
  'PATCH /api/console/races/:raceId/reports/:key': 'manager',
  'PUT /api/console/races/:raceId/reports/order': 'manager',
  'PUT /api/console/races/:raceId/team-rule': 'manager',
  'GET /api/dev/outbox': 'staff',
  'GET /api/env-config': 'public',
  'GET /api/events': 'public',
  'GET /api/events/:id': 'public',
  'PATCH /api/events/:id': 'manager',
  'POST /api/events/:id/cms/pages': 'manager',
  'DELETE /api/events/:id/cms/pages/:key': 'manager',
  'GET /api/events/:id/cms/pages/:key': 'public',
  'PATCH /api/events/:id/cms/pages/:key': 'manager',
  'POST /api/events/:id/cms/reorder': 'manager',
  'GET /api/events/:id/cms/tree': 'public',
  'POST /api/events/:id/contact': 'public',
  'GET /api/events/:id/contacts': 'public',
  'POST /api/events/:id/contacts': 'manager',
  'DELETE /api/events/:id/contacts/:contactId': 'manager',
  'PATCH /api/events/:id/contacts/:contactId': 'manager',
  'GET /api/events/:id/logo': 'public',
  'GET /api/events/:id/photos': 'public',
  'POST /api/events/:id/photos': 'manager',
  'DELETE /api/events/:id/photos/:photoId': 'manager',
  'PATCH /api/events/:id/photos/:photoId': 'manager',
  'GET /api/events/:id/streams': 'public',
  'POST /api/events/:id/streams': 'manager',
  'DELETE /api/events/:id/streams/:streamId': 'manager',
  'PUT /api/events/:id/streams/:streamId': 'manager',
  'GET /api/health': 'public',
  'POST /api/ingest/passings': 'key',
  'GET /api/objects/:token': 'public',
  'GET /api/permission/get': 'public',
  'GET /api/photos/:photoId/:size': 'public',
  'GET /api/ready': 'public',
  'POST /api/realtime/auth': 'signed-in',
  'GET /api/results/:eventId/groups/:group/reports/:report': 'public',
  'GET /api/results/:eventId/reportlist': 'public',
  'POST /api/results/contexts/:db/devices': 'timekeeper',
  'POST /api/results/contexts/:db/import/boston': 'manager',
  'POST /api/results/contexts/:db/import/passings': 'timekeeper',
  'GET /api/results/contexts/:db/participants': 'public',
  'GET /api/results/contexts/:db/participants/:bib': 'public',
  'POST /api/results/contexts/:db/passings': 'timekeeper',
  'GET /api/results/contexts/:db/races': 'public',
  'POST /api/results/contexts/:db/races': 'manager',
  'GET /api/results/contexts/:db/races/:raceId/course': 'public',
  'POST /api/results/contexts/:db/races/:raceId/import/participants': 'manager',
  'GET /api/results/contexts/:db/races/:raceId/leaders': 'public',
  'POST /api/results/contexts/:db/races/:raceId/participants': 'manager',
  'GET /api/results/contexts/:db/races/:raceId/stats': 'public',
  'GET /api/results/contexts/:db/races/:raceId/teams': 'public',
  'GET /api/results/contexts/:db/races/:raceId/timetrial': 'public',
  'GET /api/results/contexts/:db/reports/:report': 'public',
  'POST /api/results/events/:eventId/contexts': [
    'manager',
    { body: { db: 'matrix-context', name: 'Matrix' } },
  ],
  'GET /api/series/:context': 'public',
  'PUT /api/series/:context/races/:raceKey/results': 'manager',
  'GET /api/tracking/:key': 'public',
  'GET /api/translation/i18n/:ui/:ns/:lng': 'public',
  'GET /api/user/get': 'signed-in',
  'POST /api/user/profile': 'signed-in',
  'POST /apps/:appId/batch_events': 'key',
  'GET /apps/:appId/channels': 'key',
  'GET /apps/:appId/channels/:channelName': 'key',
  'GET /apps/:appId/channels/:channelName/users': 'key',
  'POST /apps/:appId/events': 'key',
};
