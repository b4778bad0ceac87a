/**
 * Who may call each route: the expectations of the authorization-matrix test
 * (route-matrix.test.ts) and the route list of the fuzz test (route-fuzz.test.ts).
 *
 * EVERY route registered in the app must have a line here, or both tests fail naming it. Adding
 * a route? Add one line, `'METHOD /url/:param': 'access',` with the access it grants:
 *   public      anyone, anonymous included (the matrix checks nothing; the fuzz still runs)
 *   signed-in   any signed-in user (refused: anonymous, expired token, token of another issuer)
 *   party       a signed-in party to the row: a deposit's captain and members, an order's payer
 *               and captain, the staff of its organisation (refused: also strangers, other
 *               organisers and the organisation's timekeepers)
 *   staff       platform staff only (refused: everyone else, organisers included)
 *   owner       owners of the organisation (refused: staff members below, timekeepers, others…)
 *   manager     owners and staff of the organisation (refused: timekeepers, other organisers, …)
 *   timekeeper  owners, staff and timekeepers of the organisation (refused: other organisers, …)
 *   pickup      owners, staff and pickup staff of the organisation (refused: timekeepers, other organisers, …)
 *   key         a device key or an app signature, no user (refused: every user and anonymous)
 * The route's resource is the demo organisation's (`demo-city-run`, `demo-city-run-10k`,
 * `city-10k`, …: see `PARAMS` in route-table.ts), and every id in a path is a real row of it
 * (foreign-rows.ts, issue 25): for the matrix's stranger and other organiser it is another
 * organisation's row. Add `{ params: { name: value } }` as a second element when a param of a new
 * name needs a value for the fuzz test, `{ body }` when the route reads its body before checking
 * the caller, and a real row in foreign-rows.ts for a new kind of id.
 *
 * The refusal codes (one rule, asserted per route and caller by the matrix, `expectedRefusal` in
 * route-table.ts):
 *   401  anonymous, an expired token, a token of an untrusted issuer; every user on a `key`
 *        route. Always before any lookup, so it says nothing of what exists.
 *   404  a caller outside the organisation, for a row addressed by its own id (a deposit, an
 *        order, a webhook, a confirmation document) or anything of the organisation console
 *        (organisations, events, contexts and races as the console shows them): the same answer
 *        as for an id that does not exist.
 *   403  a member of the organisation (or a party to the deposit) whose role does not allow the
 *        action; and anyone outside the organisation on a route under a published event,
 *        context or race, whose id is public on the results pages. Such routes check the caller
 *        before looking up the child id, so a real and a missing child id answer the same (the
 *        matrix asserts it for every route with a real row).
 * A draft event and a hidden report (issue 42, route-draft.test.ts, policy/visibility.ts): every
 * route whose parameters reach the draft's data, and every route naming the hidden report,
 * answers anonymous callers and another organisation's owner and timekeeper exactly as it answers
 * a missing id. A parameter of a new name either leads to its event there or says why not
 * (`NOT_SCOPES` in route-draft.test.ts).
 */
export type Access =
  | 'public'
  | 'signed-in'
  | 'party'
  | 'staff'
  | 'owner'
  | 'manager'
  | 'timekeeper'
  | 'pickup'
  | 'key';
export interface AccessOptions {
  params?: Record<string, string>;
  body?: unknown;
  /** The fuzz test leaves the route out (say why). */
  noFuzz?: string;
}
export type AccessEntry = Access | [Access, AccessOptions];

