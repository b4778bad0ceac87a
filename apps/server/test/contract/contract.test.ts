import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/paths.ts';
import { seedBoston } from '../../src/seed/demo-races.ts';
import { buildTestApp } from '../helpers.ts';
import { createTestUser } from '../identity-helpers.ts';
import { DEMO_ORG, PARAMS } from '../routes/route-table.ts';
import {
  generator,
  mediaTypeDocumented,
  type OpenApiDocument,
  type Operation,
  prng,
  refusalAnnounced,
  validators,
} from './contract-lib.ts';
import { seedFormats } from './seed-formats.ts';

/**
 * The API keeps its contract (issue 41), checked the way Schemathesis does: requests generated
 * from `GET /api/docs/openapi.json` (params, queries and bodies from their schemas, path ids
 * mostly real rows of the seeded server: the demo, Boston 2017, a triathlon and a relay), sent
 * as the demo organisation's owner or anonymously; every answer must be
 *   - below 500;
 *   - of a documented status (a success listed by the operation; an error under `default`);
 *   - of a documented media type for that status, and empty when none is documented;
 *   - valid against the schema documented for that status and media type (JSON);
 *   - and a request valid against the document is never refused as invalid (400
 *     `VALIDATION_FAILED`: the route would hold a rule its schema does not state).
 * Seeded (CONTRACT_SEED, default 41) with a budget per operation (CONTRACT_REQUESTS, default 6),
 * so a failure replays; reads first, then writes, deletes last. Counts are printed at the end.
 */

const SEED = Number(process.env.CONTRACT_SEED ?? 41);
const PER_OPERATION = Number(process.env.CONTRACT_REQUESTS ?? 6);
const BOSTON_ROWS = 1500;
/** CONTRACT_ONLY=regex: only the operations whose `METHOD /path` matches (to replay one). */
const ONLY = process.env.CONTRACT_ONLY ? new RegExp(process.env.CONTRACT_ONLY) : undefined;
const METHOD_ORDER = ['get', 'head', 'post', 'put', 'patch', 'delete'];

interface Target {
  db: string;
  raceId: string;
  eventId: string;
}

