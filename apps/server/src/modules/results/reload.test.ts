import type { AddressInfo } from 'node:net';
import { CORRECTION_EVENT, liveChannels, RESULTS_EVENT, unbundleResults } from '@tempora/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { createTestUser } from '../../../test/identity-helpers.ts';
import { eventually, rawSubscriber } from '../../realtime/test-harness.ts';
import { DEMO_DB } from '../../seed/demo-races.ts';

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';

// Issue 26: one reload command for every caller. A console change the live state cannot follow
// by itself (here the order of a race's reports) reaches the open tables as a reload then a
// correction, as race day's changes do; a context nobody watches is only forgotten.
describe('the one reload command', () => {
  let app: FastifyInstance;
  let owner = '';
  const published: { channels: string[]; event: string }[] = [];
  const node = () => ({ port: (app.server.address() as AddressInfo).port, config: app.config });

  beforeAll(async () => {
    app = await buildTestApp();
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const original = app.realtime.publish.bind(app.realtime);
    Object.assign(app.realtime, {
      publish: async (channels: string[], event: string, data: unknown) => {
        published.push({ channels, event });
        return original(channels, event, data as never);
      },
    });
  });
  afterAll(() => app.close());

  const reorder = async () => {
    const reports = await app.inject({
      method: 'GET',
      url: '/api/console/races/city-10k/reports',
      headers: { authorization: owner },
    });
    expect(reports.statusCode).toBe(200);
    const keys = (reports.json() as { key: string }[]).map((r) => r.key).reverse();
    const res = await app.inject({
      method: 'PUT',
      url: '/api/console/races/city-10k/reports/order',
      headers: { authorization: owner },
      payload: { keys },
    });
    expect(res.statusCode).toBe(200);
    return keys;
  };

  it('forgets an unwatched context and publishes nothing', async () => {
    const before = await app.results.state(DEMO_DB);
    published.length = 0;
    await reorder();
    expect(published).toEqual([]);
    // Forgotten: the next reader gets a state rebuilt with the new order.
    expect(await app.results.state(DEMO_DB)).not.toBe(before);
  });

  it('tells a watched report to reload, then sends the correction, after a console change', async () => {
    const table = await rawSubscriber(node(), [liveChannels.report(DEMO_DB, 'city-10k', 'LIVE1')]);
    const changes = await rawSubscriber(node(), [liveChannels.changes(DEMO_DB)]);
    published.length = 0;
    await reorder();
    await eventually(() => table.events.length > 0 && changes.events.length > 0);
    const reloads = table.events
      .filter((m) => m.event === RESULTS_EVENT)
      .flatMap((m) => unbundleResults(JSON.parse(String(m.data))))
      .map(([, d]) => d as { report?: string; reload?: boolean });
    expect(reloads).toContainEqual(expect.objectContaining({ report: 'LIVE1', reload: true }));
    expect(changes.events.map((m) => [m.event, JSON.parse(String(m.data))])).toEqual([
      [CORRECTION_EVENT, { bibs: [] }],
    ]);
    // In that order: the reload before the correction.
    const order = published.map((p) => p.event);
    expect(order.indexOf(RESULTS_EVENT)).toBeLessThan(order.indexOf(CORRECTION_EVENT));
  });
  it('reloads a watched context after a race setup change has committed, with the change in it', async () => {
    // A race's name changes in a transaction; someone watches the context, so the reload rebuilds
    // the state: inside the transaction it would read the old name (or, on the embedded
    // database's one connection, wait for itself and never answer).
    const table = await rawSubscriber(node(), [liveChannels.report(DEMO_DB, 'city-10k', 'LIVE1')]);
    const res = await app.inject({
      method: 'PATCH',
      url: '/api/console/races/city-10k',
      headers: { authorization: owner },
      payload: { name: '10 km (renamed)' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(() => table.events.some((m) => m.event === RESULTS_EVENT));
    const state = await app.results.state(DEMO_DB);
    expect(state.races.get('city-10k')?.row.name).toBe('10 km (renamed)');
    table.ws.close();
  });
});
