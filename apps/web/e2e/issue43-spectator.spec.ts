import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 43, what a spectator reads, on rendered pages at 390 and 1280 px in English and French:
 * a finisher's card starts with the summary and the certificate (which downloads), times of day
 * name their zone, the category's gap says from whom; the leaders board shows the front of the
 * race first and keeps the event in its breadcrumbs; counts say runners; a gap says where it was
 * measured; Diagnostics is not in a visitor's menu.
 */
const EVENT = 'demo-city-run';
const TEN_K = { db: 'demo-city-run-10k', race: 'city-10k' };
const MARATHON = { db: 'demo-city-run-marathon', race: 'city-marathon' };
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;
const SHOTS = path.resolve(import.meta.dirname, '../../../.tmp/issue43');
const W = {
  en: {
    time: 'Finish time',
    overall: 'Overall',
    cert: 'Finisher certificate (PDF)',
    leaders: 'Leaders board',
    finish: 'Finish',
    runners: /^[\d,]+ runners?$/,
    menu: 'Open the menu',
    behind: 'behind 1st',
  },
  fr: {
    time: 'Temps à l’arrivée',
    overall: 'Général',
    cert: 'Diplôme de finisher (PDF)',
    leaders: 'Classement de tête',
    finish: 'Arrivée',
    runners: /^[\d\s\u202f]+ coureurs?$/,
    menu: 'Ouvrir le menu',
    behind: 'sur la tête des',
  },
} as const;

let server: RunningServer;
let finisherKey = '';
test.beforeAll(async () => {
  test.setTimeout(240_000);
  // 20× faster: the 10 km (gun 3 wall minutes ago) has finishers, the marathon runners on course.
  server = await startServer({ DEMO_SPEED: '20' });
  for (let tries = 0; tries < 120 && !finisherKey; tries++) {
    const board = (await (
      await fetch(`${server.url}/api/results/contexts/${TEN_K.db}/races/${TEN_K.race}/leaders?count=10`)
    ).json()) as { points: { key: string; rows: { trackingKey: string }[] }[] };
    // A finisher with a category gap (not the category's first): the 5th across the line.
    finisherKey = board.points.find((p) => p.key === 'finish')?.rows[4]?.trackingKey ?? '';
    if (!finisherKey) await new Promise((r) => setTimeout(r, 1000));
  }
  expect(finisherKey).not.toBe('');
});
test.afterAll(async () => server?.stop());

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Whether the element is entirely inside the first screen. */
async function onFirstScreen(page: Page, testId: string) {
  const box = await page.getByTestId(testId).boundingBox();
  const viewport = page.viewportSize()!;
  return !!box && box.y >= 0 && box.y + box.height <= viewport.height;
}

for (const [size, viewport] of Object.entries(SIZES)) {
  for (const lng of ['en', 'fr'] as const) {
    const w = W[lng];
    test(`${size} ${lng}: a finisher's card starts with the summary and the certificate downloads`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/?lng=${lng}#/events/${EVENT}/tracking/${finisherKey}`);
      const summary = page.getByTestId('finish-summary');
      await expect(summary).toBeVisible({ timeout: 20_000 });
      await expect(summary).toContainText(w.time);
      await expect(summary.getByTestId('finish-time')).toHaveText(/^\d{1,2}:\d\d(:\d\d)?$/);
      await expect(summary.getByTestId('finish-place').first()).toContainText(w.overall);
      await expect(summary.getByTestId('finish-pace')).toContainText('/km');
      // The summary and its certificate button are on the first screen, phone included.
      expect(await onFirstScreen(page, 'finish-summary')).toBe(true);
      expect(await onFirstScreen(page, 'certificate-button')).toBe(true);
      // Times of day name the event's zone (Brussels: CET in English, UTC+1 in French, or summer's).
      await expect(page.getByTestId('athlete-card')).toContainText(
        lng === 'en' ? /\d\d:\d\d:\d\d CES?T\)/ : /\d\d:\d\d:\d\d UTC\+[12]\)/,
      );
      // The category's gap says from whom.
      await expect(page.locator('.cat-gap').first()).toContainText(w.behind);
      await shot(page, `card-${size}-${lng}`);
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: w.cert }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.pdf$/);
      const saved = await file.path();
      expect(fs.readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');
    });

    test(`${size} ${lng}: the leaders board shows the front first and keeps the event`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/?lng=${lng}#/firstrow/${TEN_K.db}/race/${TEN_K.race}`);
      const first = page.locator('main h2').first();
      await expect(first).toHaveText(w.finish, { timeout: 20_000 });
      const crumbs = page.getByRole('navigation', { name: /Breadcrumbs|Fil d/ });
      await expect(crumbs.getByRole('link', { name: 'Demo City Run' })).toBeVisible();
      await shot(page, `leaders-${size}-${lng}`);
      // The results list keeps the event too.
      await page.goto(`${server.url}/?lng=${lng}#/events/${EVENT}/reportlist`);
      await expect(crumbs.getByRole('link', { name: 'Demo City Run' })).toBeVisible({ timeout: 20_000 });
    });

    test(`${size} ${lng}: counts say runners and a gap says where it was measured`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(
        `${server.url}/?lng=${lng}#/events/${EVENT}/reportlist/group/${MARATHON.race}/report/LIVE1`,
      );
      const table = page.getByTestId('report-table');
      await expect(table.locator('[aria-rowindex="2"]')).toBeVisible({ timeout: 20_000 });
      await expect(page.getByRole('status').filter({ hasText: w.runners })).toBeVisible();
      await expect(page.getByText(/\b(rows?|lignes?)\b/)).toHaveCount(0);
      if (size === 'desktop') {
        // Runners on course: every gap shown names its point, as the time beside it does.
        await expect
          .poll(async () => table.locator('[role=cell] .rt-at').count(), { timeout: 30_000 })
          .toBeGreaterThan(1);
        const heads = (await table.getByRole('columnheader').allInnerTexts()).map((h) => h.trim());
        const gap = heads.indexOf(lng === 'en' ? 'Gap' : 'Écart');
        expect(gap).toBeGreaterThan(0);
        const gaps = table.locator(`[role=row] [role=cell]:nth-child(${gap + 1})`);
        let named = 0;
        for (const text of await gaps.allInnerTexts()) {
          if (!text.trim()) continue;
          expect(text).toMatch(/^\+\d+:\d\d(:\d\d)?\s*(·\s*)?\S.*(km|Arrivée|Finish)/s);
          named++;
        }
        expect(named).toBeGreaterThan(0);
      }
      await shot(page, `marathon-${size}-${lng}`);
    });

    test(`${size} ${lng}: Diagnostics is not in a visitor's menu`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/?lng=${lng}#/events/${EVENT}/home`);
      if (size === 'phone') await page.getByRole('button', { name: w.menu }).click();
      const nav = page.getByTestId('nav-drawer');
      await expect(nav.getByRole('link').first()).toBeAttached({ timeout: 20_000 });
      await expect(nav.getByRole('link', { name: /Diagnostic/ })).toHaveCount(0);
    });
  }
}