describe('API contract (issue 41)', () => {
  let app: FastifyInstance;
  let document: OpenApiDocument;
  let owner: string;
  let targets: Target[];

  beforeAll(async () => {
    app = await buildTestApp();
    // Boston 2017's first BOSTON_ROWS finishers (its columns, splits and divisions; the whole
    // list takes minutes to import on a loaded CI machine and adds no shape).
    const boston = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'contract-')), 'boston.csv');
    const lines = fs.readFileSync(path.join(repoRoot, 'fixtures/boston-2017.csv'), 'utf8').split('\n');
    fs.writeFileSync(boston, lines.slice(0, BOSTON_ROWS + 1).join('\n'));
    await seedBoston(app.database, boston);
    await app.results.reload('boston-2017');
    owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
      .authorization;
    await seedFormats(app, owner);
    targets = await app.database.query<Target>(
      `SELECT r.db, r.id AS "raceId", c.event_id AS "eventId" FROM races r JOIN contexts c ON c.db = r.db ORDER BY r.id`,
    );
    document = (await app.inject('/api/docs/openapi.json')).json();
  }, 600_000);
  afterAll(() => app?.close());

  it('is a valid OpenAPI document', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('answers every generated request as its document says', async () => {
    const rng = prng(SEED);
    const generate = generator(document, SEED);
    const check = validators(document);
    const counts = { operations: 0, requests: 0, answersChecked: 0, mismatches: 0 };
    const mismatches: string[] = [];
    const operations = Object.entries(document.paths)
      .flatMap(([url, ops]) => Object.entries(ops).map(([method, op]) => ({ url, method, op })))
      .filter(({ url, method }) => !ONLY || ONLY.test(`${method.toUpperCase()} ${url}`))
      .sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
    for (const { url, method, op } of operations) {
      counts.operations += 1;
      for (let k = 0; k < PER_OPERATION; k += 1) {
        const request = buildRequest(url, method, op, k);
        const res = await app.inject(request.inject);
        counts.requests += 1;
        const problems = checkAnswer(op, res, request.valid, check);
        counts.answersChecked += 1;
        if (problems.length) {
          counts.mismatches += 1;
          mismatches.push(
            `${method.toUpperCase()} ${url} → ${res.statusCode} (${request.inject.url}${
              request.inject.payload ? ` ${String(request.inject.payload).slice(0, 300)}` : ''
            }): ${problems.join('; ')}`,
          );
        }
      }
    }
    const health = await app.inject('/api/health');
    console.log(`contract test: ${JSON.stringify(counts)}`);
    if (process.env.CONTRACT_REPORT) fs.writeFileSync(process.env.CONTRACT_REPORT, mismatches.join('\n'));
    expect(mismatches.slice(0, 40)).toEqual([]);
    expect(health.statusCode).toBe(200);
    if (!ONLY) expect(counts.operations).toBeGreaterThan(150);

    /** A request from the operation's schemas: real ids three times in four, a caller mostly signed in. */
    function buildRequest(url: string, method: string, op: Operation, k: number) {
      const target = rng.pick(targets);
      const real: Record<string, string> = {
        ...PARAMS,
        db: target.db,
        raceId: target.raceId,
        group: target.raceId,
        eventId: target.eventId,
        id: target.eventId,
        event: target.eventId,
      };
      let valid = true;
      const value = (p: { name: string; schema: Record<string, unknown> }) => {
        const known = real[p.name === 'wildcard' ? '*' : p.name];
        const chosen = known !== undefined && (k === 0 || rng.next() < 0.75) ? known : generate(p.schema);
        if (check(p.schema, coerce(p.schema, chosen))) valid = false;
        return String(typeof chosen === 'object' ? JSON.stringify(chosen) : chosen);
      };
      const params = op.parameters ?? [];
      const filled = url.replace(/\{(\w+)\}/g, (_m, name: string) => {
        const p = params.find((x) => x.in === 'path' && x.name === name);
        return name === 'wildcard' ? 'index.html' : encodeURIComponent(p ? value(p) : 'x');
      });
      const query = new URLSearchParams();
      for (const p of params.filter((x) => x.in === 'query'))
        if (p.required || rng.next() < 0.5) query.set(p.name, value(p));
      const headers: Record<string, string> = rng.next() < 0.8 ? { authorization: owner } : {};
      const inject: InjectOptions = {
        method: method.toUpperCase() as InjectOptions['method'],
        url: query.size ? `${filled}?${query}` : filled,
        headers,
      };
      const body = op.requestBody;
      if (body && (body.required || rng.next() < 0.7)) {
        const [type, media] = Object.entries(body.content)[0]!;
        const payload = generate(media.schema);
        if (check(media.schema, payload)) valid = false;
        headers['content-type'] = type;
        inject.payload =
          type === 'application/x-www-form-urlencoded'
            ? new URLSearchParams(payload as Record<string, string>).toString()
            : JSON.stringify(payload);
      }
      return { inject, valid };
    }
  }, 900_000);
});

/** A path or query value as the schema reads it (numbers and booleans arrive as text). */
function coerce(schema: Record<string, unknown>, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const types = [schema.type].flat();
  if (
    (types.includes('integer') || types.includes('number')) &&
    value.trim() !== '' &&
    !Number.isNaN(Number(value))
  )
    return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** What is wrong with an answer, by the operation's document (empty: nothing). */
function checkAnswer(
  op: Operation,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  requestValid: boolean,
  validateBody: (schema: Record<string, unknown>, value: unknown) => string | null,
): string[] {
  const problems: string[] = [];
  const status = res.statusCode;
  if (status >= 500) problems.push(`server error: ${res.body.slice(0, 200)}`);
  const declared = op.responses[String(status)] ?? (status >= 400 ? op.responses.default : undefined);
  if (!declared) return [...problems, `status ${status} not documented`];
  const type = String(res.headers['content-type'] ?? '');
  const content = declared.content ?? {};
  const types = Object.keys(content);
  if (!types.length) {
    if (res.body.length) problems.push(`a body where none is documented (${type})`);
    return problems;
  }
  if (!mediaTypeDocumented(type, types))
    return [...problems, `content type '${type}' not in ${types.join(', ')}`];
  const media = Object.entries(content).find(([t]) => mediaTypeDocumented(type, [t]))?.[1];
  if (/json/.test(type) && media) {
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      return [...problems, 'body is not JSON'];
    }
    const error = validateBody(media.schema, body);
    if (error) problems.push(`body off its schema: ${error}`);
    const problem = body as { code?: string; errors?: { field: string }[] };
    if (
      requestValid &&
      status === 400 &&
      problem.code === 'VALIDATION_FAILED' &&
      !refusalAnnounced(
        op,
        (problem.errors ?? []).map((e) => e.field),
      )
    )
      problems.push(`a request valid by the document refused: ${res.body.slice(0, 300)}`);
  }
  return problems;
}
