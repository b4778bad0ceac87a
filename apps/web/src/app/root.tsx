import { Box, CircularProgress } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, type RouteMatch, useLocation } from 'react-router';
import type { RouteMeta } from '../config/paths.ts';
import { useAuth } from '../lib/auth/auth-context.tsx';
import { intendedRoute, takeIntendedRoute } from '../lib/auth/intended-route.ts';
import { isSigningOut, markSigningOut } from '../lib/auth/tokens.ts';
import { AFTER_SIGN_IN, guardDecision, INTENDED_ROUTE } from './guard.ts';

/** Spec §2: after navigation scroll to the top, or smoothly to the hash target when one is given. */
function useScrollOnNavigate() {
  const location = useLocation();
  const opened = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation.
  useEffect(() => {
    // In hash routing a target is the second hash: `#/page#section`, or `?…#section`.
    const target = window.location.hash.split('#')[2];
    const element = target ? document.getElementById(decodeURIComponent(target)) : null;
    const first = !opened.current;
    opened.current = true;
    if (element) element.scrollIntoView({ behavior: 'smooth' });
    // Not when the app opens (the page is where the browser put it): scrolling forces the page's
    // layout in the task of its first render (issue 28: 20 ms, 80 on a throttled phone).
    else if (!first) window.scrollTo({ top: 0 });
  }, [location.pathname]);
}

/**
 * After sign-in, to the remembered route (or `/`). The route is read when this mounts and
 * forgotten once the navigation is committed — never taken during a render: the router's
 * navigation is a transition, and a render of the sign-in page before it commits (the profile
 * arriving just after the sign-in) took the route already taken, found none and went to `/`
 * instead (the console journey's invitation, "Join Brussels Running Club", not found).
 */
function AfterSignIn() {
  const [to] = useState(() => intendedRoute());
  useEffect(() => {
    takeIntendedRoute();
  }, []);
  return <Navigate to={to} replace />;
}

/**
 * The root route: the navigation guard of spec §2 and scrolling. `matchesOf` gives the routes a
 * path matches (their `handle` carries the meta).
 */
export function Root({ matchesOf }: { matchesOf: (pathname: string) => RouteMatch[] }) {
  const location = useLocation();
  const matches = matchesOf(location.pathname);
  const { status, profile } = useAuth();
  useScrollOnNavigate();
  // Spec §2/§4: sign-out goes to `/`, even from a protected page (which would otherwise send to login).
  const leaving = status === 'signedOut' && isSigningOut();
  useEffect(() => {
    if (leaving && location.pathname === '/') markSigningOut(false);
  }, [leaving, location.pathname]);
  if (leaving && location.pathname !== '/') return <Navigate to="/" replace />;
  const requireAuth = matches.some((m) => (m.route.handle as RouteMeta | undefined)?.requireAuth === true);
  const requireProfile = matches.some(
    (m) => (m.route.handle as RouteMeta | undefined)?.requireProfile === true,
  );
  const decision = guardDecision({
    path: location.pathname,
    requireAuth,
    requireProfile,
    status,
    profileComplete: profile ? profile.profileComplete : null,
  });
  if (decision.kind === 'wait') {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 8 }} role="status">
        <CircularProgress />
      </Box>
    );
  }
  if (decision.kind === 'redirect') {
    const remember = decision.remember;
    // Auth pages are never a destination; the profile detour keeps a route already remembered.
    const worth = remember && !remember.startsWith('/login') && !remember.startsWith('/auth/');
    if (worth && (decision.to === '/login' || !sessionStorage.getItem(INTENDED_ROUTE))) {
      sessionStorage.setItem(INTENDED_ROUTE, remember + location.search);
    }
    return decision.to === AFTER_SIGN_IN ? <AfterSignIn /> : <Navigate to={decision.to} replace />;
  }
  return <Outlet />;
}
