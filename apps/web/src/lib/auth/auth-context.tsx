import type {
  Permissions,
  ProfileSaved,
  ProfileUpdate,
  TokenResponse,
  UserProfile,
} from '@tempora/contracts';
// Types only: CASL is loaded once someone signs in (issue 19: this file is in the first chunk
// every spectator downloads, and a visitor's ability is checked nowhere in the client).
import type { AppAbility, AppRule } from '@tempora/contracts/abilities';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { apiGet, apiPost, setAuthHandlers } from '../api-client.ts';
import {
  clearStoredSession,
  currentToken,
  markSigningOut,
  REFRESH_MARGIN_S,
  refreshTokens,
  STORAGE,
  secondsLeft,
  storeTokens,
} from './tokens.ts';

export { STORAGE } from './tokens.ts';

export type AuthStatus = 'initialising' | 'signedOut' | 'signedIn';

export interface AuthState {
  status: AuthStatus;
  profile: UserProfile | null;
  /**
   * The signed-in user's abilities (spec §6, from `permission/get`); null while signed out (an
   * anonymous visitor may do nothing the client checks: read rules only).
   */
  ability: AppAbility | null;
  /** Signs in with the identity provider; rejects with an `ApiError` (INVALID_CREDENTIALS, …). */
  signIn(email: string, password: string): Promise<void>;
  /** Spec §4: clears the profile, the flag and the stored data, then goes to `/`. */
  signOut(): Promise<void>;
  refreshProfile(): Promise<void>;
  /** `POST user/profile`; a reply with `success: false` is rejected to the caller (spec §5, §8). */
  updateProfile(update: ProfileUpdate): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

/** `POST user/profile`: only `success: true` counts; otherwise the reply itself is the rejection. */
export async function postProfile(update: ProfileUpdate): Promise<void> {
  const reply = await apiPost<ProfileSaved>('userApiUrlBase', 'user/profile', update);
  if (reply?.success !== true) throw reply;
}

export interface AuthProviderProps {
  children: ReactNode;
  /** Where sign-out leads (spec §2: `/`); the app passes its router's navigation. */
  onSignedOut?: () => void | Promise<void>;
}

/**
 * Authentication state (spec §4): signed in once a token is held and both the profile
 * (`user/get`) and the permissions (`permission/get`) have loaded. If either load fails at
 * startup, initialisation still completes (logged only, spec §8) and the guard proceeds.
 */
export function AuthProvider({ children, onSignedOut }: AuthProviderProps) {
  // Without a stored token the visitor is signed out from the first render: a status set in an
  // effect re-rendered every page a spectator opens in one blocking task (issue 28: 130 ms, 520 ms
  // on a throttled phone).
  const [status, setStatus] = useState<AuthStatus>(() =>
    localStorage.getItem(STORAGE.accessToken) ? 'initialising' : 'signedOut',
  );
  const [profile, setProfile] = useState<UserProfile | null>(null);
  const [rules, setRules] = useState<AppRule[] | null>(() => readJson<AppRule[]>(STORAGE.userAbilities));
  const [tokenVersion, setTokenVersion] = useState(0);
  const signOutRef = useRef<() => Promise<void>>(async () => {});
  const abilityFrom = useRef<((rules: AppRule[]) => AppAbility) | null>(null);
  const onSignedOutRef = useRef(onSignedOut);
  onSignedOutRef.current = onSignedOut;

  const load = useCallback(async () => {
    const [user, permissions, casl] = await Promise.allSettled([
      apiGet<UserProfile>('userApiUrlBase', 'user/get'),
      apiGet<Permissions>('apiUrlBase', 'permission/get'),
      import('@tempora/contracts/abilities'),
    ]);
    if (casl.status === 'rejected') console.warn('abilities load failed', casl.reason);
    else abilityFrom.current = casl.value.abilityFromRules;
    if (user.status === 'fulfilled') {
      setProfile(user.value);
      localStorage.setItem(STORAGE.userData, JSON.stringify(user.value));
    } else console.warn('profile load failed', user.reason);
    if (permissions.status === 'fulfilled') {
      setRules(permissions.value.rules as AppRule[]);
      localStorage.setItem(STORAGE.userAbilities, JSON.stringify(permissions.value.rules));
    } else console.warn('permissions load failed', permissions.reason);
    // Spec §4: signed in once both have loaded; a failure still ends the initialisation.
    const signedIn =
      user.status === 'fulfilled' && permissions.status === 'fulfilled' && casl.status === 'fulfilled';
    setStatus(signedIn ? 'signedIn' : 'signedOut');
    return signedIn;
  }, []);

  useEffect(() => {
    setAuthHandlers({
      getToken: currentToken,
      // A 401 refreshes once; when that fails the session is over (issue 4).
      onUnauthorized: async () => {
        if (!localStorage.getItem(STORAGE.accessToken)) return false;
        const token = await refreshTokens();
        if (!token) await signOutRef.current();
        return token !== null;
      },
    });
    if (localStorage.getItem(STORAGE.accessToken)) void load();
  }, [load]);

  // Refresh the ID token shortly before it expires, so realtime and calls never carry a dead one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-armed after each refresh (tokenVersion).
  useEffect(() => {
    if (status !== 'signedIn') return;
    const token = localStorage.getItem(STORAGE.accessToken);
    if (!token) return;
    const delay = Math.max(5, secondsLeft(token) - REFRESH_MARGIN_S) * 1000;
    const timer = setTimeout(() => {
      void refreshTokens().then((fresh) => fresh && setTokenVersion((v) => v + 1));
    }, delay);
    return () => clearTimeout(timer);
  }, [status, tokenVersion]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      const tokens = await apiPost<TokenResponse>(
        'userApiUrlBase',
        'auth/sign-in',
        { email, password },
        { anonymous: true },
      );
      storeTokens(tokens);
      setTokenVersion((v) => v + 1);
      await load();
    },
    [load],
  );

  const signOut = useCallback(async () => {
    const refreshToken = localStorage.getItem(STORAGE.refreshToken);
    clearStoredSession();
    markSigningOut(true);
    setProfile(null);
    setRules(null);
    setStatus('signedOut');
    await onSignedOutRef.current?.();
    if (refreshToken) {
      await apiPost('userApiUrlBase', 'auth/sign-out', { refreshToken }, { anonymous: true }).catch(
        () => undefined,
      );
    }
  }, []);
  signOutRef.current = signOut;

  const refreshProfile = useCallback(async () => {
    const user = await apiGet<UserProfile>('userApiUrlBase', 'user/get');
    setProfile(user);
    localStorage.setItem(STORAGE.userData, JSON.stringify(user));
  }, []);

  const updateProfile = useCallback(
    async (update: ProfileUpdate) => {
      await postProfile(update);
      await refreshProfile();
    },
    [refreshProfile],
  );

  // `load` sets `abilityFrom` before the status turns signedIn.
  const ability = useMemo(() => {
    const build = abilityFrom.current;
    return build && rules && status === 'signedIn' ? build(rules) : null;
  }, [rules, status]);
  const value = useMemo<AuthState>(
    () => ({ status, profile, ability, signIn, signOut, refreshProfile, updateProfile }),
    [status, profile, ability, signIn, signOut, refreshProfile, updateProfile],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The authentication state; throws outside `AuthProvider`. */
export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
