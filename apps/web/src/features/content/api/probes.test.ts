import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet } from '../../../lib/api-client.ts';
import { probeApi } from './probes.ts';

vi.mock('../../../lib/api-client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/api-client.ts')>()),
  apiGet: vi.fn(),
}));
const get = vi.mocked(apiGet);

describe('probeApi (the diagnostics page)', () => {
  beforeEach(() => get.mockReset());

  it('says what each call answered, and the error of one that failed', async () => {
    get.mockImplementation(async (_base, path) => {
      if (path === 'health') return { status: 'ok' };
      if (path === 'ready') throw new ApiError(503, 'NOT_READY', 'Database not ready');
      return [{}, {}, {}];
    });
    const probes = await probeApi();
    expect(get.mock.calls.map((c) => [c[0], c[1]])).toEqual([
      ['apiUrlBase', 'health'],
      ['apiUrlBase', 'ready'],
      ['eventsApiUrlBase', 'events'],
    ]);
    expect(probes.health).toMatchObject({ ok: true, detail: 'ok' });
    expect(probes.ready).toMatchObject({ ok: false, detail: 'Database not ready' });
    expect(probes.events).toMatchObject({ ok: true, detail: '3' });
    expect(probes.health.ms).toBeGreaterThanOrEqual(0);
  });
});
