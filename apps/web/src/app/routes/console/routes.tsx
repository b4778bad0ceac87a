import { type ComponentType, lazy } from 'react';
import type { RouteObject } from 'react-router';
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
  // Race day (issue 15): devices, passings desk, start control, audit log.
  { path: 'raceday/:tab?', element: page(() => import('../raceday/raceday-page.tsx')), handle: requireAuth },
];

export const consoleRoutes: RouteObject[] = [
  {
    path: '/console',
    handle: requireAuth,
    children: [
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
    ],
  },
];
