import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { pickEncoding } from './report-body.ts';

const START = '/api/results/demo-city-run/groups/city-10k/reports/START';

describe('report encodings (issue 19: brotli as well as gzip)', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(pickEncoding('*')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('')).toBeNull();
  });

  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('sends the same table in brotli, gzip or plain, and pages of it', async () => {
    const plain = await app.inject(START);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await app.inject({ url: START, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    const gz = await app.inject({ url: START, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const fromBr = zlib.brotliDecompressSync(br.rawPayload).toString();
    expect(fromBr).toBe(plain.body);
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(gz.rawPayload.length);
    // The first page and the rest (progressive loading) put together are the whole table.
    const whole = plain.json() as { rows: unknown[][]; total: number; version: number };
    const first = (await app.inject(`${START}?offset=0&limit=100`)).json();
    const rest = (await app.inject(`${START}?offset=100&limit=100000`)).json();
    expect(first.total).toBe(whole.total);
    expect(first.version).toBe(rest.version);
    expect([...first.rows, ...rest.rows]).toEqual(whole.rows);
  });
});
