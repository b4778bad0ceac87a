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
});
