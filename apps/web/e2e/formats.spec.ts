import { expect, test } from '@playwright/test';
import { deviceKey, ingest, post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 31, a lap race end to end: a criterium is set up through the API as an organiser would,
 * its format chosen in the console race page in the browser, reads arrive through the timing
 * ingest, and a spectator's phone shows laps, last and best lap in French and English, a rider out
 * at the lap cut-off with the reason, and the lap chart (inside the phone's width).
 */
let server: RunningServer;
// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take a destructured first argument.
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000) + 30_000);
  server = await startServer({ PLATFORM_STAFF_EMAILS: 'staff@example.org', SEED_BOSTON: 'false' });
});
test.afterAll(async () => server?.stop());

const PASSWORD = 'a long staff password';
const DB = 'demo-city-run-10k';

test('a criterium: format set in the console, reads through the ingest, laps on a phone in both languages', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const token = await verifiedAccount(server, 'staff@example.org', PASSWORD, true);
  const gun = Date.now() - 30 * 60_000;
  await post(
    server,
    `/api/results/contexts/${DB}/races`,
    {
      id: 'e2e-crit',
      name: 'E2E Criterium',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 3600,
      startType: 'mass',
      gunTimeMs: gun,
      points: [{ key: 'line', name: 'Line', distanceM: 1200 }],
    },
    token,
  );
  await post(
    server,
    `/api/results/contexts/${DB}/races/e2e-crit/participants`,
    {
      participants: [
        { bib: 'C1', firstName: 'Ann', lastName: 'Fast', gender: 'F' },
        { bib: 'C2', firstName: 'Bob', lastName: 'Steady', gender: 'M' },
        { bib: 'C3', firstName: 'Cid', lastName: 'Lapped', gender: 'M' },
      ],
    },
    token,
  );

  // The console: the race page, its format section.
  await page.goto(`${server.url}/?lng=en#/console/events/demo-city-run/races/e2e-crit`);
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByLabel('E-mail').fill('staff@example.org');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const section = page.getByRole('form', { name: 'Race format' });
  await expect(section).toBeVisible({ timeout: 20_000 });
  await section.getByRole('combobox', { name: 'Format' }).click();
  await page.getByRole('option', { name: 'Laps (criterium, track)' }).click();
  await section.getByLabel('Laps', { exact: true }).fill('3');
  await section.getByLabel('Lap length').fill('1200');
  // A cut-off: lap 2 done within 10 minutes of the gun (the gun was 30 minutes ago).
  const cutoff = section.getByRole('group', { name: 'Lap cut-off (optional)' });
  await cutoff.getByLabel('Lap to complete').fill('2');
  await cutoff.getByLabel('Cut-off after the gun').fill('10');
  await section.getByRole('button', { name: 'Save the format' }).click();
  await expect
    .poll(async () => (await fetch(`${server.url}/api/results/contexts/${DB}/races/e2e-crit/laps`)).status, {
      timeout: 10_000,
    })
    .toBe(200);

  // Race day: reads from the line's decoder, a re-read among them.
  const key = await deviceKey(server, token, DB, 'line', 'line');
  const at = (minutes: number) => gun + minutes * 60_000;
  expect(
    await ingest(server, key, [
      { bib: 'C1', time: at(2) },
      { bib: 'C1', time: at(2.2) },
      { bib: 'C1', time: at(4) },
      { bib: 'C2', time: at(2.1) },
      { bib: 'C2', time: at(4.3) },
      { bib: 'C3', time: at(3) },
    ]),
  ).toBe(200);

  // A spectator on a phone.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const spectator = await phone.newPage();
  await spectator.goto(`${server.url}/?lng=fr#/laps/${DB}/race/e2e-crit`);
  const tours = spectator.getByRole('table', { name: 'Tours' });
  await expect(tours).toBeVisible({ timeout: 20_000 });
  await expect(spectator.getByText('Encore 1 tour')).toBeVisible();
  const rows = tours.getByRole('row');
  await expect(rows.nth(1)).toContainText('Ann Fast');
  await expect(rows.nth(1)).toContainText('2');
  await expect(rows.nth(3)).toContainText('−1 tour');
  // Cid has one lap: not done with lap 2 by the cut-off, out with the reason.
  await expect(rows.nth(3)).toContainText('Abandon');
  await expect(rows.nth(3)).toContainText(
    /Tour 2 non bouclé avant la barrière horaire \(\d\d:\d\d [A-Z][^)]*\)/,
  );
  await expect(rows.nth(3).getByRole('cell').first()).toHaveText('');
  const chart = spectator.getByRole('img', { name: /Graphique des tours/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator('polyline')).toHaveCount(2);
  // The page never wider than the phone: the chart scrolls inside its own box.
  expect(await spectator.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await spectator.screenshot({ path: testInfo.outputPath('laps-fr-390.png'), fullPage: true });
  await spectator.goto(`${server.url}/?lng=en#/laps/${DB}/race/e2e-crit`);
  await spectator.reload();
  const laps = spectator.getByRole('table', { name: 'Laps' });
  await expect(laps).toBeVisible({ timeout: 20_000 });
  await expect(laps.getByRole('columnheader', { name: 'Last lap' })).toBeVisible();
  await expect(spectator.getByText('1 lap to go')).toBeVisible();
  await expect(laps.getByRole('row').nth(3)).toContainText(/Lap 2 not done by the cut-off/);
  await expect(spectator.getByRole('img', { name: /Lap chart/ })).toBeVisible();
  await spectator.screenshot({ path: testInfo.outputPath('laps-en-390.png'), fullPage: true });
  await phone.close();
  const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const desk = await wide.newPage();
  for (const lng of ['en', 'fr']) {
    await desk.goto(`${server.url}/?lng=${lng}#/laps/${DB}/race/e2e-crit`);
    await desk.reload();
    await expect(
      desk.getByRole('img', { name: lng === 'en' ? /Lap chart/ : /Graphique des tours/ }),
    ).toBeVisible({
      timeout: 20_000,
    });
    await desk.screenshot({ path: testInfo.outputPath(`laps-${lng}-1280.png`), fullPage: true });
  }
  // The desk, on the race page's review: Cid out at lap 2, reinstated in one click.
  await page.reload();
  const cutoffs = page.getByRole('list', { name: 'Cut-offs' });
  await expect(cutoffs).toContainText('#C3 Cid Lapped — lap 2 not done by the cut-off', { timeout: 20_000 });
  await cutoffs.getByRole('button', { name: 'Reinstate' }).click();
  await expect(cutoffs).toContainText('(reinstated)', { timeout: 20_000 });
  await desk.goto(`${server.url}/?lng=en#/laps/${DB}/race/e2e-crit`);
  await desk.reload();
  const reinstated = desk.getByRole('table', { name: 'Laps' }).getByRole('row').nth(3);
  await expect(reinstated).toContainText('reinstated by the timekeeper', { timeout: 20_000 });
  await expect(reinstated.getByRole('cell').first()).toHaveText('3');
  await wide.close();
});
