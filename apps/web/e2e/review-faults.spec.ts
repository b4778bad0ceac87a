import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, test } from '@playwright/test';
import { deviceKey, ingest, post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 43, "a review that catches what a timer would", on rendered pages: a 10 km seeded with one
 * fault of each kind the issue lists; the console's "Review before publishing" lists each of them
 * (desktop in English, phone in French) with its one-click fix, and a fix clicked clears its
 * fault. Screenshots in .tmp/official-shots.
 */
let server: RunningServer;
const STAFF = 'reviewer43@example.org';
const PASSWORD = 'a long reviewer password';
const DB = 'demo-city-run-10k';
const RACE = 'e2e-review';
const SHOTS = path.resolve(import.meta.dirname, '../../../.tmp/official-shots');
let token = '';

// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take a destructured first argument.
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000) + 60_000);
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF, DEMO_REPLAY: 'false', SEED_BOSTON: 'false' });
  token = await verifiedAccount(server, STAFF, PASSWORD, true);
  fs.mkdirSync(SHOTS, { recursive: true });
});
test.afterAll(async () => server?.stop());

async function reviewPage(browser: Browser, lng: 'en' | 'fr', viewport: { width: number; height: number }) {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(`${server.url}/?lng=${lng}#/login`);
  await page.getByLabel('E-mail').fill(STAFF);
  await page.locator('input[type="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/#\/$/);
  await page.goto(`${server.url}/?lng=${lng}#/console/events/demo-city-run/races/${RACE}`);
  return page;
}

test('the review lists one fault of each kind with its fix, in both languages, and a fix clears its fault', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const gun = Date.now() - 3 * 3_600_000;
  await post(
    server,
    `/api/results/contexts/${DB}/races`,
    {
      id: RACE,
      name: 'Review 10 km',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 10_000,
      startType: 'mass',
      gunTimeMs: gun,
      points: [
        { key: 'r5', name: '5 km', distanceM: 5000 },
        { key: 'rfin', name: 'Finish', distanceM: 10_000 },
      ],
    },
    token,
  );
  await post(
    server,
    `/api/results/contexts/${DB}/races`,
    {
      id: 'e2e-review-5k',
      name: 'Review 5 km',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 5000,
      startType: 'mass',
      gunTimeMs: gun,
      points: [{ key: 'r2', name: '2 km', distanceM: 2000 }],
    },
    token,
  );
  const bibs = ['R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8', 'R9', 'R10', 'R11'];
  await post(
    server,
    `/api/results/contexts/${DB}/races/${RACE}/participants`,
    {
      participants: bibs.map((bib) => ({
        bib,
        firstName: 'Runner',
        lastName: bib,
        gender: 'M',
        ...(bib === 'R9' || bib === 'R10' ? { chips: ['RC9'] } : {}),
      })),
    },
    token,
  );
  const read = (bib: string, point: string, minutes: number) => ({
    id: `${bib}-${point}`,
    bib,
    point,
    time: gun + Math.round(minutes * 60_000),
  });
  const both = (bib: string, k5: number, fin: number) => [read(bib, 'r5', k5), read(bib, 'rfin', fin)];
  await post(
    server,
    `/api/results/contexts/${DB}/passings`,
    {
      passings: [
        ...both('R1', 19, 38),
        ...both('R2', 20, 40),
        ...both('R3', 21, 826.7), // 13:46:42 for 10 km
        ...both('R4', 12.5, 25), // far ahead of everyone
        read('R6', 'r5', 22), // never finished
        read('R7', 'rfin', 42), // no 5 km read
        read('R8', 'r5', -1), // before the gun
        read('R8', 'rfin', 41),
        ...both('R9', 20.5, 41.5),
        ...both('R10', 21.5, 43.5),
        ...both('R11', 19.5, 39),
        read('R11', 'r2', 8), // on the 5 km's course
        read('99', 'rfin', 44), // nobody's bib
      ],
    },
    token,
  );
  const key = await deviceKey(server, token, DB, 'review 5 km mat', 'r5');
  expect(await ingest(server, key, [{ chip: 'RC9', time: gun + 20.7 * 60_000 }])).toBe(200);

  // Desktop, English: every fault, each with its fix.
  const desk = await reviewPage(browser, 'en', { width: 1280, height: 900 });
  const list = desk.getByRole('list', { name: 'Anomalies' });
  await expect(list.getByRole('listitem')).toHaveCount(9, { timeout: 20_000 });
  for (const text of [
    '#R3 — finish at Finish slower than the field makes plausible',
    '#R4 — finish at Finish far ahead of every other runner',
    '#R5 — entered but never read: did not start?',
    '#R6 — started but never finished: did not finish?',
    '#R7 — no read at 5 km',
    '#R8 — read at 5 km before the start',
    'chip read at 5 km is carried by two runners',
    "#R11 — read at 2 km, a point of another race's course",
    "#99 (nobody's) — read at Finish of a bib or chip nobody has",
  ])
    await expect(list).toContainText(text);
  await list.scrollIntoViewIfNeeded();
  await desk.screenshot({ path: path.join(SHOTS, 'review-desktop-en.png'), fullPage: false });
  // One click: R5 marked DNS, its fault gone, the others still there.
  const r5 = list.getByRole('listitem').filter({ hasText: '#R5' });
  await r5.getByRole('button', { name: 'Mark DNS' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(8);
  await expect(list).not.toContainText('#R5');
  // Another: nobody's read voided.
  const unknown = list.getByRole('listitem').filter({ hasText: '#99' });
  await unknown.getByRole('button', { name: /^Void the read at Finish/ }).click();
  await expect(list.getByRole('listitem')).toHaveCount(7);
  // And R7's missing 5 km read, estimated from the gun and the finish by distance.
  const r7 = list.getByRole('listitem').filter({ hasText: '#R7' });
  await r7.getByRole('button', { name: /^Add the read at 5 km/ }).click();
  await expect(list.getByRole('listitem')).toHaveCount(6);

  // Phone, French: the same review in French, inside the phone's width.
  const phone = await reviewPage(browser, 'fr', { width: 390, height: 844 });
  const liste = phone.getByRole('list', { name: 'Anomalies' });
  await expect(liste.getByRole('listitem')).toHaveCount(6, { timeout: 20_000 });
  await expect(liste).toContainText('#R6 — parti mais jamais arrivé : abandon ?');
  await expect(liste).toContainText('#R8 — lecture à 5 km avant le départ');
  await expect(liste).toContainText('arrivée à Finish plus lente que ce que le peloton rend plausible');
  const r6 = liste.getByRole('listitem').filter({ hasText: '#R6' });
  await r6.scrollIntoViewIfNeeded();
  await phone.screenshot({ path: path.join(SHOTS, 'review-phone-fr.png'), fullPage: false });
  const box = await liste.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await r6.getByRole('button', { name: 'Déclarer l’abandon (DNF)' }).click();
  await expect(liste.getByRole('listitem')).toHaveCount(5);
  await expect(liste).not.toContainText('#R6');
});

test('a road race’s cut-off is a race setting: the review flags a finish slower than it (desktop en, phone fr)', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const CUT = 'e2e-cutoff';
  const gun = Date.now() - 3 * 3_600_000;
  await post(
    server,
    `/api/results/contexts/${DB}/races`,
    {
      id: CUT,
      name: 'Cut-off 10 km',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 10_000,
      startType: 'mass',
      gunTimeMs: gun,
      points: [{ key: 'cfin', name: 'Finish', distanceM: 10_000 }],
    },
    token,
  );
  const bibs = ['K1', 'K2', 'K3', 'K4'];
  await post(
    server,
    `/api/results/contexts/${DB}/races/${CUT}/participants`,
    { participants: bibs.map((bib) => ({ bib, firstName: 'Runner', lastName: bib, gender: 'F' })) },
    token,
  );
  // 40, 42, 44 and 75 minutes: K4 is under three times the median, over a 70-minute cut-off.
  await post(
    server,
    `/api/results/contexts/${DB}/passings`,
    {
      passings: [40, 42, 44, 75].map((m, k) => ({
        id: `cut-${k}`,
        bib: bibs[k],
        point: 'cfin',
        time: gun + m * 60_000,
      })),
    },
    token,
  );
  const open = async (lng: 'en' | 'fr', viewport: { width: number; height: number }) => {
    const page = await (await browser.newContext({ viewport })).newPage();
    await page.goto(`${server.url}/?lng=${lng}#/login`);
    await page.getByLabel('E-mail').fill(STAFF);
    await page.locator('input[type="password"]').fill(PASSWORD);
    await page.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/#\/$/);
    await page.goto(`${server.url}/?lng=${lng}#/console/events/demo-city-run/races/${CUT}#race-format`);
    return page;
  };

  // Desktop, English: no cut-off, nothing slow (75 min is under 3 × the median); a cut-off set
  // in the race's format, K4 listed as slower than it.
  const desk = await open('en', { width: 1280, height: 900 });
  await expect(desk.getByText("No anomalies: every runner's reads look plausible.")).toBeVisible({
    timeout: 20_000,
  });
  const form = desk.getByRole('form', { name: 'Race format' });
  const cutoff = form.getByRole('textbox', { name: 'Cut-off', exact: true });
  await expect(cutoff).toHaveValue('');
  await cutoff.fill('70');
  await form.getByRole('button', { name: 'Save the format' }).click();
  const list = desk.getByRole('list', { name: 'Anomalies' });
  await expect(list.getByRole('listitem')).toHaveCount(1, { timeout: 20_000 });
  await expect(list).toContainText("#K4 — finish at Finish slower than the race's cut-off (1:10:00)");
  await form.scrollIntoViewIfNeeded();
  await desk.screenshot({ path: path.join(SHOTS, 'cutoff-desktop-en.png'), fullPage: false });
  await list.scrollIntoViewIfNeeded();
  await desk.screenshot({ path: path.join(SHOTS, 'cutoff-review-desktop-en.png'), fullPage: false });

  // Phone, French: the cut-off kept, the same finish flagged in French, within the phone's width.
  const phone = await open('fr', { width: 390, height: 844 });
  const formulaire = phone.getByRole('form', { name: 'Format de la course' });
  await expect(formulaire.getByRole('textbox', { name: 'Barrière horaire', exact: true })).toHaveValue('70', {
    timeout: 20_000,
  });
  const liste = phone.getByRole('list', { name: 'Anomalies' });
  await expect(liste.getByRole('listitem')).toHaveCount(1, { timeout: 20_000 });
  await expect(liste).toContainText(
    '#K4 — arrivée à Finish plus lente que la barrière horaire de la course (1:10:00)',
  );
  await liste.scrollIntoViewIfNeeded();
  await phone.screenshot({ path: path.join(SHOTS, 'cutoff-review-phone-fr.png'), fullPage: false });
  const box = await liste.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
});