export const routeAccess: Record<string, AccessEntry> = {
  'GET /*': 'public',
  'GET /metrics': 'key',
  // Registered instead of `GET /*` when the web client is not built (a fresh clone before `npm run build`).
  'GET /': 'public',
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
  'DELETE /api/console/races/:raceId/fade-prior': 'manager',
  'PUT /api/console/races/:raceId/fade-prior': 'manager',
  'PUT /api/console/races/:raceId/format': 'manager',
  'PUT /api/console/races/:raceId/publication': 'manager',
  'GET /api/console/races/:raceId/publication': 'timekeeper',
  'GET /api/console/races/:raceId/review': 'timekeeper',
  'PUT /api/console/races/:raceId/cutoff-overrides': 'timekeeper',
  'PUT /api/console/races/:raceId/relay-members': 'manager',
  'POST /api/console/races/:raceId/course/place': 'manager',
  'PUT /api/console/races/:raceId/points': 'manager',
  'GET /api/console/races/:raceId/reports': 'timekeeper',
  'POST /api/console/races/:raceId/reports': 'manager',
  'DELETE /api/console/races/:raceId/reports/:key': 'manager',
  'PATCH /api/console/races/:raceId/reports/:key': 'manager',
  'PUT /api/console/races/:raceId/reports/order': 'manager',
  'POST /api/console/races/:raceId/reports/visibility': 'manager',
  'PUT /api/console/races/:raceId/team-rule': 'manager',
  'GET /api/dev/outbox': 'staff',
  'GET /api/docs': 'public',
  'GET /api/docs/openapi.json': 'public',
  'GET /api/env-config': 'public',
  'GET /api/events': 'public',
  'GET /api/events/:eventId': 'public',
  'PATCH /api/events/:eventId': 'manager',
  'POST /api/events/:eventId/cms/pages': 'manager',
  'DELETE /api/events/:eventId/cms/pages/:key': 'manager',
  'GET /api/events/:eventId/cms/pages/:key': 'public',
  'PATCH /api/events/:eventId/cms/pages/:key': 'manager',
  'POST /api/events/:eventId/cms/reorder': 'manager',
  'GET /api/events/:eventId/cms/tree': 'public',
  'POST /api/events/:eventId/contact': 'public',
  'GET /api/events/:eventId/contacts': 'public',
  'POST /api/events/:eventId/contacts': 'manager',
  'DELETE /api/events/:eventId/contacts/:contactId': 'manager',
  'PATCH /api/events/:eventId/contacts/:contactId': 'manager',
  'GET /api/events/:eventId/logo': 'public',
  'GET /api/events/:eventId/photos': 'public',
  'POST /api/events/:eventId/photos': 'manager',
  'DELETE /api/events/:eventId/photos/:photoId': 'manager',
  'PATCH /api/events/:eventId/photos/:photoId': 'manager',
  'GET /api/events/:eventId/streams': 'public',
  'POST /api/events/:eventId/streams': 'manager',
  'DELETE /api/events/:eventId/streams/:streamId': 'manager',
  'PUT /api/events/:eventId/streams/:streamId': 'manager',
  'GET /api/health': 'public',
  'POST /api/ingest/impinj': 'key',
  'POST /api/ingest/passings': 'key',
  'POST /api/ingest/raceresult': 'key',
  'GET /api/objects/:objectToken': 'public',
  'GET /api/permission/get': 'public',
  'GET /api/photos/:photoId/:size': 'public',
  'GET /api/ready': 'public',
  'POST /api/realtime/auth': 'signed-in',
  'GET /api/raceday/clock': 'public',
  'GET /api/raceday/contexts/:db/audit': 'timekeeper',
  'POST /api/raceday/contexts/:db/audit/:auditId/undo': [
    'timekeeper',
    { params: { auditId: '00000000-0000-4000-8000-0000000a0d17' } },
  ],
  'POST /api/raceday/contexts/:db/corrections': 'timekeeper',
  'GET /api/raceday/contexts/:db/devices': 'timekeeper',
  'POST /api/raceday/contexts/:db/devices': 'timekeeper',
  'PATCH /api/raceday/contexts/:db/devices/:deviceId': [
    'timekeeper',
    { params: { deviceId: '00000000-0000-4000-8000-0000000de71c' } },
  ],
  'POST /api/raceday/contexts/:db/devices/:deviceId/clock': [
    'timekeeper',
    { params: { deviceId: '00000000-0000-4000-8000-0000000de71c' } },
  ],
  'POST /api/raceday/contexts/:db/manual': 'timekeeper',
  'GET /api/raceday/contexts/:db/passings': 'timekeeper',
  'POST /api/raceday/contexts/:db/races/:raceId/start': 'timekeeper',
  'POST /api/raceday/contexts/:db/races/:raceId/status': 'timekeeper',
  'GET /api/raceday/contexts/:db/runners': 'timekeeper',
  'GET /api/raceday/contexts/:db/unknown': 'timekeeper',
  'POST /api/raceday/contexts/:db/unknown/assign': 'timekeeper',
  'GET /api/raceday/events/:eventId': 'timekeeper',
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
  'GET /api/results/contexts/:db/races/:raceId/laps': 'public',
  'GET /api/results/contexts/:db/races/:raceId/legs': 'public',
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
  'GET /api/tracking/:trackingKey': 'public',
  'GET /api/translation/i18n/:ui/:ns/:lng': 'public',
  'GET /api/me/results': 'signed-in',
  'GET /api/me/alerts': 'signed-in',
  'PUT /api/me/alerts': 'signed-in',
  'GET /api/alerts/vapid': 'public',
  'POST /api/alerts': 'public',
  'POST /api/alerts/confirm/:token': ['public', { params: { token: 'AbCdEfGhIjKlMnOpQrStUv' } }],
  'POST /api/alerts/unsubscribe/:token': ['public', { params: { token: 'AbCdEfGhIjKlMnOpQrStUv' } }],
  'GET /api/me/claims/suggestions': 'signed-in',
  'POST /api/me/claims': ['signed-in', { body: { participantId: '00000000-0000-4000-8000-000000000000' } }],
  'POST /api/me/claims/:claimId/confirm': [
    'signed-in',
    { params: { claimId: '00000000-0000-4000-8000-000000000000' }, body: { code: '123456' } },
  ],
  'PUT /api/me/public-page': 'signed-in',
  'GET /api/runners/:slug': ['public', { params: { slug: 'nosuchrunner' } }],
  'GET /api/console/events/:eventId/claims': 'manager',
  'POST /api/console/events/:eventId/claims/:claimId/decision': [
    'manager',
    { params: { claimId: '00000000-0000-4000-8000-000000000000' }, body: { approve: true } },
  ],
  'PUT /api/me/privacy': 'signed-in',
  'GET /api/me/data': 'signed-in',
  'GET /api/me/data.pdf': 'signed-in',
  'GET /api/me/erasure': 'signed-in',
  'POST /api/me/erasure': ['signed-in', { body: { confirmEmail: 'nobody@example.org' } }],
  'GET /api/console/events/:eventId/retention': 'manager',
  'PUT /api/console/events/:eventId/retention': ['manager', { body: { retentionDays: 30 } }],
  'PUT /api/me/results/:participantId/privacy': [
    'signed-in',
    { params: { participantId: '00000000-0000-4000-8000-000000000000' } },
  ],
  'GET /api/user/get': 'signed-in',
  'POST /api/user/profile': 'signed-in',
  'POST /apps/:appId/batch_events': 'key',
  'GET /apps/:appId/channels': 'key',
  'GET /apps/:appId/channels/:channelName': 'key',
  'GET /apps/:appId/channels/:channelName/users': 'key',
  'POST /apps/:appId/events': 'key',
  // Issues 14 B, 16, 17, 18, 20 (added at integration).
  'DELETE /api/console/events/:eventId/participants/:id': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000e1' } },
  ],
  'DELETE /api/deposits/:id/entries/:entryId': ['party', { params: { id: '999999', entryId: '999999' } }],
  'DELETE /api/exports/:eventId/certificate/background': 'manager',
  'DELETE /api/webhooks/:id': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', deliveryId: '1' } },
  ],
  'GET /api/certificates/:trackingKey': 'public',
  'GET /api/confirmation/documents': 'signed-in',
  'GET /api/confirmation/documents/:id': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' } },
  ],
  'GET /api/confirmation/documents/:id/report': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' } },
  ],
  // Issue 29: the order and invoice a confirmed document's fees became.
  'GET /api/confirmation/documents/:id/order': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' } },
  ],
  'GET /api/confirmation/documents/:id/report.pdf': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' } },
  ],
  'GET /api/confirmation/documents/:id/report.xlsx': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' } },
  ],
  'GET /api/confirmation/documents/:id/rows': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' } },
  ],
  'GET /api/confirmation/events': 'signed-in',
  'GET /api/confirmation/events/:eventId/documents': 'manager',
  'GET /api/console/events/:eventId/imports/:uploadId': [
    'manager',
    { params: { uploadId: '00000000-0000-4000-8000-0000000000e1' } },
  ],
  // Issue 29: the participant imports' history.
  'GET /api/console/events/:eventId/import-history': 'manager',
  'GET /api/console/events/:eventId/import-history/:importId/refused': [
    'manager',
    { params: { importId: '00000000-0000-4000-8000-0000000000e2' } },
  ],
  'GET /api/console/events/:eventId/participants': 'timekeeper',
  'POST /api/console/events/:eventId/participants/bulk': 'manager',
  'GET /api/console/events/:eventId/participants/export': 'timekeeper',
  'GET /api/console/events/:eventId/participants/:id/audit': [
    'timekeeper',
    { params: { id: '00000000-0000-4000-8000-0000000000e1' } },
  ],
  'GET /api/console/events/:eventId/participants/access': 'timekeeper',
  'GET /api/console/events/:eventId/participants/contexts': 'timekeeper',
  'GET /api/console/events/:eventId/participants/races': 'timekeeper',
  'GET /api/deposits/:id': ['party', { params: { id: '999999', entryId: '999999' } }],
  'GET /api/deposits/:id/messages': ['party', { params: { id: '999999', entryId: '999999' } }],
  'GET /api/deposits/:id/ranking': ['party', { params: { id: '999999', entryId: '999999' } }],
  'GET /api/deposits/:id/share': ['party', { params: { id: '999999', entryId: '999999' } }],
  'GET /api/deposits/events/:event/all': 'manager',
  'GET /api/deposits/events/:event/offer': 'public',
  'GET /api/deposits/join/:code': ['signed-in', { params: { code: 'NOSUCH1' } }],
  'GET /api/deposits/mine': 'signed-in',
  'GET /api/exports/:eventId/certificate': 'manager',
  'GET /api/exports/:eventId/certificate/background': 'manager',
  'GET /api/exports/:eventId/certificate/preview': 'manager',
  'GET /api/exports/:eventId/groups/:group/reports/:report': 'public',
  'GET /api/exports/:eventId/settings': 'public',
  'GET /api/feeds/:db/races/:raceId/corrections': 'public',
  'GET /api/feeds/:db/races/:raceId/finishers': 'public',
  'GET /api/feeds/:db/races/:raceId/hotseat': 'public',
  'GET /api/feeds/:db/races/:raceId/leaders': 'public',
  'GET /api/entries/events/:event': 'public',
  'GET /api/entries/events/:event/start-list': 'public',
  'POST /api/entries/events/:event/orders': 'signed-in',
  'GET /api/entries/orders/:id': ['party', { params: { id: '999999' } }],
  'POST /api/entries/orders/:id/on-site': ['party', { params: { id: '999999' } }],
  'GET /api/entries/mine': 'signed-in',
  'GET /api/entries/waitlists/mine': 'signed-in',
  'GET /api/entries/entry/:code': ['party', { params: { code: 'E00000000000000000000' } }],
  'GET /api/entries/entry/:code/qr.svg': ['party', { params: { code: 'E00000000000000000000' } }],
  'GET /api/entries/entry/:code/calendar.ics': ['party', { params: { code: 'E00000000000000000000' } }],
  'POST /api/entries/entry/:code/quote': ['party', { params: { code: 'E00000000000000000000' } }],
  'POST /api/entries/entry/:code/action': ['party', { params: { code: 'E00000000000000000000' } }],
  'POST /api/entries/races/:race/waitlist': ['signed-in', { params: { race: 'city-10k' } }],
  'POST /api/entries/events/:event/teams': 'signed-in',
  'GET /api/entries/teams/:teamToken': ['public', { params: { teamToken: 'T0000000000000000000000' } }],
  'POST /api/entries/events/:event/teams/:teamToken/join': [
    'signed-in',
    { params: { teamToken: 'T0000000000000000000000' } },
  ],
  'POST /api/entries/teams/:teamToken/order': [
    'signed-in',
    { params: { teamToken: 'T0000000000000000000000' } },
  ],
  'GET /api/entries/staff/events/:event/settings': 'manager',
  'PUT /api/entries/staff/events/:event/settings': 'manager',
  'GET /api/entries/staff/events/:event/entries': 'manager',
  'GET /api/entries/staff/events/:event/entries/:code': [
    'manager',
    { params: { code: 'E00000000000000000000' } },
  ],
  'GET /api/entries/staff/events/:event/export.:format': 'manager',
  'POST /api/entries/staff/events/:event/manual': 'manager',
  'POST /api/entries/staff/events/:event/races/:race/release': ['manager', { params: { race: 'city-10k' } }],
  'POST /api/entries/staff/events/:event/expire': 'manager',
  'GET /api/pickup/events/:event/list': 'pickup',
  'GET /api/pickup/events/:event/entries/:code': ['pickup', { params: { code: 'E00000000000000000000' } }],
  'POST /api/pickup/events/:event/ops': 'pickup',
  'GET /api/pickup/events/:event/conflicts': 'pickup',
  'POST /api/pickup/events/:event/conflicts/:id/resolve': [
    'pickup',
    { params: { id: '999999' }, body: { keep: 'first' } },
  ],
  'GET /api/pickup/events/:event/dashboard': 'manager',
  'POST /api/pickup/events/:event/dns': 'manager',
  'GET /api/pickup/events/:event/list.pdf': 'manager',
  'GET /api/payments/mine': 'signed-in',
  'GET /api/payments/orders/:id': ['party', { params: { id: '999999' } }],
  'GET /api/payments/orders/:id/receipt.pdf': ['party', { params: { id: '999999' } }],
  'GET /api/payments/orders/:id/invoice.pdf': ['party', { params: { id: '999999' } }],
  'GET /api/payments/orders/:id/credit-notes/:number': ['party', { params: { id: '999999', number: '1' } }],
  'GET /api/payments/providers': 'public',
  'GET /api/payments/staff/events': 'signed-in',
  'GET /api/payments/staff/events/:event/audit': 'manager',
  'GET /api/payments/staff/events/:event/export.:format': [
    'manager',
    { params: { event: 'demo-city-run', format: 'csv' } },
  ],
  'GET /api/payments/staff/events/:event/orders': 'manager',
  'GET /api/payments/staff/events/:event/queue': 'manager',
  'GET /api/payments/staff/events/:event/refunds.csv': 'manager',
  'GET /api/payments/staff/events/:event/settings': 'manager',
  'GET /api/verify/:certificateToken': 'public',
  'GET /api/webhooks/:id/deliveries': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', deliveryId: '1' } },
  ],
  'GET /api/webhooks/events/:eventId': 'manager',
  'PATCH /api/confirmation/documents/:id/rows': [
    'manager',
    {
      params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' },
      body: { edits: [{ rowId: '00000000-0000-4000-8000-0000000000d1', field: 'firstName', value: 'x' }] },
    },
  ],
  'PATCH /api/console/events/:eventId/participants/:id': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000e1' } },
  ],
  'PATCH /api/deposits/:id': ['party', { params: { id: '999999', entryId: '999999' } }],
  'PATCH /api/deposits/:id/entries/:entryId': ['party', { params: { id: '999999', entryId: '999999' } }],
  'PATCH /api/webhooks/:id': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', deliveryId: '1' } },
  ],
  'POST /api/confirmation/documents': 'signed-in',
  'POST /api/confirmation/documents/:id/close': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' } },
  ],
  'POST /api/confirmation/documents/:id/confirm': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' } },
  ],
  'POST /api/confirmation/documents/:id/file': [
    'manager',
    {
      params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' },
      body: 'a;b',
    },
  ],
  'POST /api/confirmation/documents/:id/reject': [
    'manager',
    {
      params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' },
      body: { reason: 'x' },
    },
  ],
  'POST /api/confirmation/documents/:id/rows/:rowId/merge': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' } },
  ],
  'POST /api/confirmation/documents/:id/rows/bulk': [
    'manager',
    {
      params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' },
      body: { action: 'restore', rowIds: ['00000000-0000-4000-8000-0000000000d1'] },
    },
  ],
  'POST /api/confirmation/documents/:id/undo': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' } },
  ],
  'POST /api/console/events/:eventId/imports': 'manager',
  'POST /api/console/events/:eventId/imports/:uploadId/chips': [
    'manager',
    { params: { uploadId: '00000000-0000-4000-8000-0000000000e1' } },
  ],
  'POST /api/console/events/:eventId/imports/:uploadId/commit': [
    'manager',
    { params: { uploadId: '00000000-0000-4000-8000-0000000000e1' } },
  ],
  'POST /api/console/events/:eventId/imports/:uploadId/preview': [
    'manager',
    { params: { uploadId: '00000000-0000-4000-8000-0000000000e1' } },
  ],
  'POST /api/console/events/:eventId/import-history/:importId/undo': [
    'manager',
    { params: { importId: '00000000-0000-4000-8000-0000000000e2' } },
  ],
  'POST /api/console/events/:eventId/participants': 'manager',
  'POST /api/console/events/:eventId/participants/bibs': 'manager',
  'POST /api/console/events/:eventId/result-imports': 'manager',
  'POST /api/deposits': 'signed-in',
  'POST /api/deposits/:id/cancel': ['party', { params: { id: '999999', entryId: '999999' } }],
  'POST /api/deposits/:id/close': ['party', { params: { id: '999999', entryId: '999999' } }],
  'POST /api/deposits/:id/entries': ['party', { params: { id: '999999', entryId: '999999' } }],
  'POST /api/deposits/:id/entries/:entryId/substitution': [
    'party',
    { params: { id: '999999', entryId: '999999' } },
  ],
  'POST /api/deposits/:id/entries/import': ['party', { params: { id: '999999', entryId: '999999' } }],
  'POST /api/deposits/:id/messages': ['party', { params: { id: '999999', entryId: '999999' } }],
  'POST /api/deposits/:id/reopen': ['party', { params: { id: '999999', entryId: '999999' } }],
  'POST /api/deposits/:id/submit': ['party', { params: { id: '999999', entryId: '999999' } }],
  'POST /api/deposits/join': 'signed-in',
  'POST /api/payments/orders/:id/pay': ['party', { params: { id: '999999' } }],
  'POST /api/payments/staff/events/:event/expire': 'manager',
  'POST /api/payments/staff/events/:event/queue/:lineId/ignore': 'manager',
  'POST /api/payments/staff/events/:event/queue/:lineId/match': 'manager',
  'POST /api/payments/staff/events/:event/refunds': 'manager',
  'POST /api/payments/staff/events/:event/statements': 'manager',
  'POST /api/payments/webhooks/mollie': 'public',
  'POST /api/payments/webhooks/stripe': 'public',
  'POST /api/realtime/user-auth': 'signed-in',
  'POST /api/webhooks/:id/deliveries/:deliveryId/replay': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', deliveryId: '1' } },
  ],
  'POST /api/webhooks/:id/test': [
    'manager',
    { params: { id: '00000000-0000-4000-8000-0000000000d0', deliveryId: '1' } },
  ],
  'POST /api/webhooks/events/:eventId': 'manager',
  'POST /apps/:appId/users/:userId/terminate_connections': 'key',
  'PUT /api/confirmation/documents/:id/mapping': [
    'manager',
    {
      params: { id: '00000000-0000-4000-8000-0000000000d0', rowId: '00000000-0000-4000-8000-0000000000d1' },
      body: { mapping: { firstName: 'a' } },
    },
  ],
  'PUT /api/confirmation/races/:raceId/settings': 'manager',
  'PUT /api/exports/:eventId/certificate': 'manager',
  'PUT /api/exports/:eventId/certificate/background': 'manager',
  'PUT /api/exports/:eventId/settings': 'manager',
  'PUT /api/payments/staff/events/:event/settings': 'manager',
};
