import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 19, a spectator on a 390×844 phone. A server of its own: platform staff import the real
 * Boston 2017 list (26,410 runners) into the demo event through the organiser API, as an
 * organiser would, and add an individual-start race (so the time-trial board is linked).
 */
const PHONE = { width: 390, height: 844 };
const STAFF = 'staff@example.org';
const BOSTON = path.resolve(import.meta.dirname, '../../../fixtures/boston-2017.csv');
const EVENT = '/events/demo-city-run';

let server: RunningServer;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF });
  const token = await verifiedAccount(server, STAFF, 'a long staff password');
  const imported = await fetch(
    `${server.url}/api/results/contexts/demo-city-run-10k/import/boston?race=boston&name=Boston%20Marathon%202017&date=2017-04-17&gun=2017-04-17T10:00:00-04:00`,
    {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}` },
      body: fs.readFileSync(BOSTON, 'utf8'),
    },
  );
  expect(imported.status).toBe(201);
  // The Boston table is built on its first read (26,410 rows): on a loaded 2-core CI machine that
  // took longer than the first journey's 30 s wait for its rows, twice (2026-12-05, then the
  // retry's server did it again), and the pages after it waited behind it. Read once here, the
  // journeys time the page, not the build.
  const warm = await fetch(
    `${server.url}/api/results/demo-city-run/groups/boston/reports/LIVE1?offset=0&limit=1`,
  );
  expect(warm.status).toBe(200);
  await post(
    server,
    '/api/results/contexts/demo-city-run-10k/races',
    {
      id: 'e2e-tt',
      name: 'Time trial',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 5000,
      startType: 'individual',
      gunTimeMs: Date.now() - 60_000,
      points: [{ key: 'finish', name: 'Finish', distanceM: 5000 }],
    },
    token,
  );
});
test.afterAll(async () => server?.stop());
test.use({ viewport: PHONE });

/** Neither the document nor the page's main region scrolls sideways. */
async function expectNoSideScroll(page: Page, where: string) {
  const widths = await page.evaluate(() => ({
    doc: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
    inner: window.innerWidth,
  }));
  expect(Math.max(widths.doc, widths.body), `${where} is wider than the phone`).toBeLessThanOrEqual(
    widths.inner,
  );
}

test('the Boston overall table shows rank, name and time of its first rows on a phone', async ({ page }) => {
  await page.goto(`${server.url}/?lng=en#${EVENT}/reportlist/group/boston/report/LIVE1`);
  const table = page.getByTestId('report-table');
  const first = table.locator('[role=row][aria-rowindex="2"]');
  await expect(first).toBeVisible({ timeout: 30_000 });
  // Every row is counted (progressive loading shows the first page first).
  await expect(table).toHaveAttribute('aria-rowcount', '26411', { timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: '26,410 runners' })).toBeVisible();
  for (const index of [2, 3, 4]) {
    const row = table.locator(`[role=row][aria-rowindex="${index}"]`);
    const cells = row.getByRole('cell');
    const texts = await cells.allInnerTexts();
    // Star, rank, name (with bib and category beneath), time, details.
    expect(texts[1]).toBe(String(index - 1));
    expect(texts[2]).toMatch(/[A-Z]{2,}/);
    expect(texts[2]).toMatch(/\d+ · M18–34|\d+ · [MF]/);
    expect(texts[3]).toMatch(/^\d:\d\d:\d\d$/);
    for (const k of [1, 2, 3]) {
      const box = await cells.nth(k).boundingBox();
      expect(box, `cell ${k} of row ${index}`).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
    }
  }
  // The other columns open with the row.
  await first.getByRole('button', { name: /More about/ }).click();
  const details = first.locator('.rt-details');
  await expect(details.getByText('Gap')).toBeVisible();
  await expect(details.getByText('Pace')).toBeVisible();
  await expectNoSideScroll(page, 'the Boston table');
  // The title names the event, the race and the report, in the tab too.
  await expect(page).toHaveTitle(/Demo City Run · .*Overall/);
  // Search covers the whole table, not only its first page.
  await page.getByLabel('Search').fill('26000');
  await expect(table.locator('[role=row][aria-rowindex="2"]')).toHaveAttribute('data-key', /^26000/);
});

