import { type ComponentType, lazy, type ReactElement } from 'react';
import {
  matchRoutes,
  Navigate,
  type RouteMatch,
  type RouteObject,
  useLocation,
  useRoutes,
} from 'react-router';
import { type RouteMeta, routeNames } from '../config/paths.ts';
import { BlankLayout } from './layouts/blank-layout.tsx';
import { DefaultLayout } from './layouts/default-layout.tsx';
import { GenericLayout } from './layouts/generic-layout.tsx';
import { Root } from './root.tsx';
import { RouteErrorBoundary } from './routes/route-error-page.tsx';

/** The chunk loader of each lazy page component, for `preloadRoute`. */
const loaders = new WeakMap<object, () => Promise<unknown>>();

/** A lazily loaded page (its own chunk); the layouts hold the Suspense boundary. */
function page(load: () => Promise<{ default: ComponentType }>) {
  let loading: Promise<{ default: ComponentType }> | null = null;
  const once = () => {
    loading ??= load();
    return loading;
  };
  const Page = lazy(once);
  loaders.set(Page, once);
  return <Page />;
}
type AuthPages = typeof import('../features/auth/auth-pages.tsx');
/** An auth page: all of them share one chunk, loaded on the first auth route. */
const authPage = (name: keyof AuthPages) =>
  page(() => import('../features/auth/auth-pages.tsx').then((m) => ({ default: m[name] as ComponentType })));

const live = {
  trackingSearch: () => page(() => import('./routes/live/tracking-search-page.tsx')),
  tracking: () => page(() => import('./routes/live/tracking-page.tsx')),
  map: () => page(() => import('./routes/live/map-page.tsx')),
  favorites: () => page(() => import('./routes/live/favorites-page.tsx')),
  detail: () => page(() => import('./routes/live/detail-page.tsx')),
  objectDetail: () => page(() => import('./routes/live/object-detail-page.tsx')),
  stats: () => page(() => import('./routes/live/stats-page.tsx')),
  scroller: () => page(() => import('./routes/live/scroller-page.tsx')),
  leaders: () => page(() => import('./routes/live/leaders-page.tsx')),
  laps: () => page(() => import('./routes/live/laps-page.tsx')),
  legs: () => page(() => import('./routes/live/legs-page.tsx')),
  clm: () => page(() => import('./routes/live/clm-page.tsx')),
  genericTracking: () => page(() => import('./routes/live/generic-tracking-page.tsx')),
};
const results = {
  reportList: () => page(() => import('./routes/results/report-list-page.tsx')),
  report: () => page(() => import('./routes/results/report-page.tsx')),
  genericReport: () => page(() => import('./routes/results/generic-report-page.tsx')),
};
const content = {
  home: () => page(() => import('./routes/content/home-page.tsx')),
  eventHome: () => page(() => import('./routes/content/event-home-page.tsx')),
  cms: () => page(() => import('./routes/content/cms-page.tsx')),
  contact: () => page(() => import('./routes/content/contact-page.tsx')),
  streaming: () => page(() => import('./routes/content/streaming-page.tsx')),
  photobox: () => page(() => import('./routes/content/photobox-page.tsx')),
  photoboxKiosk: () => page(() => import('./routes/content/photobox-kiosk-page.tsx')),
  series: () => page(() => import('./routes/content/series-page.tsx')),
  diagnostics: () => page(() => import('./routes/content/diagnostics-page.tsx')),
};
/** The organiser side: each page its own chunk, never downloaded by spectators. */
const organiser = {
  confirmationHome: () => page(() => import('./routes/organiser/confirmation-home-page.tsx')),
  confirmationDocument: () => page(() => import('./routes/organiser/confirmation-document-page.tsx')),
  confirmationDocumentView: () => page(() => import('./routes/organiser/confirmation-document-view.tsx')),
  confirmationEvent: () => page(() => import('./routes/organiser/confirmation-event-page.tsx')),
  deposit: () => page(() => import('./routes/organiser/deposit-page.tsx')),
  depositStart: () => page(() => import('./routes/organiser/deposit-start-page.tsx')),
  depositView: () => page(() => import('./routes/organiser/deposit-view.tsx')),
  depositDetail: () => page(() => import('./routes/organiser/deposit-detail-page.tsx')),
  payment: () => page(() => import('./routes/organiser/payment-page.tsx')),
};

