import type { EnvironmentConfig } from '@tempora/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiGet, configureApiClient, setAuthHandlers } from './api-client.ts';

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

/** The boot script's state (`/boot.js`), as it leaves it on `window`. */
function bootWith(early: Record<string, Promise<Response>>) {
  (window as unknown as { __temporaBoot: unknown }).__temporaBoot = { early };
}

afterEach(() => {
  vi.unstubAllGlobals();
  setAuthHandlers({ getToken: async () => null, onUnauthorized: async () => false });
  delete (window as unknown as { __temporaBoot?: unknown }).__temporaBoot;
});

describe('answers the boot script asked for (issue 19: the start-up chain)', () => {
  it('takes the early answer of the same URL once, then goes to the network', async () => {
    const network = vi.fn(async () => json({ from: 'network' }));
    vi.stubGlobal('fetch', network);
    bootWith({ '/api/events/e1': Promise.resolve(json({ from: 'boot' })) });
    expect(await apiGet('eventsApiUrlBase', 'events/e1')).toEqual({ from: 'boot' });
    expect(network).not.toHaveBeenCalled();
    expect(await apiGet('eventsApiUrlBase', 'events/e1')).toEqual({ from: 'network' });
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('leaves another URL, a call with headers and a signed-in call to the network', async () => {
    const network = vi.fn(async () => json({ from: 'network' }));
    vi.stubGlobal('fetch', network);
    bootWith({ '/api/events/e1': Promise.resolve(json({ from: 'boot' })) });
    expect(await apiGet('eventsApiUrlBase', 'events/e2')).toEqual({ from: 'network' });
    expect(await apiGet('eventsApiUrlBase', 'events/e1', { headers: { 'x-a': '1' } })).toEqual({
      from: 'network',
    });
    setAuthHandlers({ getToken: async () => 'token', onUnauthorized: async () => false });
    expect(await apiGet('eventsApiUrlBase', 'events/e1')).toEqual({ from: 'network' });
    expect(network).toHaveBeenCalledTimes(3);
  });

  it('asks again when the early request failed', async () => {
    const network = vi.fn(async () => json({ from: 'network' }));
    vi.stubGlobal('fetch', network);
    bootWith({ '/api/events/e1': Promise.reject(new TypeError('offline')) });
    expect(await apiGet('eventsApiUrlBase', 'events/e1')).toEqual({ from: 'network' });
  });

  it('an early error answer is the answer (a 404 is not asked twice)', async () => {
    const network = vi.fn(async () => json({ from: 'network' }));
    vi.stubGlobal('fetch', network);
    bootWith({
      '/api/events/none': Promise.resolve(json({ code: 'NOT_FOUND', detail: 'no such event' }, 404)),
    });
    await expect(apiGet('eventsApiUrlBase', 'events/none')).rejects.toMatchObject({ status: 404 });
    expect(network).not.toHaveBeenCalled();
  });
});
