import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers.ts';
import { organisers } from '../test-helpers.ts';

const base = '/api/events/demo-city-run/cms';

describe('CMS API', () => {
  let app: FastifyInstance;
  let who: Awaited<ReturnType<typeof organisers>>;
  beforeAll(async () => {
    app = await buildTestApp();
    who = await organisers(app);
  });
  afterAll(() => app.close());

  it('serves the seeded tree (published only) as spec §3 nodes', async () => {
    const tree = (await app.inject(`${base}/tree?lng=en`)).json();
    expect(tree).toMatchObject({ Id: '', DisplayName: 'Demo City Run', Folders: 1, Leafs: 2 });
    expect(tree.Childs.map((n: { Id: string }) => n.Id)).toEqual(['welcome', 'practical', 'rules']);
    expect(tree.Childs[1]).toMatchObject({ DisplayName: 'Practical information', Leafs: 2, Folders: 0 });
    expect((await app.inject(`${base}/tree?lng=fr`)).json().Childs[0].DisplayName).toBe('Bienvenue');
  });

  it('hides drafts from spectators and shows them to the organiser', async () => {
    expect((await app.inject(`${base}/pages/volunteers`)).statusCode).toBe(404);
    expect((await app.inject({ url: `${base}/pages/volunteers`, headers: who.b })).statusCode).toBe(404);
    const draft = await app.inject({ url: `${base}/pages/volunteers`, headers: who.a });
    expect(draft.statusCode).toBe(200);
    expect(draft.json().published).toBe(false);
    const tree = (await app.inject({ url: `${base}/tree`, headers: who.a })).json();
    expect(tree.Childs.map((n: { Id: string }) => n.Id)).toContain('volunteers');
  });

  it('creates, publishes and serves a page in both languages with its script neutralised', async () => {
    const created = await app.inject({
      method: 'POST',
      url: `${base}/pages`,
      headers: who.a,
      payload: {
        key: 'results-info',
        parentKey: 'practical',
        title: { en: 'Results', fr: 'Résultats' },
        body: {
          en: '<p onclick="steal()">Live</p><script>alert(1)</script><img src="x" onerror="alert(1)">',
          fr: '<p>En direct</p><a href="javascript:alert(1)">x</a>',
        },
      },
    });
    expect(created.statusCode).toBe(201);
    expect((await app.inject(`${base}/pages/results-info`)).statusCode).toBe(404);
    const published = await app.inject({
      method: 'PATCH',
      url: `${base}/pages/results-info`,
      headers: who.a,
      payload: { published: true },
    });
    expect(published.statusCode).toBe(200);
    const page = (await app.inject(`${base}/pages/results-info`)).json();
    expect(page.title).toEqual({ en: 'Results', fr: 'Résultats' });
    expect(page.body.en).toContain('<p>Live</p>');
    expect(JSON.stringify(page.body)).not.toMatch(/script|onclick|onerror|javascript:/i);
    const tree = (await app.inject(`${base}/tree`)).json();
    expect(tree.Childs[1].Childs.map((n: { Id: string }) => n.Id)).toContain('results-info');
  });

  it('reorders siblings and refuses a cycle', async () => {
    const reordered = await app.inject({
      method: 'POST',
      url: `${base}/reorder`,
      headers: who.a,
      payload: { keys: ['rules', 'welcome', 'practical', 'volunteers'] },
    });
    expect(reordered.statusCode).toBe(200);
    expect((await app.inject(`${base}/tree`)).json().Childs[0].Id).toBe('rules');
    const cycle = await app.inject({
      method: 'PATCH',
      url: `${base}/pages/practical`,
      headers: who.a,
      payload: { parentKey: 'course' },
    });
    expect(cycle.json().code).toBe('CMS_TREE_CYCLE');
  });

  it('refuses another organisation and bad input, changing nothing', async () => {
    const before = (await app.inject({ url: `${base}/tree`, headers: who.a })).json();
    const post = (headers: Record<string, string>, payload: object) =>
      app.inject({ method: 'POST', url: `${base}/pages`, headers, payload });
    const valid = { key: 'evil', title: { en: 'x', fr: 'x' } };
    expect((await post(who.b, valid)).statusCode).toBe(403);
    expect((await post({}, valid)).statusCode).toBe(401);
    expect((await post(who.a, { ...valid, key: '../etc' })).statusCode).toBe(400);
    expect((await post(who.a, { key: 'x' })).statusCode).toBe(400);
    expect((await post(who.a, { ...valid, key: 'welcome' })).statusCode).toBe(409);
    const forged = await app.inject({
      method: 'PATCH',
      url: `${base}/pages/welcome`,
      headers: who.b,
      payload: { body: { en: 'defaced', fr: 'défiguré' } },
    });
    expect(forged.statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'DELETE', url: `${base}/pages/welcome`, headers: who.b })).statusCode,
    ).toBe(403);
    expect((await app.inject({ url: `${base}/tree`, headers: who.a })).json()).toEqual(before);
  });
});