const requireAuth: RouteMeta = { requireAuth: true };
/** Team entries (issue 29): the runner profile (gender, birth date, nationality) is asked here only. */
const requireEntrant: RouteMeta = { requireAuth: true, requireProfile: true };
/** Spec §6: auth pages carry the action/subject pair (read, Auth). */
const authMeta = (extra: RouteMeta = {}): RouteMeta => ({
  requireAuth: false,
  action: 'read',
  subject: 'Auth',
  ...extra,
});

/** `reportlist` and its two report children, shared by /results/{eventId} and /events/{eventId}. */
const reportRoutes = (): RouteObject[] => [
  { path: 'reportlist', element: results.reportList() },
  { path: 'reportlist/group/:group/report/:report', element: results.report() },
  { path: 'reportlist/table/:group/report/:report', element: results.report() },
];

/** Routes of the default layout (the spec's rows with "default" or no layout). */
const defaultLayoutRoutes: RouteObject[] = [
  { path: '/', element: content.home() },
  { path: '/confirmation/home', element: organiser.confirmationHome(), handle: requireAuth },
  {
    path: '/confirmation/document/:id',
    element: organiser.confirmationDocument(),
    handle: requireAuth,
    children: [
      { index: true, element: <Navigate to="home" replace /> },
      ...['edit', 'home', 'import', 'report'].map((view) => ({
        path: view,
        element: organiser.confirmationDocumentView(),
        handle: requireAuth,
      })),
    ],
  },
  { path: '/confirmation/event/:id', element: organiser.confirmationEvent(), handle: requireAuth },
  {
    path: '/deposit/:event',
    element: organiser.deposit(),
    handle: requireEntrant,
    children: [
      { index: true, element: organiser.depositStart(), handle: requireEntrant },
      ...['collect', 'message', 'overview', 'paymentok'].map((view) => ({
        path: `:id/${view}`,
        element: organiser.depositView(),
        handle: requireEntrant,
      })),
      // Spec §2's `{id}d` variant: React Router cannot mix a parameter and a literal in one
      // segment, so `:id` matches it and the page branches on the trailing `d`.
      { path: ':id', element: organiser.depositDetail(), handle: requireEntrant },
    ],
  },
  { path: '/payment/home', element: organiser.payment(), handle: requireAuth },
  // The runner's own space (issue 40).
  {
    path: '/me/results',
    element: page(() => import('./routes/runner/my-results-page.tsx')),
    handle: requireAuth,
  },
  {
    path: '/me/data',
    element: page(() => import('./routes/runner/my-data-page.tsx')),
    handle: requireAuth,
  },
  // Online entries (issue 38): the event's entry page is public (the form asks to sign in).
  {
    path: '/me/entries',
    element: page(() => import('./routes/runner/my-entries-page.tsx')),
    handle: requireAuth,
  },
  {
    path: '/entries/orders/:id',
    element: page(() => import('./routes/runner/entry-order-page.tsx')),
    handle: requireAuth,
  },
  {
    path: '/entries/entry/:code',
    element: page(() => import('./routes/runner/entry-page.tsx')),
    handle: requireAuth,
  },
  { path: '/entries/:event', element: page(() => import('./routes/runner/entries-event-page.tsx')) },
  {
    path: '/entries/:event/:view/:token?',
    element: page(() => import('./routes/runner/entries-more-page.tsx')),
  },
  // Race-day pickup (issue 39): the volunteer's phone page.
  {
    path: '/pickup/:eventId',
    element: page(() => import('./routes/pickup/pickup-page.tsx')),
    handle: requireAuth,
  },
  // The organiser console (issue 14): its route table loads with it (routes/console/routes.tsx).
  { path: '/console/*', element: page(() => import('./routes/console/routes.tsx')), handle: requireAuth },
  // Results out (issue 16): the public certificate check.
  { path: '/verify/:token', element: page(() => import('./routes/exports/verify-page.tsx')) },
  { path: '/test', element: content.diagnostics() },
  { path: '/live/clm/:db/:key', element: live.clm() },
  { path: '/laps/:db/race/:race', element: live.laps() },
  { path: '/legs/:db/race/:race', element: live.legs() },
  { path: '/misc/crac/:context', element: content.series() },
  {
    path: '/firstrow/:db',
    children: [
      { index: true, element: live.leaders() },
      { path: 'race/:race', element: live.leaders() },
    ],
  },
  {
    path: '/results/:eventId',
    children: [
      // Spec §2: an empty child path redirects to reportlist.
      { index: true, element: <Navigate to="reportlist" replace /> },
      ...reportRoutes(),
      { path: 'youtube', element: content.streaming() },
    ],
  },
  {
    path: '/events/:eventId',
    children: [
      { index: true, element: <Navigate to="home" replace /> },
      { path: 'tracking/:key?', element: live.tracking() },
      { path: 'cms/:db/:key?', element: content.cms() },
      {
        path: 'ctx/:db',
        children: [
          { path: 'cms/:path?', element: content.cms() },
          { path: 'contacts/:path', element: content.contact() },
          {
            path: 'generic/:path',
            children: [
              { path: 'home/:key', element: results.genericReport() },
              { path: 'stats/:key', element: live.stats() },
              { path: 'scroller/:key/:size/:delay', element: live.scroller() },
              { path: 'detail/:id', element: live.detail() },
              { path: 'objectdetail/:token', element: live.objectDetail() },
              { path: 'streaming', element: content.streaming() },
            ],
          },
        ],
      },
      { path: 'home', element: content.eventHome() },
      { path: 'contact', element: content.contact() },
      { path: 'favorites', element: live.favorites() },
      { path: 'map', element: live.map() },
      ...reportRoutes(),
    ],
  },
];

