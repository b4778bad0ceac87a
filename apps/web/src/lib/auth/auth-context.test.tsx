import type { EnvironmentConfig } from '@tempora/contracts';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../api-client.ts';
import { AuthProvider, postProfile, useAuth } from './auth-context.tsx';

const base = '/api/';
configureApiClient({
  apiUrlBase: base,
  eventsApiUrlBase: base,
  resultsApiUrlBase: base,
  userApiUrlBase: base,
  confirmationApiUrlBase: base,
  trackingApiUrlBase: base,
  realtime: { key: 'k', cluster: 'eu', host: null, port: null, forceTLS: null },
  mapKey: '',
  blobUrlBase: '/',
} satisfies EnvironmentConfig);

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const profile = { sub: 'u1', email: 'a@b.c', firstName: 'Ada', lastName: 'L', profileComplete: true };
const fakeToken = (exp: number) => `x.${btoa(JSON.stringify({ exp }))}.y`;

function Probe() {
  const { status, profile: p, ability } = useAuth();
  return (
    <p data-testid="probe">
      {status}|{p?.sub ?? '-'}|{String(ability?.can('manage', 'Confirmation') ?? false)}
    </p>
  );
}

describe('auth state (spec §4, §5, §8)', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('rejects a profile update whose reply has success false, with the reply', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ success: false })),
    );
    await expect(
      postProfile({
        firstName: 'A',
        lastName: 'B',
        gender: 'F',
        birthDate: '1990-01-01',
        nationality: 'BEL',
        club: '',
      }),
    ).rejects.toEqual({ success: false });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ success: true })),
    );
    await expect(
      postProfile({
        firstName: 'A',
        lastName: 'B',
        gender: 'F',
        birthDate: '1990-01-01',
        nationality: 'BEL',
        club: '',
      }),
    ).resolves.toBeUndefined();
  });

  it('starts signed out without a token', async () => {
    vi.stubGlobal('fetch', vi.fn());
    render(
      <AuthProvider>
        <Probe />
      </AuthProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('signedOut|-|false'));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('is signed in once the profile and the permissions have loaded, with the bearer token', async () => {
    localStorage.setItem('accessToken', fakeToken(Date.now() / 1000 + 900));
    const fetcher = vi.fn(async (url: string) =>
      url.endsWith('user/get')
        ? json(profile)
        : json({ rules: [{ action: 'manage', subject: 'Confirmation' }] }),
    );
    vi.stubGlobal('fetch', fetcher);
    render(
      <AuthProvider>
        <Probe />
      </AuthProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('signedIn|u1|true'));
    const [, init] = fetcher.mock.calls[0] as unknown as [string, RequestInit];
    expect((init.headers as Record<string, string>).authorization).toMatch(/^Bearer x\./);
    expect(JSON.parse(localStorage.getItem('userData') ?? '{}').sub).toBe('u1');
    expect(localStorage.getItem('userAbilities')).toContain('Confirmation');
  });

  it('still finishes the initialisation when the permissions fail to load (logged only)', async () => {
    localStorage.setItem('accessToken', fakeToken(Date.now() / 1000 + 900));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => (url.endsWith('user/get') ? json(profile) : json({ code: 'X' }, 503))),
    );
    render(
      <AuthProvider>
        <Probe />
      </AuthProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').textContent).not.toMatch(/^initialising/));
    expect(warn).toHaveBeenCalledWith('permissions load failed', expect.anything());
    warn.mockRestore();
  });

  it('signs out: clears userData, accessToken, userAbilities and goes to /', async () => {
    localStorage.setItem('accessToken', fakeToken(Date.now() / 1000 + 900));
    localStorage.setItem('refreshToken', 'r'.repeat(20));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.endsWith('user/get')
          ? json(profile)
          : url.endsWith('sign-out')
            ? new Response(null, { status: 204 })
            : json({ rules: [] }),
      ),
    );
    const onSignedOut = vi.fn();
    let api: ReturnType<typeof useAuth> | null = null;
    function Grab() {
      api = useAuth();
      return null;
    }
    render(
      <AuthProvider onSignedOut={onSignedOut}>
        <Probe />
        <Grab />
      </AuthProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('signedIn|u1|false'));
    await act(async () => api?.signOut());
    expect(screen.getByTestId('probe').textContent).toBe('signedOut|-|false');
    expect(
      ['userData', 'accessToken', 'userAbilities', 'refreshToken'].map((k) => localStorage.getItem(k)),
    ).toEqual([null, null, null, null]);
    expect(onSignedOut).toHaveBeenCalledOnce();
  });
});