/** The public pages of the demo (and the imported race). */
const publicPages = [
  '/',
  `${EVENT}/home`,
  `${EVENT}/reportlist`,
  `${EVENT}/reportlist/group/city-10k/report/LIVE1`,
  `${EVENT}/reportlist/group/city-marathon/report/LIVE1`,
  `${EVENT}/tracking`,
  `${EVENT}/map`,
  `${EVENT}/favorites`,
  `${EVENT}/contact`,
  `${EVENT}/ctx/demo-city-run-10k/generic/live/stats/city-10k`,
  `${EVENT}/ctx/demo-city-run-10k/generic/live/scroller/LIVE1/10/8`,
  '/firstrow/demo-city-run-10k/race/city-10k',
  '/live/clm/demo-city-run-10k/e2e-tt',
  '/misc/crac/demo-challenge',
  '/results/demo-city-run/youtube',
  '/photobox?event=demo-city-run',
  '/tracking',
  '/genericTracking',
  '/events/no-such-event/home',
];

test('no public page is wider than a phone', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${server.url}/?lng=en#/`);
  // A followed athlete, so the followed page shows a card.
  for (const where of publicPages) {
    await page.goto(`${server.url}/?lng=en#${where}`);
    await expect(page.getByRole('heading', { level: 1 }).first(), where).toBeVisible({ timeout: 15_000 });
    await page.waitForTimeout(300);
    await expectNoSideScroll(page, where);
  }
});

test('every view is reached by clicking from the event home', async ({ page }) => {
  test.setTimeout(120_000);
  const home = `${server.url}/?lng=en#${EVENT}/home`;
  const views: [RegExp, RegExp, RegExp][] = [
    // link name, URL reached, heading shown
    [/^Favourites/, /\/favorites$/, /Favourites/],
    [/^Leaders$/, /\/firstrow\/demo-city-run-10k\/race\/city-10k$/, /Leaders/],
    [/^Statistics$/, /\/generic\/live\/stats\/city-10k$/, /Statistics/],
    [/^Big-screen scroller$/, /\/generic\/live\/scroller\/LIVE1\/10\/8$/, /./],
    [/^Time-trial board$/, /\/live\/clm\/demo-city-run-10k\/e2e-tt$/, /Time trial/],
    [/^Series:/, /\/misc\/crac\/demo-challenge$/, /./],
    // No Photos tile: the demo has no photos (issue 27: no tile with nothing behind it).
    [/^Course map$/, /\/map$/, /Course map/],
    [/^Results$/, /\/reportlist$/, /Results/],
  ];
  for (const [name, url, heading] of views) {
    await page.goto(home);
    // Race views from the 10 km's row; event-wide links (favourites, series, photos…) once each.
    const tenK = page.getByRole('list', { name: 'Live views of 10 km' });
    const scope = (await tenK.getByRole('link', { name }).count()) ? tenK : page;
    await scope.getByRole('link', { name }).first().click();
    await expect(page, String(name)).toHaveURL(url);
    await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(heading, { timeout: 15_000 });
  }
  // From a report page too: its race's views are one tap away (folded behind one button, issue 41).
  await page.goto(`${server.url}/?lng=en#${EVENT}/reportlist/group/city-10k/report/LIVE1`);
  await page.getByRole('button', { name: 'Views', exact: true }).click();
  await page.getByRole('link', { name: /^Leaders$/ }).click();
  await expect(page).toHaveURL(/\/firstrow\/demo-city-run-10k\/race\/city-10k$/);
  // The tracking search has a way home.
  await page.goto(`${server.url}/?lng=en#/tracking`);
  await page.getByTestId('page-top-bar').click();
  await expect(page).toHaveURL(/#\/$/);
});
