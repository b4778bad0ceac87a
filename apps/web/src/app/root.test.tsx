import { act, render, screen } from '@testing-library/react';
import {
  type Location,
  MemoryRouter,
  matchRoutes,
  type Navigator,
  type RouteObject,
  Router,
  useLocation,
  useRoutes,
} from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteMeta } from '../config/paths.ts';
import { initI18n } from '../lib/i18n.ts';
import { INTENDED_ROUTE } from './guard.ts';
import { Root } from './root.tsx';

const auth = vi.hoisted(() => ({
  current: { status: 'initialising', profile: null as null | { profileComplete: boolean } },
  listeners: new Set<() => void>(),
}));
vi.mock('../lib/auth/auth-context.tsx', async () => {
  const { useSyncExternalStore } = await import('react');
  const subscribe = (listener: () => void) => {
    auth.listeners.add(listener);
    return () => auth.listeners.delete(listener);
  };
  return { useAuth: () => useSyncExternalStore(subscribe, () => auth.current) };
});

const protectedMeta: RouteMeta = { requireAuth: true };
const routes: RouteObject[] = [
  {
    element: <Root matchesOf={(pathname) => matchRoutes(routes, pathname) ?? []} />,
    children: [
      { path: '/', element: <h1>home</h1> },
      { path: '/open', element: <h1>open</h1> },
      { path: '/payment/home', element: <h1>payments</h1>, handle: protectedMeta },
      { path: '/console', element: <h1>console</h1>, handle: protectedMeta },
      { path: '/deposit/race', element: <h1>entry</h1>, handle: { requireAuth: true, requireProfile: true } },
      { path: '/login', element: <h1>login</h1>, handle: { action: 'read', subject: 'Auth' } },
      { path: '/auth/basic-profile', element: <h1>basic profile</h1>, handle: protectedMeta },
    ],
  },
];

function Routes({ seen }: { seen: { location: Location | null } }) {
  seen.location = useLocation();
  return useRoutes(routes);
}

/** Renders the routes at `path`; `.state.location` is where the router is now. */
function renderAt(path: string) {
  const seen = { location: null as Location | null };
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes seen={seen} />
    </MemoryRouter>,
  );
  return {
    get state() {
      return { location: seen.location as Location };
    },
  };
}

describe('navigation guard in the router (spec §2)', () => {
  beforeAll(() => {
    initI18n('en');
    window.scrollTo = vi.fn() as typeof window.scrollTo;
  });
  beforeEach(() => sessionStorage.clear());

  it('waits for the auth initialisation before deciding', () => {
    auth.current = { status: 'initialising', profile: null };
    renderAt('/payment/home');
    expect(screen.getByRole('status')).toBeTruthy();
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('lets anyone through an open route', async () => {
    auth.current = { status: 'signedOut', profile: null };
    renderAt('/open');
    expect((await screen.findByRole('heading')).textContent).toBe('open');
  });

  it('sends an anonymous visitor to login and remembers the intended route', async () => {
    auth.current = { status: 'signedOut', profile: null };
    const router = renderAt('/payment/home?tab=2');
    expect((await screen.findByRole('heading')).textContent).toBe('login');
    expect(router.state.location.pathname).toBe('/login');
    expect(sessionStorage.getItem(INTENDED_ROUTE)).toBe('/payment/home?tab=2');
  });

  it('after sign-in goes to the remembered route, or / when none', async () => {
    auth.current = { status: 'signedIn', profile: { profileComplete: true } };
    sessionStorage.setItem(INTENDED_ROUTE, '/payment/home');
    const router = renderAt('/login');
    expect((await screen.findByRole('heading')).textContent).toBe('payments');
    expect(router.state.location.pathname).toBe('/payment/home');
    expect(sessionStorage.getItem(INTENDED_ROUTE)).toBeNull();
  });

  it('asks a signed-in user without a runner profile for it only where a race is entered (issue 29)', async () => {
    auth.current = { status: 'signedIn', profile: { profileComplete: false } };
    const router = renderAt('/deposit/race');
    expect((await screen.findByRole('heading')).textContent).toBe('basic profile');
    expect(router.state.location.pathname).toBe('/auth/basic-profile');
    expect(sessionStorage.getItem(INTENDED_ROUTE)).toBe('/deposit/race');
  });

  it('lets an organiser without a runner profile into the console and open pages (issue 29)', async () => {
    auth.current = { status: 'signedIn', profile: { profileComplete: false } };
    renderAt('/console');
    expect((await screen.findByRole('heading')).textContent).toBe('console');
  });

  it('after sign-in keeps the remembered route when the sign-in page renders again before the navigation commits (the console journey’s flake)', () => {
    // The router's navigation is a transition: the sign-in page may render again (the profile
    // arriving) before it commits. Here the location stays /login and every navigation is kept.
    auth.current = { status: 'signedIn', profile: null };
    sessionStorage.setItem(INTENDED_ROUTE, '/console/invitations/abcdefgh12');
    const went: string[] = [];
    const navigator = {
      createHref: (to: unknown) => String(to),
      go: () => undefined,
      push: (to: unknown) =>
        went.push(typeof to === 'string' ? to : ((to as { pathname: string }).pathname ?? '')),
      replace: (to: unknown) =>
        went.push(typeof to === 'string' ? to : ((to as { pathname: string }).pathname ?? '')),
    } as unknown as Navigator;
    const at = () => (
      <Router location="/login" navigator={navigator}>
        <Routes seen={{ location: null }} />
      </Router>
    );
    render(at());
    act(() => {
      auth.current = { status: 'signedIn', profile: { profileComplete: true } };
      for (const listener of auth.listeners) listener();
    });
    expect(went.length).toBeGreaterThan(0);
    expect(new Set(went)).toEqual(new Set(['/console/invitations/abcdefgh12']));
    expect(sessionStorage.getItem(INTENDED_ROUTE)).toBeNull();
  });
});
