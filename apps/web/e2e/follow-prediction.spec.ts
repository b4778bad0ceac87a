import { expect, type Page, test } from '@playwright/test';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 27, on rendered pages (phone 390 px and desktop 1280 px, English and French): one follow
 * list — Follow on the card puts the runner in Favourites with the table's star on, and unstarring
 * there leaves the card not followed; the card's predicted finish shows its 80 % interval.
 */
let server: RunningServer;
let runner = { bib: '', trackingKey: '' };
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startServer({ DEMO_SPEED: '2' });
  // A runner of the 10 km on course with a split of their own (a prediction with its interval).
  for (let tries = 0; tries < 120 && !runner.bib; tries++) {
    const hits = (await (
      await fetch(`${server.url}/api/results/contexts/demo-city-run-10k/participants?q=1`)
    ).json()) as { bib: string; status: string; trackingKey: string }[];
    for (const hit of Array.isArray(hits) ? hits.filter((h) => h.status === 'onCourse').reverse() : []) {
      const card = (await (await fetch(`${server.url}/api/tracking/${hit.trackingKey}`)).json()) as {
        prediction: { finishRangeNetMs?: unknown } | null;
      };
      if (card.prediction?.finishRangeNetMs) {
        runner = hit;
        break;
      }
    }
    if (!runner.bib) await new Promise((r) => setTimeout(r, 1000));
  }
});
test.afterAll(async () => server?.stop());

const FOLLOW = { en: /^Follow /, fr: /^Suivre / } as const;
const RANGE = {
  en: /\d:\d\d–\d+:\d\d, 80% likely/,
  fr: /\d:\d\d–\d+:\d\d, probable à 80\u00a0%/,
} as const;

async function card(page: Page, lng: 'en' | 'fr') {
  await page.goto(`${server.url}/?lng=${lng}#/tracking/${runner.trackingKey}`);
  await expect(page.getByTestId('athlete-card')).toBeVisible({ timeout: 20_000 });
}

for (const width of [390, 1280]) {
  for (const lng of ['en', 'fr'] as const) {
    test(`one follow list and a prediction with its interval, ${width} px, ${lng}`, async ({ page }) => {
      expect(runner.bib).not.toBe('');
      await page.setViewportSize({ width, height: 900 });
      await card(page, lng);
      await expect(page.getByTestId('athlete-card')).toContainText(RANGE[lng]);
      await page.screenshot({ path: `/tmp/spec2-card-${width}-${lng}.png` });
      const follow = page.getByTestId('athlete-card').locator('button[aria-pressed]').first();
      await expect(follow).toHaveAttribute('aria-pressed', 'false');
      await follow.click();
      await expect(follow).toHaveAttribute('aria-pressed', 'true');

      // Favourites: the runner is there, the star on.
      await page.goto(`${server.url}/?lng=${lng}#/events/demo-city-run/favorites`);
      const star = page.locator('button.rt-star[aria-pressed="true"]').first();
      await expect(star).toBeVisible({ timeout: 20_000 });
      await expect(page.getByTestId('report-table').first()).toContainText(runner.bib);
      await page.screenshot({ path: `/tmp/spec2-favourites-${width}-${lng}.png` });
      // Unstar in the table: the card is no longer followed.
      await star.click();
      await card(page, lng);
      await expect(page.getByRole('button', { name: FOLLOW[lng] })).toHaveAttribute('aria-pressed', 'false');
    });
  }
}
