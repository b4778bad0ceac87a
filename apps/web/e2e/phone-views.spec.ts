import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 19, the live views on a 390×844 phone: the demo's live races (sped up 4×), a tracking card,
 * two followed athletes, the map, favourites and the leaders board.
 */
const PHONE = { width: 390, height: 844 };
const EVENT = '/events/demo-city-run';

let server: RunningServer;
let keys: { bib: string; trackingKey: string }[] = [];
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  // Wait for the demo replay to post reads, then take runners of each race.
  for (let tries = 0; tries < 60; tries++) {
    const hits = (await (
      await fetch(`${server.url}/api/results/contexts/demo-city-run-10k/participants?q=a`)
    ).json()) as { bib: string; trackingKey: string; status: string }[];
    const marathon = (await (
      await fetch(`${server.url}/api/results/contexts/demo-city-run-marathon/participants?q=a`)
    ).json()) as { bib: string; trackingKey: string; status: string }[];
    keys = [hits[0]!, marathon[0]!];
    if (hits.some((h) => h.status !== 'notStarted')) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
});
test.afterAll(async () => server?.stop());
test.use({ viewport: PHONE });

async function scrollWidth(page: Page) {
  return page.evaluate(() => document.scrollingElement!.scrollWidth);
}

for (const lng of ['en', 'fr']) {
  test(`followed athletes and a tracking card fit 390 px, predictions on one line (${lng})`, async ({
    page,
  }) => {
    await page.goto(
      `${server.url}/?lng=${lng}#/genericTracking/${keys[0]!.trackingKey},${keys[1]!.trackingKey}`,
    );
    const cards = page.getByTestId('athlete-card');
    await expect(cards).toHaveCount(2, { timeout: 15_000 });
    await page.waitForTimeout(500);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    // Every prediction of a point ahead is one line (no wrap) and the splits table does not scroll.
    const predictions = page.locator('td.prediction');
    await expect(predictions.first()).toBeVisible();
    const count = await predictions.count();
    for (let k = 0; k < count; k++) {
      const cell = predictions.nth(k);
      const lineHeight = await cell.evaluate(
        (el) => Number.parseFloat(getComputedStyle(el).lineHeight) || 20,
      );
      const box = await cell.boundingBox();
      expect(box!.height).toBeLessThan(lineHeight * 2 + 12);
    }
    for (const region of await page.getByRole('region').all()) {
      const overflow = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow, 'a splits table scrolls sideways').toBeLessThanOrEqual(1);
    }
    // Times of day on a 24-hour clock (the event's zone), never "PM".
    await expect(cards.first()).not.toContainText(/\bPM\b|\bAM\b/);
  });
}

for (const lng of ['en', 'fr'] as const) {
  test(`a live table is the page: ten rows on the first screen, the race's views one tap away (issue 41, ${lng})`, async ({
    page,
  }) => {
    const text = {
      en: { views: 'Views', leaders: 'Leaders', map: 'Course map' },
      fr: { views: 'Vues', leaders: 'Leaders', map: 'Carte du parcours' },
    }[lng];
    await page.goto(`${server.url}/?lng=${lng}#${EVENT}/reportlist/group/city-marathon/report/LIVE1`);
    const table = page.getByTestId('report-table');
    await expect(table.locator('[aria-rowindex="2"]')).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('#pre-paint')).toHaveCount(0, { timeout: 15_000 });
    // Rows wholly inside the first screen, the page not scrolled.
    const whole = await table.locator('[role=row][data-index]').evaluateAll((rows) =>
      rows.filter((r) => {
        const box = r.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight;
      }),
    );
    // Between the gun and the first times, the note saying when they come (issue 43) stands above
    // the start list and takes two rows' height: ten rows once times are in, eight before.
    const waiting = await page.getByText(/First times at|Premiers temps/).count();
    expect(whole.length).toBeGreaterThanOrEqual(waiting ? 8 : 10);
    await page.screenshot({
      path: path.resolve(import.meta.dirname, `../../../.tmp/e2e-results/phone-views/live-table-${lng}.png`),
    });
    // The views are folded behind one button; one tap shows them all.
    const views = page.getByRole('button', { name: text.views, exact: true });
    await expect(views).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('link', { name: text.map })).toBeHidden();
    await views.click();
    await expect(views).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('link', { name: text.map })).toBeVisible();
    await page.getByRole('link', { name: text.leaders, exact: true }).click();
    await expect(page).toHaveURL(/\/firstrow\/demo-city-run-marathon\/race\/city-marathon$/);
  });
}

