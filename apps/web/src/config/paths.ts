/** Named routes of spec §2 (`login`, `auth-basic-profile`): the route ids in the router. */
export const routeNames = {
  login: 'login',
  authBasicProfile: 'auth-basic-profile',
} as const;
export type RouteName = (typeof routeNames)[keyof typeof routeNames];

const enc = encodeURIComponent;
const event = (eventId: string) => `/events/${enc(eventId)}`;
const ctx = (eventId: string, db: string) => `${event(eventId)}/ctx/${enc(db)}`;
const generic = (eventId: string, db: string, path: string) => `${ctx(eventId, db)}/generic/${enc(path)}`;

/** Typed paths of the spec §2 route table, for links and navigation (never hand-built strings). */
export const paths = {
  home: () => '/',
  login: () => '/login',
  register: () => '/auth/register',
  forgotPassword: () => '/auth/forgot-password',
  forgotMailSent: () => '/auth/forgot-mailsent',
  resetPassword: (code: string) => `/auth/reset-password/${enc(code)}`,
  authAction: () => '/auth/action',
  basicProfile: () => '/auth/basic-profile',
  profile: () => '/authentication/basicprofile',
  /** The runner's own space (issue 40): my results across events. */
  myResults: () => '/me/results',
  /** Download my data, delete my account (issue 40). */
  myData: () => '/me/data',
  /** Online entries (issue 38): my entries, an event's entry page, an order, one entry. */
  myEntries: () => '/me/entries',
  entries: (eventId: string) => `/entries/${enc(eventId)}`,
  entryOrder: (orderId: string) => `/entries/orders/${enc(orderId)}`,
  entry: (code: string) => `/entries/entry/${enc(code)}`,
  /** Race-day pickup (issue 39): the volunteer's phone page. */
  pickup: (eventId: string) => `/pickup/${enc(eventId)}`,
  /** A runner's public page (opt-in), by its short link's slug. */
  runnerPage: (slug: string) => `/r/${enc(slug)}`,
  authMessage: (label: string) => `/auth/message/${enc(label)}`,
  results: (eventId: string) => `/results/${enc(eventId)}/reportlist`,
  reportList: (eventId: string) => `${event(eventId)}/reportlist`,
  report: (eventId: string, group: string, report: string) =>
    `${event(eventId)}/reportlist/group/${enc(group)}/report/${enc(report)}`,
  reportTable: (eventId: string, group: string, report: string) =>
    `${event(eventId)}/reportlist/table/${enc(group)}/report/${enc(report)}`,
  eventHome: (eventId: string) => `${event(eventId)}/home`,
  eventContact: (eventId: string) => `${event(eventId)}/contact`,
  eventFavorites: (eventId: string) => `${event(eventId)}/favorites`,
  /** The course map; `raceId`: the race shown first (the race the user came from, issue 27). */
  eventMap: (eventId: string, raceId?: string) =>
    `${event(eventId)}/map${raceId ? `?race=${enc(raceId)}` : ''}`,
  tracking: (eventId: string, key?: string) => `${event(eventId)}/tracking${key ? `/${enc(key)}` : ''}`,
  cms: (eventId: string, db: string, key?: string) =>
    `${event(eventId)}/cms/${enc(db)}${key ? `/${enc(key)}` : ''}`,
  ctxCms: (eventId: string, db: string, path?: string) =>
    `${ctx(eventId, db)}/cms${path ? `/${enc(path)}` : ''}`,
  ctxContacts: (eventId: string, db: string, path: string) => `${ctx(eventId, db)}/contacts/${enc(path)}`,
  genericHome: (eventId: string, db: string, path: string, key: string) =>
    `${generic(eventId, db, path)}/home/${enc(key)}`,
  genericStats: (eventId: string, db: string, path: string, key: string) =>
    `${generic(eventId, db, path)}/stats/${enc(key)}`,
  genericScroller: (eventId: string, db: string, path: string, key: string, size: number, delay: number) =>
    `${generic(eventId, db, path)}/scroller/${enc(key)}/${size}/${delay}`,
  genericDetail: (eventId: string, db: string, path: string, id: string) =>
    `${generic(eventId, db, path)}/detail/${enc(id)}`,
  genericObjectDetail: (eventId: string, db: string, path: string, token: string) =>
    `${generic(eventId, db, path)}/objectdetail/${enc(token)}`,
  genericStreaming: (eventId: string, db: string, path: string) => `${generic(eventId, db, path)}/streaming`,
  trackingSearch: () => '/tracking',
  athlete: (key: string) => `/tracking/${enc(key)}`,
  /** The athletes followed; `eventId`: opened from that event (its navigation, its athletes). */
  genericTracking: (key?: string, eventId?: string) =>
    `/genericTracking${key ? `/${enc(key)}` : ''}${eventId ? `?event=${enc(eventId)}` : ''}`,
  photobox: (id?: string) => `/photobox${id ? `/${enc(id)}` : ''}`,
  clm: (db: string, key: string) => `/live/clm/${enc(db)}/${enc(key)}`,
  series: (context: string) => `/misc/crac/${enc(context)}`,
  leaders: (db: string, race?: string) => `/firstrow/${enc(db)}${race ? `/race/${enc(race)}` : ''}`,
  laps: (db: string, race: string) => `/laps/${enc(db)}/race/${enc(race)}`,
  legs: (db: string, race: string) => `/legs/${enc(db)}/race/${enc(race)}`,
  confirmation: () => '/confirmation/home',
  confirmationDocument: (id: string, view?: 'edit' | 'home' | 'import' | 'report') =>
    `/confirmation/document/${enc(id)}${view ? `/${view}` : ''}`,
  confirmationEvent: (id: string) => `/confirmation/event/${enc(id)}`,
  deposit: (eventKey: string) => `/deposit/${enc(eventKey)}`,
  depositView: (eventKey: string, id: string, view: 'collect' | 'message' | 'overview' | 'paymentok') =>
    `/deposit/${enc(eventKey)}/${enc(id)}/${view}`,
  depositDetail: (eventKey: string, id: string) => `/deposit/${enc(eventKey)}/${enc(id)}d`,
  payments: () => '/payment/home',
  diagnostics: () => '/test',
} as const;

/**
 * Route meta (spec §2 "requireAuth"; §6: some auth pages carry an action/subject pair), kept in
 * each route's `handle`.
 */
export interface RouteMeta {
  requireAuth?: boolean;
  /** Entering a race happens here: a signed-in user without a runner profile fills it in first. */
  requireProfile?: boolean;
  action?: string;
  subject?: string;
  /** The spec's named routes. */
  name?: RouteName;
}
