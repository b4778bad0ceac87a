import { type ComponentType, lazy } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import type { RouteMeta } from '../../../config/paths.ts';

/** A lazily loaded console page: the console is never downloaded by spectators. */
function page(load: () => Promise<{ default: ComponentType }>) {
  const Page = lazy(load);
  return <Page />;
}

const requireAuth: RouteMeta = { requireAuth: true };

/**
 * The organiser console's routes (`/console/…`, issue 14), all requiring sign-in, inside the
 * default layout. An event's pages share its frame (`event-layout.tsx`: name, status, the
 * navigation of `features/console/event-nav.ts`). OTHER ORGANISER FEATURES ADD THEIR EVENT PAGES
 * TO `eventChildren` (one line each, e.g. `{ path: 'participants', element: … }`).
 */
const eventChildren: RouteObject[] = [
  { index: true, element: page(() => import('./event-details-page.tsx')), handle: requireAuth },
  { path: 'races', element: page(() => import('./event-races-page.tsx')), handle: requireAuth },
  { path: 'races/:raceId', element: page(() => import('./race-page.tsx')), handle: requireAuth },
  {
    path: 'races/:raceId/reports',
    element: page(() => import('./race-reports-page.tsx')),
    handle: requireAuth,
  },
  {
    path: 'participants',
    element: page(() => import('../participants/participants-page.tsx')),
    handle: requireAuth,
  },
  {
    path: 'participants/import',
    element: page(() => import('../participants/import-page.tsx')),
    handle: requireAuth,
  },
  // Results out (issue 16).
  { path: 'exports', element: page(() => import('../exports/exports-page.tsx')), handle: requireAuth },
  {
    path: 'certificate',
    element: page(() => import('../exports/certificate-page.tsx')),
    handle: requireAuth,
  },
  { path: 'webhooks', element: page(() => import('../exports/webhooks-page.tsx')), handle: requireAuth },
  // The runner's space (issue 40): claims the organiser decides.
  { path: 'claims', element: page(() => import('../runner/claims-page.tsx')), handle: requireAuth },
  { path: 'privacy', element: page(() => import('../runner/retention-page.tsx')), handle: requireAuth },
  // Online entries (issue 38): the list, the registration settings.
  { path: 'entries', element: page(() => import('../entries/staff-entries-page.tsx')), handle: requireAuth },
  // Race-day pickup (issue 39): the organiser's dashboard.
  { path: 'pickup', element: page(() => import('../pickup/pickup-dashboard-page.tsx')), handle: requireAuth },
  // Race day (issue 15): devices, passings desk, start control, audit log.
  { path: 'raceday/:tab?', element: page(() => import('../raceday/raceday-page.tsx')), handle: requireAuth },
];

/**
 * The console's routes under `/console/*` (router.tsx), in this module's chunk: the route table and
 * its pages' preload lists were 1–2 KB of gzip in the entry every spectator loads (issue 28).
 * Every console page requires sign-in (the `/console/*` route's meta, read by the guard).
 */
const consoleChildren: RouteObject[] = [
  { index: true, element: page(() => import('./console-home-page.tsx')), handle: requireAuth },
  {
    path: 'organisations/:orgId',
    element: page(() => import('./organisation-page.tsx')),
    handle: requireAuth,
  },
  {
    path: 'invitations/:token',
    element: page(() => import('./invitation-page.tsx')),
    handle: requireAuth,
  },
  {
    path: 'events/:eventId',
    element: page(() => import('./event-layout.tsx')),
    handle: requireAuth,
    children: eventChildren,
  },
  { path: '*', element: page(() => import('../not-found-page.tsx')) },
];

/** The console's pages (`/console/…`): a descendant route table. */
export default function ConsoleRoutes() {
  return useRoutes(consoleChildren);
}
