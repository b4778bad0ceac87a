import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/helpers.ts';
import { imageType } from '../../../lib/image-type.ts';
import { organisers } from '../test-helpers.ts';
import { bibsFromFileName } from './service.ts';

const base = '/api/events/demo-city-run/photos';

/** A multipart body with `files` parts (and fields first). */
function multipart(
  files: { name: string; data: Buffer; type?: string }[],
  fields: Record<string, string> = {},
) {
  const boundary = '----tempora-test';
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'image/jpeg'}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const jpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#39aade' } })
    .jpeg()
    .toBuffer();

describe('photo helpers', () => {
  it('reads bibs from file names', () => {
    expect(bibsFromFileName('1234_x.jpg')).toEqual(['1234']);
    expect(bibsFromFileName('12-f3_finish.JPG')).toEqual(['12', 'F3']);
    expect(bibsFromFileName('IMG_0001.jpg')).toEqual([]);
    expect(bibsFromFileName('1234.jpg')).toEqual([]);
  });

  it('recognises images by magic bytes only', async () => {
    expect(imageType(await jpeg())).toBe('jpeg');
    expect(imageType(Buffer.from('<svg onload="alert(1)"/>'))).toBeNull();
  });
});

describe('photos API', () => {
  let app: FastifyInstance;
  let who: Awaited<ReturnType<typeof organisers>>;
  beforeAll(async () => {
    app = await buildTestApp();
    who = await organisers(app);
  });
  afterAll(() => app.close());

  it('uploads many photos, tags bibs, publishes them and finds them by bib', async () => {
    const published: unknown[] = [];
    const original = app.realtime.publish.bind(app.realtime);
    app.realtime.publish = async (channels, event, data, socket) => {
      published.push({ channels, event, data });
      return original(channels, event, data, socket);
    };
    const body = multipart(
      [
        { name: '1234_finish.jpg', data: await jpeg() },
        { name: 'crowd.jpg', data: await jpeg() },
      ],
      { bibs: '77' },
    );
    const res = await app.inject({
      method: 'POST',
      url: base,
      headers: { ...who.a, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    const { photos } = res.json();
    expect(photos).toHaveLength(2);
    expect(photos[0].bibs.sort()).toEqual(['1234', '77']);
    expect(published).toHaveLength(2);
    expect(published[0]).toMatchObject({ channels: ['photos-demo-city-run'], event: 'photo-added' });

    const found = (await app.inject(`${base}?bib=1234`)).json();
    expect(found).toHaveLength(1);
    expect((await app.inject(`${base}?q=crowd`)).json()).toHaveLength(1);

    const file = await app.inject(`/api/${found[0].thumbUrl}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.headers['cache-control']).toContain('immutable');
    expect((await sharp(file.rawPayload).metadata()).format).toBe('webp');

    const tag = await app.inject({
      method: 'PATCH',
      url: `${base}/${found[0].id}`,
      headers: who.a,
      payload: { bibs: ['1234', 'f9'] },
    });
    expect(tag.json().bibs).toEqual(['1234', 'F9']);
    expect((await app.inject(`${base}?bib=F9`)).json()).toHaveLength(1);
  });

  it('refuses non-images, oversized files, forged abilities and anonymous uploads', async () => {
    const before = (await app.inject(base)).json().length;
    const upload = async (
      files: { name: string; data: Buffer }[],
      headers: Record<string, string> = who.a,
    ) => {
      const body = multipart(files);
      return app.inject({
        method: 'POST',
        url: base,
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      });
    };
    const notImage = await upload([{ name: '1_evil.jpg', data: Buffer.from('<script>alert(1)</script>') }]);
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().code).toBe('PHOTO_TYPE');
    const big = Buffer.concat([await jpeg(), Buffer.alloc(16 * 1024 * 1024)]);
    const tooLarge = await upload([{ name: 'big.jpg', data: big }]);
    expect(tooLarge.json().code).toBe('PHOTO_TOO_LARGE');
    const broken = await upload([{ name: 'broken.jpg', data: Buffer.from([0xff, 0xd8, 0xff, 0, 1, 2]) }]);
    expect(broken.json().code).toBe('PHOTO_UNREADABLE');
    expect((await upload([{ name: 'a.jpg', data: await jpeg() }], who.b)).statusCode).toBe(403);
    expect((await upload([{ name: 'a.jpg', data: await jpeg() }], {})).statusCode).toBe(401);
    expect((await app.inject(base)).json()).toHaveLength(before);
  });
});
