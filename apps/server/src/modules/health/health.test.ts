import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';

describe('health and readiness', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('reports liveness and a reachable database', async () => {
    const app = await buildTestApp();
    close = () => app.close();
    const health = await app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().status).toBe('ok');
    const ready = await app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'pglite' });
  });

  it('answers 503 when the database is gone', async () => {
    const app = await buildTestApp();
    close = async () => {
      await app.close().catch(() => {});
    };
    await app.database.close();
    const ready = await app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().code).toBe('DATABASE_UNREACHABLE');
  });

  it('is not ready while the node warms up, then ready', async () => {
    const app = await buildTestApp();
    close = () => app.close();
    let finish: () => void = () => {};
    app.readiness.wait('live results', new Promise<void>((resolve) => (finish = resolve)));
    const warming = await app.inject({ url: '/api/ready' });
    expect(warming.statusCode).toBe(503);
    expect(warming.headers['content-type']).toContain('application/problem+json');
    expect(warming.json().code).toBe('WARMING_UP');
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
    finish();
    await new Promise((r) => setTimeout(r, 10));
    expect((await app.inject({ url: '/api/ready' })).statusCode).toBe(200);
  });

  it('loads the live events’ results when it starts listening, before it is ready', async () => {
    const app = await buildTestApp({ DEMO_REPLAY: 'false' });
    close = () => app.close();
    await app.listen({ port: 0, host: '127.0.0.1' });
    expect(app.readiness.pending()).toContain('live results');
    for (let k = 0; k < 500 && app.readiness.pending().length; k++)
      await new Promise((r) => setTimeout(r, 20));
    expect(app.readiness.pending()).toEqual([]);
    expect((await app.inject({ url: '/api/ready' })).statusCode).toBe(200);
  });
});