/** Routes of the blank layout: sign-in side, tracking search, photo kiosk, not found. */
const blankLayoutRoutes: RouteObject[] = [
  {
    id: routeNames.login,
    path: '/login',
    element: authPage('LoginPage'),
    handle: authMeta({ name: 'login' }),
  },
  {
    path: '/auth',
    handle: authMeta(),
    children: [
      { index: true, element: <Navigate to="/login" replace /> },
      { path: 'action', element: authPage('ActionPage'), handle: authMeta() },
      {
        id: routeNames.authBasicProfile,
        path: 'basic-profile',
        element: authPage('BasicProfilePage'),
        handle: authMeta({ requireAuth: true, name: 'auth-basic-profile' }),
      },
      { path: 'forgot-mailsent', element: authPage('ForgotMailSentPage'), handle: authMeta() },
      { path: 'forgot-password', element: authPage('ForgotPasswordPage'), handle: authMeta() },
      { path: 'message/:label', element: authPage('MessagePage'), handle: authMeta() },
      { path: 'register', element: authPage('RegisterPage'), handle: authMeta() },
      { path: 'reset-password/:code', element: authPage('ResetPasswordPage'), handle: authMeta() },
    ],
  },
  {
    path: '/authentication/basicprofile',
    element: authPage('ProfilePage'),
    handle: authMeta({ requireAuth: true }),
  },
  { path: '/genericTracking', element: live.genericTracking() },
  { path: '/tracking', element: live.trackingSearch() },
  { path: '/photobox/:id', element: content.photoboxKiosk() },
  { path: '*', element: page(() => import('./routes/not-found-page.tsx')) },
];

