import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers.ts';
import { existingFacts, findUpload, insertUpload } from './repository.ts';

describe('import uploads stored and read in pieces (the server keeps answering)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('gives back a file of several pieces byte for byte', async () => {
    for (const size of [0, 1, 256 * 1024, 700_001]) {
      const data = crypto.randomBytes(size);
      const id = await insertUpload(app.database, {
        eventId: 'demo-city-run',
        fileName: 'x.csv',
        format: 'csv',
        data,
        createdBy: null,
      });
      const found = await findUpload(app.database, 'demo-city-run', id);
      expect(found?.data.equals(data), `${size} bytes`).toBe(true);
      expect(await findUpload(app.database, 'another-event', id)).toBeNull();
      const [stored] = await app.database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM import_upload_pieces WHERE upload_id = $1',
        [id],
      );
      expect(stored!.n, `${size} bytes`).toBe(Math.ceil(size / (256 * 1024)));
    }
  });

  it('still reads a file stored in one piece before migration 0031', async () => {
    const data = crypto.randomBytes(600_000);
    const [row] = await app.database.query<{ id: string }>(
      `INSERT INTO import_uploads (event_id, file_name, format, data) VALUES ('demo-city-run', 'old.csv', 'csv', $1)
       RETURNING id`,
      [data],
    );
    const found = await findUpload(app.database, 'demo-city-run', row!.id);
    expect(found?.data.equals(data)).toBe(true);
  });

  it('reads every participant of the event a page at a time, the race’s bibs among them', async () => {
    const facts = await existingFacts(app.database, 'demo-city-run', 'city-10k');
    const [counts] = await app.database.query<{ people: number; bibs: number }>(
      `SELECT count(*)::int AS people, count(*) FILTER (WHERE p.race_id = 'city-10k' AND p.bib IS NOT NULL)::int AS bibs
         FROM participants p JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
        WHERE c.event_id = 'demo-city-run' AND p.deleted_at IS NULL`,
    );
    const { people, bibs } = counts!;
    expect(people).toBeGreaterThan(2_000); // several pages
    expect(facts.people).toHaveLength(people);
    expect(facts.bibs).toHaveLength(bibs);
    expect(new Set(facts.bibs.map((b) => b.bib)).size).toBe(bibs);
  });
});
