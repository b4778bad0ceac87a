import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp } from '../../../test/helpers.ts';
import { routeAccess } from '../../../test/routes/route-access.ts';
import {
  afterAccess,
  checked,
  type ZodTypeProvider,
  zodSerializerCompiler,
  zodValidatorCompiler,
} from '../../lib/zod-routes.ts';
import { errorsPlugin } from '../../plugins/errors.ts';
import { pendingRoutes, schemaExemptions } from './coverage.ts';
import { openApiPath } from './openapi.ts';

let app: FastifyInstance;
beforeAll(async () => {
  // A built web client (one page), so the static catch-all is registered and documented too.
  const web = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-web-'));
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Tempora</title>');
  app = await buildTestApp({ WEB_DIST: web });
  await app.ready();
}, 240_000);
afterAll(() => app.close());

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
/** A route declares its shape: a response, and its params when its path has any. */
const declares = (r: { url: string; schema?: { params?: unknown; response?: unknown } }) =>
  Boolean(r.schema?.response && (!r.url.includes(':') || r.schema.params));

describe('API reference (issue 30)', () => {
  it('documents every registered route with its declared schemas, but the listed exemptions', async () => {
    const res = await app.inject({ url: '/api/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    const exempt = new Set(Object.keys(schemaExemptions));
    const pending = new Set(pendingRoutes);
    const undeclared = app.routeTable.filter((r) => !declares(r)).map(key);
    // A route without schemas that is neither exempt nor pending fails here, naming it.
    expect(undeclared.filter((k) => !exempt.has(k) && !pending.has(k))).toEqual([]);
    // A pending route that now declares its schemas leaves the list (it only shrinks).
    expect([...pending].filter((k) => !undeclared.includes(k))).toEqual([]);
    // Pending entries name routes that exist (`GET /` only exists while the web client is not built).
    const registered = new Set(app.routeTable.map(key));
    expect([...pending].filter((k) => !registered.has(k))).toEqual([]);
    const undocumented = app.routeTable
      .filter(declares)
      .filter((r) => !document.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
      .map(key);
    expect(undocumented).toEqual([]);
  });

  it('is a document a standard OpenAPI validator accepts (issue 41)', async () => {
    const document = (await app.inject({ url: '/api/docs/openapi.json' })).json();
    const result = await validate(structuredClone(document));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const text = JSON.stringify(document);
    // Inside an OpenAPI document `#` is the whole document: recursion goes through components.
    expect(text).not.toMatch(/"\$ref":"#(\/\$defs\/[^"]*)?"/);
    expect(document.components.schemas.CmsNode).toBeDefined();
    // Only formats a validator knows (zod's `starts_with` is dropped; its pattern says the rule).
    const formats = new Set([...text.matchAll(/"format":"([^"]+)"/g)].map((m) => m[1]));
    expect(
      [...formats].filter(
        (f) => !['uri', 'email', 'date', 'date-time', 'binary', 'uuid', 'time'].includes(f as string),
      ),
    ).toEqual([]);
    type Operation = {
      parameters: unknown[];
      requestBody?: { content: object };
      responses: Record<string, { content?: object }>;
    };
    const op = (p: string, method: string) =>
      (document.paths as Record<string, Record<string, Operation>>)[p]?.[method] as Operation;
    // The catch-all names its path parameter and answers files; the HTML reference is HTML.
    expect(op('/{wildcard}', 'get').parameters).toEqual([
      expect.objectContaining({ name: 'wildcard', in: 'path', required: true }),
    ]);
    expect(Object.keys(op('/{wildcard}', 'get').responses['200']?.content ?? {})).toContain('text/html');
    expect(Object.keys(op('/api/docs', 'get').responses['200']?.content ?? {})).toEqual(['text/html']);
    // Mollie posts form fields.
    expect(Object.keys(op('/api/payments/webhooks/mollie', 'post').requestBody?.content ?? {})).toEqual([
      'application/x-www-form-urlencoded',
    ]);
    const html = await app.inject({ url: '/api/docs' });
    expect(html.headers['content-type']).toMatch(/^text\/html/);
  });

  it('names the access the authorization matrix holds each documented route to', () => {
    const wrong = app.routeTable
      .filter((r) => r.schema?.access)
      .filter((r) => {
        const entry = routeAccess[key(r)];
        return (Array.isArray(entry) ? entry[0] : entry) !== r.schema?.access;
      })
      .map((r) => `${key(r)}: ${r.schema?.access}`);
    expect(wrong).toEqual([]);
  });

  it('serves a readable page grouped by module', async () => {
    const res = await app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<h2 id="module-docs">docs</h2>');
    expect(res.body).toContain('/api/docs/openapi.json');
    for (const r of app.routeTable.filter(declares))
      expect(res.body, key(r)).toContain(`<code>${openApiPath(r.url).replace(/&/g, '&amp;')}</code>`);
  });
});

describe('zod route schemas (lib/zod-routes.ts)', () => {
  let small: FastifyInstance;
  beforeAll(async () => {
    small = Fastify();
    await small.register(errorsPlugin);
    small.setValidatorCompiler(zodValidatorCompiler);
    small.setSerializerCompiler(zodSerializerCompiler({ strict: true, log: () => small.log }));
    const typed = small.withTypeProvider<ZodTypeProvider>();
    typed.post(
      '/items/:id',
      {
        schema: {
          params: z.object({ id: z.coerce.number().int().positive() }),
          querystring: z.object({ limit: z.coerce.number().int().max(10).default(5) }),
          body: z.object({ name: z.string().min(2) }),
          response: { 200: z.object({ id: z.number(), limit: z.number(), name: z.string() }) },
        },
      },
      async (request) => ({ id: request.params.id, limit: request.query.limit, name: request.body.name }),
    );
    typed.post(
      '/late',
      {
        schema: {
          body: afterAccess(z.object({ name: z.string() })),
          response: { 200: z.object({ ok: z.boolean() }) },
        },
      },
      async (request) => {
        if (request.headers.authorization !== 'yes')
          throw Object.assign(new Error('no'), { statusCode: 401 });
        checked(request, 'body');
        return { ok: true };
      },
    );
    typed.get('/wrong', { schema: { response: { 200: z.object({ n: z.number() }) } } }, async () => ({
      n: 'one' as unknown as number,
    }));
    await small.ready();
  });
  afterAll(() => small.close());

  it('hands the handler parsed values', async () => {
    const res = await small.inject({ method: 'POST', url: '/items/7', payload: { name: 'ab' } });
    expect(res.json()).toEqual({ id: 7, limit: 5, name: 'ab' });
  });

  it('answers bad input with parseInput’s problem: VALIDATION_FAILED and a code per field', async () => {
    const body = await small.inject({ method: 'POST', url: '/items/7', payload: { name: 'a', extra: 1 } });
    expect(body.statusCode).toBe(400);
    expect(body.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(body.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      detail: 'Invalid body',
      errors: [{ field: 'name', code: 'tooShort', params: { min: 2 } }],
    });
    const params = await small.inject({ method: 'POST', url: '/items/x', payload: { name: 'ab' } });
    expect(params.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'id', code: 'invalid' }],
    });
    const query = await small.inject({ method: 'POST', url: '/items/1?limit=11', payload: { name: 'ab' } });
    expect(query.json()).toMatchObject({
      detail: 'Invalid query',
      errors: [{ field: 'limit', code: 'tooBig', params: { max: 10 } }],
    });
    const missing = await small.inject({ method: 'POST', url: '/items/1' });
    expect(missing.json()).toMatchObject({ errors: [{ field: 'body', code: 'required' }] });
  });

  it('checks an afterAccess part only when the handler asks, after its access check', async () => {
    expect((await small.inject({ method: 'POST', url: '/late', payload: {} })).statusCode).toBe(401);
    const bad = await small.inject({
      method: 'POST',
      url: '/late',
      payload: {},
      headers: { authorization: 'yes' },
    });
    expect(bad.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'name', code: 'required' }],
    });
    const good = await small.inject({
      method: 'POST',
      url: '/late',
      payload: { name: 'x' },
      headers: { authorization: 'yes' },
    });
    expect(good.json()).toEqual({ ok: true });
  });

  it('fails loudly on an answer off its declared schema (strict), logs it otherwise', async () => {
    const res = await small.inject({ url: '/wrong' });
    expect(res.statusCode).toBe(500);
    const warnings: unknown[] = [];
    const lax = zodSerializerCompiler({
      strict: false,
      log: () => ({ warn: (...args: unknown[]) => warnings.push(args) }) as never,
    })({ schema: z.object({ n: z.number() }), method: 'GET', url: '/x', httpStatus: '200' });
    expect(lax({ n: 'one' })).toBe('{"n":"one"}');
    expect(lax({ n: 'two' })).toBe('{"n":"two"}');
    expect(warnings).toHaveLength(1);
  });
});
