import type { TokenResponse } from '@tempora/contracts';
import { apiPost } from '../api-client.ts';

/** Local storage keys of spec §3 (plus the refresh token of the built-in provider). */
export const STORAGE = {
  userData: 'userData',
  accessToken: 'accessToken',
  userAbilities: 'userAbilities',
  refreshToken: 'refreshToken',
} as const;

/** Refresh this many seconds before the ID token expires, so no call is made with a stale one. */
export const REFRESH_MARGIN_S = 60;

/** Seconds left on a JWT (0 when unreadable). */
export function secondsLeft(token: string, now = Date.now()): number {
  try {
    const part = token.split('.')[1] ?? '';
    const payload = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number };
    return (payload.exp ?? 0) - now / 1000;
  } catch {
    return 0;
  }
}

/** Keeps the tokens of a successful sign-in or refresh. */
export function storeTokens(tokens: TokenResponse): void {
  localStorage.setItem(STORAGE.accessToken, tokens.idToken);
  localStorage.setItem(STORAGE.refreshToken, tokens.refreshToken);
}

/** Removes what sign-out removes (spec §4): userData, accessToken, userAbilities, and the refresh token. */
export function clearStoredSession(): void {
  for (const key of Object.values(STORAGE)) localStorage.removeItem(key);
}

let refreshing: Promise<string | null> | null = null;

/**
 * Exchanges the refresh token for a new ID token (the provider rotates the refresh token); null
 * when there is none or the provider refuses it. Concurrent callers share one request, because a
 * rotated refresh token used twice revokes the whole family.
 */
export function refreshTokens(): Promise<string | null> {
  refreshing ??= (async () => {
    const refreshToken = localStorage.getItem(STORAGE.refreshToken);
    if (!refreshToken) return null;
    try {
      const tokens = await apiPost<TokenResponse>(
        'userApiUrlBase',
        'auth/refresh',
        { refreshToken },
        { anonymous: true },
      );
      storeTokens(tokens);
      return tokens.idToken;
    } catch {
      return null;
    } finally {
      setTimeout(() => {
        refreshing = null;
      }, 0);
    }
  })();
  return refreshing;
}

/** The bearer token for a call: the stored ID token, refreshed first when close to expiry. */
export async function currentToken(): Promise<string | null> {
  const token = localStorage.getItem(STORAGE.accessToken);
  if (!token) return null;
  return secondsLeft(token) < REFRESH_MARGIN_S ? ((await refreshTokens()) ?? token) : token;
}

let signingOut = false;

/**
 * Set while a sign-out is under way, until the app is back on `/` (spec §2: "Sign-out clears
 * stored data and goes to /"). The page being left may still render once, signed out, while the
 * router loads `/`: the guard then goes to `/` rather than to login.
 */
export function markSigningOut(value: boolean): void {
  signingOut = value;
}

/** Whether a sign-out is under way (see `markSigningOut`). */
export function isSigningOut(): boolean {
  return signingOut;
}
