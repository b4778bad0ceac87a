import { describe, expect, it } from 'vitest';
import { AFTER_SIGN_IN, guardDecision, INTENDED_ROUTE, takeIntendedRoute } from './guard.ts';

const base = {
  path: '/payment/home',
  requireAuth: true,
  status: 'signedOut' as const,
  profileComplete: null,
};

describe('navigation guard (spec §2)', () => {
  it('waits for the auth initialisation', () => {
    expect(guardDecision({ ...base, status: 'initialising' })).toEqual({ kind: 'wait' });
  });
  it('lets anyone through an open route', () => {
    expect(guardDecision({ ...base, requireAuth: false })).toEqual({ kind: 'pass' });
  });
  it('sends an anonymous visitor to login and remembers the route', () => {
    expect(guardDecision(base)).toEqual({ kind: 'redirect', to: '/login', remember: '/payment/home' });
  });
  it('sends a signed-in user with an incomplete profile to the basic profile where a race is entered, except there', () => {
    const user = { ...base, status: 'signedIn' as const, profileComplete: false, requireProfile: true };
    expect(guardDecision({ ...user, path: '/deposit/e' })).toEqual({
      kind: 'redirect',
      to: '/auth/basic-profile',
      remember: '/deposit/e',
    });
    expect(guardDecision({ ...user, path: '/auth/basic-profile' })).toEqual({ kind: 'pass' });
  });
  it('never stops an organiser or staff member without a runner profile elsewhere (issue 29)', () => {
    const user = { ...base, status: 'signedIn' as const, profileComplete: false };
    expect(guardDecision({ ...user, path: '/console' })).toEqual({ kind: 'pass' });
    expect(guardDecision({ ...user, requireAuth: false, path: '/' })).toEqual({ kind: 'pass' });
    expect(guardDecision({ ...user, requireAuth: false, path: '/login' })).toEqual({
      kind: 'redirect',
      to: AFTER_SIGN_IN,
    });
  });
  it('moves a signed-in user off the login page to the remembered route', () => {
    expect(
      guardDecision({
        ...base,
        status: 'signedIn',
        profileComplete: true,
        path: '/login',
        requireAuth: false,
      }),
    ).toEqual({
      kind: 'redirect',
      to: AFTER_SIGN_IN,
    });
  });
  it('passes a signed-in user with a complete profile', () => {
    expect(guardDecision({ ...base, status: 'signedIn', profileComplete: true })).toEqual({ kind: 'pass' });
  });
  it('goes to the remembered route once after sign-in, else home', () => {
    const store = new Map<string, string>([[INTENDED_ROUTE, '/payment/home']]);
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      removeItem: (k: string) => void store.delete(k),
    };
    expect(takeIntendedRoute(storage)).toBe('/payment/home');
    expect(takeIntendedRoute(storage)).toBe('/');
    store.set(INTENDED_ROUTE, 'https://evil.example');
    expect(takeIntendedRoute(storage)).toBe('/');
  });
});
