import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatTimeOfDay } from '@tempora/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.ts';
import { BOSTON_TIME_ZONE, seedBoston } from './demo-races.ts';

const FIXTURE = new URL('../../../../fixtures/boston-2017.csv', import.meta.url);

/** Issue 27: the Boston Marathon's times of day are Boston's, not Brussels'. */
describe('the Boston seed runs on Boston’s clock', () => {
  let app: FastifyInstance;
  let file: string;
  beforeAll(async () => {
    app = await buildTestApp();
    // The first 300 finishers are enough for a race.
    const lines = fs.readFileSync(FIXTURE, 'utf8').split('\n').slice(0, 301);
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'boston-zone-')), 'boston.csv');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
  });
  afterAll(() => app.close());

  it('seeds the event in America/New_York: a card says 12:09, not 18:09', async () => {
    expect(await seedBoston(app.database, file)).toBe(true);
    const [event] = await app.database.query<{ tz: string }>(
      "SELECT time_zone AS tz FROM events WHERE id = 'boston-2017'",
    );
    expect(event!.tz).toBe(BOSTON_TIME_ZONE);
    const hits = (await app.inject('/api/results/contexts/boston-2017/participants?q=1')).json() as {
      trackingKey: string;
    }[];
    const card = (await app.inject(`/api/tracking/${hits[0]!.trackingKey}`)).json();
    expect(card.timeZone).toBe('America/New_York');
    const finish = card.splits.at(-1).timeOfDay as number;
    // The elite men finished a little after noon in Boston (gun 10:00 EDT).
    expect(formatTimeOfDay(finish, card.timeZone)).toMatch(/^12:/);
  });

  it('puts an event seeded earlier in Brussels time on Boston’s clock at the next start', async () => {
    await app.database.query("UPDATE events SET time_zone = 'Europe/Brussels' WHERE id = 'boston-2017'");
    await seedBoston(app.database, file);
    const [event] = await app.database.query<{ tz: string }>(
      "SELECT time_zone AS tz FROM events WHERE id = 'boston-2017'",
    );
    expect(event!.tz).toBe(BOSTON_TIME_ZONE);
  });
});
