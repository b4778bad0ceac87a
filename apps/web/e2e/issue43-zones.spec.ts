import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 43, on rendered pages at 390 and 1280 px in English and French: the event home says every
 * race alike (its name, then its distance in the event's unit); a live race's map before its first
 * split says when it started and when the first times come; the times of day still shown in the
 * browser's zone or unnamed — a protest window's end (report, laps and legs pages), the lap and
 * leg cut-offs, a time trial's start times — are in the event's zone (Brussels) with its name,
 * though the browser is in New York. Screenshots in .tmp/issue43.
 */
const STAFF = 'zones43@example.org';
const PASSWORD = 'a long organiser password';
const EVENT = 'demo-city-run';
const DB = 'demo-city-run-10k';
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;
const SHOTS = path.resolve(import.meta.dirname, '../../../.tmp/issue43');
/** Brussels' zone as each language names it (CET in winter, CEST in summer). */
const ZONE = { en: 'CES?T', fr: 'UTC\\+[12]' } as const;
const clock = (lng: 'en' | 'fr', seconds = false) =>
  new RegExp(`(?<![\\d:])\\d\\d:\\d\\d${seconds ? ':\\d\\d' : ''} ${ZONE[lng]}\\b`);

let server: RunningServer;
let token = '';

async function put(url: string, body: unknown) {
  const res = await fetch(`${server.url}${url}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.text()).toBe(200);
}

async function race(id: string, startType: string, gunTimeMs: number, points: unknown[]) {
  await post(
    server,
    `/api/results/contexts/${DB}/races`,
    {
      id,
      name: id,
      date: new Date().toISOString().slice(0, 10),
      distanceM: 10_000,
      startType,
      gunTimeMs,
      points,
    },
    token,
  );
}

async function runners(raceId: string, bibs: string[], startTime?: (bib: string) => number) {
  await post(
    server,
    `/api/results/contexts/${DB}/races/${raceId}/participants`,
    {
      participants: bibs.map((bib) => ({
        bib,
        firstName: 'Zone',
        lastName: bib,
        gender: 'F',
        ...(startTime ? { startTime: startTime(bib) } : {}),
      })),
    },
    token,
  );
}

async function reads(list: [bib: string, point: string, ms: number][]) {
  await post(
    server,
    `/api/results/contexts/${DB}/passings`,
    { passings: list.map(([bib, point, time], k) => ({ id: `z-${bib}-${point}-${k}`, bib, point, time })) },
    token,
  );
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  // The demo without its replay: the marathon live, its gun gone, nobody timed yet.
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF, DEMO_REPLAY: 'false' });
  token = await verifiedAccount(server, STAFF, PASSWORD, true);
  const gun = Date.now() - 60 * 60_000;
  const min = 60_000;
  // A road race published with a protest window (two hours).
  await race('z-road', 'mass', gun, [{ key: 'zfin', name: 'Finish', distanceM: 10_000 }]);
  await runners('z-road', ['Z1', 'Z2']);
  await reads([
    ['Z1', 'zfin', gun + 40 * min],
    ['Z2', 'zfin', gun + 42 * min],
  ]);
  await put('/api/console/races/z-road/publication', { official: true, protestWindowMinutes: 120 });
  // A lap race: lap 2 by 20 minutes after the gun; ZL2 did one lap only.
  await race('z-laps', 'mass', gun, [{ key: 'zlap', name: 'Lap', distanceM: 1000 }]);
  await put('/api/console/races/z-laps/format', {
    kind: 'laps',
    lapPointKey: 'zlap',
    minLapS: 60,
    targetLaps: 10,
    lapCutoffs: [{ laps: 2, afterGunMinutes: 20, outcome: 'DNF' }],
  });
  await runners('z-laps', ['ZL1', 'ZL2']);
  await reads([
    ['ZL1', 'zlap', gun + 5 * min],
    ['ZL1', 'zlap', gun + 10 * min],
    ['ZL1', 'zlap', gun + 15 * min],
    ['ZL2', 'zlap', gun + 8 * min],
  ]);
  await put('/api/console/races/z-laps/publication', { official: true, protestWindowMinutes: 120 });
  // A relay: the first exchange by 20 minutes after the gun; team ZR2 passed it at 25.
  await race('z-relay', 'mass', gun, [
    { key: 'zx1', name: 'Exchange', distanceM: 5000 },
    { key: 'zx2', name: 'Finish', distanceM: 10_000 },
  ]);
  await put('/api/console/races/z-relay/format', {
    kind: 'relay',
    legs: [
      { pointKey: 'zx1', name: { en: 'Leg 1', fr: 'Relais 1' } },
      { pointKey: 'zx2', name: { en: 'Leg 2', fr: 'Relais 2' } },
    ],
    cutoffs: [{ pointKey: 'zx1', afterGunMinutes: 20, outcome: 'DNF' }],
  });
  await runners('z-relay', ['ZR1', 'ZR2']);
  await reads([
    ['ZR1', 'zx1', gun + 18 * min],
    ['ZR1', 'zx2', gun + 38 * min],
    ['ZR2', 'zx1', gun + 25 * min],
  ]);
  await put('/api/console/races/z-relay/publication', { official: true, protestWindowMinutes: 120 });
  // A time trial: ZT2 starts in 20 minutes.
  const now = Date.now();
  const starts: Record<string, number> = { ZT1: now - 10 * min, ZT2: now + 20 * min };
  await race('z-tt', 'individual', starts.ZT1!, [{ key: 'ztfin', name: 'Finish', distanceM: 10_000 }]);
  await runners('z-tt', ['ZT1', 'ZT2'], (bib) => starts[bib]!);
});
test.afterAll(async () => server?.stop());

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

// The browser in New York: a time shown in the browser's zone would be six hours off Brussels'.
test.use({ timezoneId: 'America/New_York' });

for (const [size, viewport] of Object.entries(SIZES)) {
  for (const lng of ['en', 'fr'] as const) {
    test(`${size} ${lng}: the event home says every race alike, its name then its distance unless the name says it`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/?lng=${lng}#/events/${EVENT}/home`);
      const chips = page.getByTestId('race-chip');
      await expect(chips.first()).toBeVisible({ timeout: 20_000 });
      const texts = await chips.allInnerTexts();
      expect(texts.length).toBeGreaterThan(1);
      // A name that says its distance is not followed by it again ("10 km", not "10 km · 10 km";
      // "Marathon", not "Marathon · 42.195 km"); any other name is followed by its distance.
      for (const text of texts) expect(text).toMatch(/^\S.*( · \d[\d.,]* km)?$/);
      for (const text of texts) expect(text).not.toMatch(/(\d[\d.,]*) ?k(m)? · \1 km$/i);
      expect(texts).toContain('Marathon');
      expect(texts).toContain('10 km');
      expect(texts).not.toContain('10 km · 10 km');
      expect(texts.some((text) => / · \d[\d.,]* km$/.test(text))).toBe(true);
      // The event's date in the page language's format: "5 Dec 2026", "5 déc. 2026" (not "Dec 5, 2026").
      await expect(page.getByText(/^\d{1,2} \S+ \d{4}$/).first()).toBeVisible();
      await shot(page, `race-chips-${size}-${lng}`);
    });

    test(`${size} ${lng}: a live race's map before its first split says when the first times come`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/?lng=${lng}#/events/${EVENT}/map?race=city-marathon`);
      const note = page.getByTestId('map-before-first-times');
      await expect(note).toContainText(
        lng === 'en'
          ? new RegExp(
              `^Started at \\d\\d:\\d\\d ${ZONE.en}\\. First times at 5 km from about \\d\\d:\\d\\d ${ZONE.en}\\. Runners appear on the map from their first time\\.$`,
            )
          : new RegExp(
              `^Parti à \\d\\d:\\d\\d ${ZONE.fr}\\. Premiers temps à 5 km vers \\d\\d:\\d\\d ${ZONE.fr}\\. Les coureurs apparaissent sur la carte dès leur premier temps\\.$`,
            ),
        { timeout: 20_000 },
      );
      // On the map, inside it and inside the screen's width.
      const map = page.getByRole('group', { name: /Course|Parcours/ });
      const [box, mapBox] = [await note.boundingBox(), await map.boundingBox()];
      expect(box!.y).toBeGreaterThanOrEqual(mapBox!.y - 1);
      expect(box!.x + box!.width).toBeLessThanOrEqual(
        Math.min(viewport.width, mapBox!.x + mapBox!.width) + 1,
      );
      await shot(page, `map-before-first-times-${size}-${lng}`);
    });

    test(`${size} ${lng}: protest windows, cut-offs and start times are in the event's zone, named`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      const until = lng === 'en' ? 'protests until' : 'réclamations (possibles )?jusqu';
      // The report's publication chip (drawn first by the pre-paint, then by React).
      await page.goto(`${server.url}/?lng=${lng}#/events/${EVENT}/reportlist/group/z-road/report/LIVE1`);
      const chip = page.getByText(new RegExp(until)).first();
      await expect(chip).toHaveText(clock(lng), { timeout: 20_000 });
      await shot(page, `protest-report-${size}-${lng}`);
      // The lap race: the protest window and the missed lap cut-off.
      await page.goto(`${server.url}/?lng=${lng}#/laps/${DB}/race/z-laps`);
      await expect(page.getByText(new RegExp(until)).first()).toHaveText(clock(lng), { timeout: 20_000 });
      const lapCut = page.getByText(lng === 'en' ? /^Lap 2 not done by the cut-off/ : /^Tour 2 non bouclé/);
      await expect(lapCut).toHaveText(clock(lng));
      await shot(page, `protest-laps-${size}-${lng}`);
      // The relay: the protest window and the missed exchange cut-off.
      await page.goto(`${server.url}/?lng=${lng}#/legs/${DB}/race/z-relay`);
      await expect(page.getByText(new RegExp(until)).first()).toHaveText(clock(lng), { timeout: 20_000 });
      const legCut = page.getByText(lng === 'en' ? /^Past the .* cut-off/ : /^Hors délai à/).first();
      await expect(legCut).toHaveText(clock(lng));
      await shot(page, `protest-legs-${size}-${lng}`);
      // The time trial's next starter: the start time with seconds and the zone.
      await page.goto(`${server.url}/?lng=${lng}#/live/clm/${DB}/z-tt`);
      const next = page.getByRole('table', { name: lng === 'en' ? 'Next starters' : 'Prochains départs' });
      await expect(next).toContainText('ZT2', { timeout: 20_000 });
      const start = next.getByRole('row').filter({ hasText: 'ZT2' }).getByRole('cell').nth(1);
      await expect(start).toHaveText(new RegExp(`^\\d\\d:\\d\\d:\\d\\d ${ZONE[lng]}$`));
      await shot(page, `tt-starts-${size}-${lng}`);
    });
  }
}