test('the course map has readable labels (≥ 11 px) and markers that do not overlap', async ({ page }) => {
  await page.goto(`${server.url}/?lng=en#/`);
  await page.evaluate(
    (bibs) => localStorage.setItem('favorites:demo-city-run', JSON.stringify(bibs)),
    keys.map((k) => k.bib),
  );
  await page.goto(`${server.url}/?lng=en#${EVENT}/map`);
  const svg = page.getByRole('group', { name: /course/i });
  await expect(svg).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('map-athlete').first()).toBeAttached({ timeout: 15_000 });
  // Measured in one pass, again until it holds: live updates replace markers, and a label taken
  // out of the drawing while it is measured has no box (0). A text box is about 1.15 × its font
  // size: 11 px fonts give boxes of 12.6 px or more.
  const smallest = () =>
    svg.evaluate((el) => {
      const heights = [...el.querySelectorAll('text')]
        .filter((t) => t.textContent?.trim())
        .map((t) => t.getBoundingClientRect().height);
      return heights.length ? Math.min(...heights) : 0;
    });
  await expect.poll(smallest, { timeout: 10_000 }).toBeGreaterThanOrEqual(12.5);
  const circles = await page
    .getByTestId('map-athlete')
    .locator('circle:not([data-hit-area])')
    .evaluateAll((cs) =>
      cs.map((c) => {
        const r = c.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2, r: r.width / 2 };
      }),
    );
  for (let a = 0; a < circles.length; a++)
    for (let b = a + 1; b < circles.length; b++) {
      const d = Math.hypot(circles[a]!.x - circles[b]!.x, circles[a]!.y - circles[b]!.y);
      expect(d, 'two runner markers overlap').toBeGreaterThanOrEqual(circles[a]!.r);
    }
  expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
});

test('favourites show their times with no blank area under them', async ({ page }) => {
  await page.goto(`${server.url}/?lng=en#/`);
  await page.evaluate(
    (bibs) => localStorage.setItem('favorites:demo-city-run', JSON.stringify(bibs)),
    keys.map((k) => k.bib),
  );
  await page.goto(`${server.url}/?lng=en#${EVENT}/favorites`);
  const tables = page.getByTestId('report-table');
  await expect(tables.first()).toBeVisible({ timeout: 15_000 });
  for (const table of await tables.all()) {
    const rows = table.locator('[role=row]');
    await expect(rows.nth(1)).toBeVisible();
    const tableBox = (await table.boundingBox())!;
    const lastRow = (await rows.last().boundingBox())!;
    // The table ends with its last row (a few pixels of border), not 300 px further down.
    expect(tableBox.y + tableBox.height - (lastRow.y + lastRow.height)).toBeLessThan(8);
  }
  expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
});

test('leaders board: a gap shown is the difference of the times shown', async ({ page }) => {
  await page.goto(`${server.url}/?lng=fr#/firstrow/demo-city-run-10k/race/city-10k`);
  const first = page.getByRole('table').first();
  await expect(first.getByRole('row').nth(1)).toBeVisible({ timeout: 15_000 });
  const seconds = (text: string) => text.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
  for (const table of await page.getByRole('table').all()) {
    const rows = await table.getByRole('row').all();
    if (rows.length < 2) continue;
    const cells = async (row: (typeof rows)[number]) => row.getByRole('cell').allInnerTexts();
    const leader = seconds((await cells(rows[0]!))[2]!.trim());
    for (const row of rows.slice(1)) {
      const [, , time = '', gap = ''] = await cells(row);
      const shown = seconds(time.trim());
      const expected = shown - leader;
      if (expected === 0) expect(gap.trim()).toBe('');
      else {
        // One gap format (issue 27): signed, always with minutes (+0:21).
        expect(gap.trim()).toMatch(/^\+\d+:\d\d(:\d\d)?$/);
        expect(seconds(gap.trim().replace(/^\+/, ''))).toBe(expected);
      }
    }
  }
  expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
});