/** Routes of the generic layout (spec §2: tracking and photo-box pages). */
const genericLayoutRoutes: RouteObject[] = [
  { path: '/genericTracking/:key', element: live.genericTracking() },
  { path: '/tracking/:key', element: live.tracking() },
  { path: '/photobox', element: content.photobox() },
];

/**
 * Every route of spec §2 with its layout and meta (`handle`). The root applies the navigation
 * guard (reading the meta of the routes matched) and scrolling; pages load lazily.
 */
export const routes: RouteObject[] = [
  {
    element: <Root matchesOf={matchesOf} />,
    children: [
      { element: <DefaultLayout />, children: defaultLayoutRoutes },
      { element: <GenericLayout />, children: genericLayoutRoutes },
      { element: <BlankLayout />, children: blankLayoutRoutes },
    ],
  },
];

/**
 * The routes matched at `pathname`, kept per path: matching ranks every branch of the ~150
 * routes (tens of ms on a throttled phone, issue 28), and the start (`preloadRoute`) and every
 * render of the root (the guard) asked for the same paths again.
 */
const matched = new Map<string, RouteMatch[]>();
function matchesOf(pathname: string): RouteMatch[] {
  let matches = matched.get(pathname);
  if (!matches) {
    matches = matchRoutes(routesFor(pathname), pathname) ?? [];
    if (matched.size > 200) matched.clear();
    matched.set(pathname, matches);
  }
  return matches;
}

/**
 * The app's routes, rendered inside `HashRouter` (spec §2: hash-style history). A declarative
 * router, not a data router (`createHashRouter`): no page uses loaders or actions, and the data
 * router is 16 KB of gzip JavaScript in every public page (issue 19). The error boundary shows
 * a page that failed to render or to load its chunk.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  return <RouteErrorBoundary>{useRoutes(routesFor(pathname))}</RouteErrorBoundary>;
}

/**
 * The routes that can match a path, by its first segment (issue 28): React Router flattens and
 * ranks every branch of the tree at each match (~150 routes: 15–20 ms at the app's start, twice —
 * `preloadRoute`, then the first render — and again at each render of the routes). An absolute
 * path whose first segment is another word can never match, so leaving it out changes no match:
 * the layouts (pathless) stay with the routes under them that can, and so do routes starting
 * with a parameter or `*`. Kept per segment, so the route objects a page renders under are the
 * same from one render to the next. Matching ignores case, as React Router's does.
 */
const pruned = new Map<string, RouteObject[]>();
export function routesFor(pathname: string): RouteObject[] {
  const segment = (pathname.split('/')[1] ?? '').toLowerCase();
  let kept = pruned.get(segment);
  if (!kept) {
    kept = prune(routes, segment);
    if (pruned.size > 100) pruned.clear();
    pruned.set(segment, kept);
  }
  return kept;
}

function prune(list: RouteObject[], segment: string): RouteObject[] {
  return list.flatMap((route): RouteObject[] => {
    if (route.path === undefined)
      return route.children ? [{ ...route, children: prune(route.children, segment) }] : [route];
    if (!route.path.startsWith('/')) return [route];
    const first = (route.path.split('/')[1] ?? '').toLowerCase();
    return first === segment || first.startsWith(':') || first.startsWith('*') ? [route] : [];
  });
}

/**
 * Starts downloading the chunk of the page at `pathname` (issue 19: first rows sooner): main.tsx
 * calls it before the configuration and translations load, so the page's JavaScript comes in
 * parallel with them instead of after the first render.
 */
export function preloadRoute(pathname: string): void {
  for (const match of matchesOf(pathname)) {
    const type = (match.route.element as ReactElement | undefined)?.type;
    const load = type && typeof type === 'object' ? loaders.get(type) : undefined;
    // A failure shows when the page renders (the route error page).
    load?.().catch(() => undefined);
  }
}
