import { expect, type Page, test } from '@playwright/test';
import { deviceKey, ingest, post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 27, the views a shared link opens, at 390 and 1280 px, in English and French:
 * - the time-trial board is reached by clicking from the event page; its standings count every
 *   finisher; no rider's predicted finish is earlier than the time they have ridden;
 * - `/genericTracking` opened from an event's tracking card keeps that event's navigation (the
 *   side menu, the breadcrumbs through the event).
 */
const STAFF = 'staff@example.org';
const DB = 'demo-city-run-10k';
const MIN = 60_000;
const SIZES = [
  ['en', 390],
  ['fr', 390],
  ['en', 1280],
  ['fr', 1280],
] as const;
const WORDS = {
  en: {
    clm: 'Time-trial board',
    standings: 'Standings',
    firstOf: 'The first 10 of 11 finishers.',
    onCourse: 'On course',
    followed: 'Athletes followed',
    tracking: 'Athlete tracking',
    menu: 'Open the menu',
    home: 'Home',
  },
  fr: {
    clm: 'Tableau contre-la-montre',
    standings: 'Classement',
    firstOf: 'Les 10 premiers sur 11 arrivés.',
    onCourse: 'En course',
    followed: 'Athlètes suivis',
    tracking: 'Suivi des athlètes',
    menu: 'Ouvrir le menu',
    home: 'Accueil',
  },
} as const;

let server: RunningServer;
const riders = Array.from({ length: 13 }, (_, k) => `Q${k + 1}`);
test.beforeAll(async () => {
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF });
  const token = await verifiedAccount(server, STAFF, 'a long staff password');
  const now = Date.now();
  // Thirteen riders a minute apart: eleven finished (more than the board's ten), Q12 on course and
  // slower than any prediction from their split (elapsed beyond the predicted finish), Q13 to start.
  const startOf = (k: number) => (k < 12 ? now - (80 - k) * MIN : now + 10 * MIN);
  await post(
    server,
    `/api/results/contexts/${DB}/races`,
    {
      id: 'e2e-clm',
      name: 'Chrono',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 10_000,
      startType: 'individual',
      gunTimeMs: startOf(0),
      points: [
        { key: 'split', name: 'Split 5 km', distanceM: 5000 },
        { key: 'finish', name: 'Finish', distanceM: 10_000 },
      ],
    },
    token,
  );
  await post(
    server,
    `/api/results/contexts/${DB}/races/e2e-clm/participants`,
    {
      participants: riders.map((bib, k) => ({
        bib,
        firstName: `Rider${bib}`,
        lastName: 'Chrono',
        gender: 'M',
        startTime: startOf(k),
      })),
    },
    token,
  );
  const split = await deviceKey(server, token, DB, 'clm split', 'split');
  const finish = await deviceKey(server, token, DB, 'clm finish', 'finish');
  const finishers = riders.slice(0, 11);
  expect(
    await ingest(
      server,
      split,
      riders.slice(0, 12).map((bib, k) => ({ bib, time: startOf(k) + (k === 11 ? 20 : 15) * MIN })),
    ),
  ).toBe(200);
  expect(
    await ingest(
      server,
      finish,
      finishers.map((bib, k) => ({ bib, time: startOf(k) + 30 * MIN + k * 1000 })),
    ),
  ).toBe(200);
});
test.afterAll(async () => server?.stop());

/** A duration as the page writes it (`45:27`, `1:02:03`) in milliseconds. */
const ms = (text: string) =>
  text
    .trim()
    .split(':')
    .reduce((sum, part) => sum * 60 + Number(part), 0) * 1000;

test('the time-trial board: reached by a click, standings counting every finisher, no finish predicted in the past', async ({
  page,
}) => {
  for (const [lng, width] of SIZES) {
    const w = WORDS[lng];
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${server.url}/?lng=${lng}#/events/demo-city-run/home`);
    // Every race with individual starts links its board: the chip of this race (the 10 km's
    // context holds two races; the chip under the Chrono's heading).
    const chip = page.getByRole('link', { name: w.clm });
    await expect(chip).toHaveCount(1);
    await chip.click();
    await expect(page).toHaveURL(/\/live\/clm\/demo-city-run-10k\/e2e-clm$/);

    const standings = page.getByRole('region', { name: new RegExp(`^${w.standings}`) });
    await expect(standings.getByRole('heading')).toHaveText(`${w.standings} (11)`);
    await expect(standings.getByRole('row')).toHaveCount(10);
    await expect(page.getByTestId('clm-standings-more')).toHaveText(w.firstOf);

    const onCourse = page.getByRole('table', { name: w.onCourse });
    const late = onCourse.locator('[data-bib="Q12"]');
    await expect(late).toBeVisible();
    // Read both as the page shows them, twice a few seconds apart (the clock ticks on).
    for (let k = 0; k < 2; k++) {
      const elapsed = ms(await late.getByTestId('clm-elapsed').innerText());
      const predicted = ms(await late.getByTestId('clm-predicted').innerText());
      expect(elapsed).toBeGreaterThan(60 * MIN);
      expect(predicted).toBeGreaterThanOrEqual(elapsed);
      await page.waitForTimeout(2000);
    }
    await page.screenshot({ path: test.info().outputPath(`clm-${lng}-${width}.png`), fullPage: true });
  }
});

/** Follows the 10 km's bib 150 as the one follow list stores it; returns its tracking key. */
async function follow(page: Page): Promise<string> {
  const hits = await (await fetch(`${server.url}/api/results/contexts/${DB}/participants?q=150`)).json();
  const key = (hits as { bib: string; trackingKey: string }[]).find((h) => h.bib === '150')!.trackingKey;
  await page.addInitScript((k) => {
    localStorage.setItem('favorites:demo-city-run', JSON.stringify(['150']));
    localStorage.setItem('favorite-keys:demo-city-run', JSON.stringify({ 150: k }));
  }, key);
  return key;
}

test("/genericTracking opened from an event's card keeps the event's menu and breadcrumbs", async ({
  page,
}) => {
  const key = await follow(page);
  for (const [lng, width] of SIZES) {
    const w = WORDS[lng];
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${server.url}/?lng=${lng}#/events/demo-city-run/tracking/${key}`);
    await page.getByRole('link', { name: w.followed }).click();
    await expect(page).toHaveURL(/#\/genericTracking\?event=demo-city-run$/);
    await expect(page.getByTestId('followed-cards').getByTestId('athlete-card')).toHaveCount(1);

    // The breadcrumbs go through the event and its tracking, as the card's do.
    const crumbs = page.getByRole('navigation', { name: lng === 'en' ? 'Breadcrumbs' : 'Fil d’Ariane' });
    await expect(crumbs.getByRole('link', { name: 'Demo City Run' })).toHaveAttribute(
      'href',
      '#/events/demo-city-run/home',
    );
    await expect(crumbs.getByRole('link', { name: w.tracking })).toHaveAttribute(
      'href',
      '#/events/demo-city-run/tracking',
    );
    await expect(page).toHaveTitle(new RegExp(`${w.followed} · Demo City Run`));
    await page.screenshot({ path: test.info().outputPath(`followed-${lng}-${width}.png`), fullPage: true });

    // The side menu opens from the top bar and leads home.
    await page.getByRole('button', { name: w.menu }).click();
    const drawer = page.getByTestId('nav-drawer');
    await expect(drawer.getByRole('link', { name: w.home })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`followed-menu-${lng}-${width}.png`) });
    await drawer.getByRole('link', { name: w.home }).click();
    await expect(page).toHaveURL(/#\/$/);
  }
});
