import type { AuthStatus } from '../lib/auth/auth-context.tsx';

export { INTENDED_ROUTE, takeIntendedRoute } from '../lib/auth/intended-route.ts';

/** Placeholder target: the route remembered before sign-in, else `/`. */
export const AFTER_SIGN_IN = '@intended';

export interface GuardInput {
  path: string;
  requireAuth: boolean;
  status: AuthStatus;
  profileComplete: boolean | null;
  /** A route where someone enters a race (a team entry): the runner profile is asked there. */
  requireProfile?: boolean;
}

/**
 * The navigation guard of spec §2, as a pure decision: `wait` until the auth initialisation is
 * done; open routes pass; an anonymous visitor on a protected route goes to login (the route is
 * remembered); a signed-in user whose runner profile is incomplete goes to /auth/basic-profile
 * only on a route where a race is entered (issue 29: organisers and staff are never stopped by it
 * in the console; the profile is asked at entry, not at sign-up).
 */
export function guardDecision(
  input: GuardInput,
): { kind: 'wait' } | { kind: 'pass' } | { kind: 'redirect'; to: string; remember?: string } {
  if (input.status === 'initialising') return { kind: 'wait' };
  if (
    input.status === 'signedIn' &&
    input.profileComplete === false &&
    input.requireProfile === true &&
    input.path !== '/auth/basic-profile'
  ) {
    // The route stays remembered, so completing the profile leads back to it.
    return { kind: 'redirect', to: '/auth/basic-profile', remember: input.path };
  }
  // Spec §2: after sign-in, the remembered route or `/` (resolved by the caller).
  if (input.status === 'signedIn' && input.path === '/login') return { kind: 'redirect', to: AFTER_SIGN_IN };
  if (!input.requireAuth) return { kind: 'pass' };
  if (input.status !== 'signedIn') return { kind: 'redirect', to: '/login', remember: input.path };
  return { kind: 'pass' };
}
