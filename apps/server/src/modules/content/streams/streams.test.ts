import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers.ts';
import { organisers } from '../test-helpers.ts';
import { flagCurrent } from './service.ts';

const base = '/api/events/demo-city-run/streams';
const row = (id: string, start: string, end: string) => ({
  id,
  title: id,
  kind: 'hls' as const,
  url: 'https://cdn.test/a.m3u8',
  startsAt: start,
  endsAt: end,
  position: 0,
});

describe('streams', () => {
  it('flags the one on air, else the next, else the last', () => {
    const rows = [
      row('a', '2026-01-01T08:00Z', '2026-01-01T09:00Z'),
      row('b', '2026-01-01T10:00Z', '2026-01-01T11:00Z'),
    ];
    const current = (now: string) => flagCurrent(rows, Date.parse(now)).find((s) => s.current)?.id;
    expect(current('2026-01-01T08:30Z')).toBe('a');
    expect(current('2026-01-01T09:30Z')).toBe('b');
    expect(current('2026-01-01T12:00Z')).toBe('b');
    expect(current('2026-01-01T07:00Z')).toBe('a');
  });

  describe('API', () => {
    let app: FastifyInstance;
    let who: Awaited<ReturnType<typeof organisers>>;
    beforeAll(async () => {
      app = await buildTestApp();
      who = await organisers(app);
    });
    afterAll(() => app.close());

    it('serves the seeded stream as current', async () => {
      const streams = (await app.inject(base)).json();
      expect(streams).toHaveLength(1);
      expect(streams[0]).toMatchObject({ kind: 'youtube', current: true });
    });

    it('accepts allowed YouTube hosts and https HLS only', async () => {
      const post = (url: string, kind = 'youtube', headers = who.a) =>
        app.inject({
          method: 'POST',
          url: base,
          headers,
          payload: {
            title: 'T',
            kind,
            url,
            startsAt: '2026-05-31T08:00:00Z',
            endsAt: '2026-05-31T12:00:00Z',
          },
        });
      expect((await post('https://youtu.be/aqz-KE-bpKQ')).statusCode).toBe(201);
      expect((await post('https://live.cdn.test/race/index.m3u8', 'hls')).statusCode).toBe(201);
      expect((await post('https://evil.test/watch?v=aqz-KE-bpKQ')).statusCode).toBe(400);
      expect((await post('https://youtube.com.evil.test/embed/x')).statusCode).toBe(400);
      expect((await post('http://live.cdn.test/race/index.m3u8', 'hls')).statusCode).toBe(400);
      expect((await post('javascript:alert(1)', 'hls')).statusCode).toBe(400);
      expect((await post('https://youtu.be/aqz-KE-bpKQ', 'youtube', who.b)).statusCode).toBe(403);
      expect((await app.inject(base)).json()).toHaveLength(3);
    });
  });
});
