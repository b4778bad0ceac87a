import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers.ts';
import { createTestUser } from '../../../../test/identity-helpers.ts';
import { safeFileName } from './service.ts';

// Issue 13: photo names stripped of bidirectional controls, extension from the detected type;
// a malformed multipart body is a 400, not a 500.

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
let app: FastifyInstance;
let owner: string;
beforeAll(async () => {
  app = await buildTestApp();
  owner = (await createTestUser(app, { memberships: [{ organisationId: DEMO_ORG, role: 'owner' }] }))
    .authorization;
});
afterAll(() => app.close());

const upload = (payload: Buffer | string, type: string) =>
  app.inject({
    method: 'POST',
    url: '/api/events/demo-city-run/photos',
    headers: { authorization: owner, 'content-type': type },
    payload,
  });

describe('photo names', () => {
  it('safeFileName strips paths, controls and bidi overrides, and takes the detected extension', () => {
    expect(safeFileName('1234_\u202egpj.exe', 'jpeg')).toBe('1234_gpj.jpg');
    expect(safeFileName('C:\\\\x\\\\..\\\\finish.PNG', 'webp')).toBe('finish.webp');
    expect(safeFileName('\u2066\u0000', 'png')).toBe('photo.png');
  });

  it('an upload named with a right-to-left override is stored under a safe name', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const boundary = 'b0undary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="77_\u202egpj.exe"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await upload(body, `multipart/form-data; boundary=${boundary}`);
    expect(res.statusCode).toBe(201);
    expect(res.json().photos[0].fileName).toBe('77_gpj.png');
  });
});

describe('malformed multipart', () => {
  it('no boundary, or garbage parts → 4xx problem+json', async () => {
    for (const [payload, type] of [
      ['--x\r\ngarbage', 'multipart/form-data'],
      ['garbage without any boundary line', 'multipart/form-data; boundary=zz'],
      [
        '--zz\r\nContent-Disposition: form-data; name="files"; filename="a.jpg"\r\n\r\nabc',
        'multipart/form-data; boundary=zz',
      ],
    ] as const) {
      const res = await upload(payload, type);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });
});
