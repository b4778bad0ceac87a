import { expect, type Page, test } from '@playwright/test';
import { deviceKey, ingest, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 27, the course map on a 390 px phone: opened from the marathon it shows the marathon (it
 * showed the 10 km) without a 404 in the console (the followed bibs of another race were asked
 * for in the wrong context); tapping a pack lists its runners; a followed runner is drawn with
 * their name, not a clipped bib.
 */
const PHONE = { width: 390, height: 844 };
const STAFF = 'staff@example.org';
const MARATHON = 'demo-city-run-marathon';
const PACK = ['5001', '5002', '5003', '5004'];

test.use({ hasTouch: true });

let server: RunningServer;
let followed: { firstName: string; lastName: string };
test.beforeAll(async () => {
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF });
  const token = await verifiedAccount(server, STAFF, 'a long staff password');
  const key = await deviceKey(server, token, MARATHON, '5 km mat', '5k');
  // A pack of four passes 5 km together: on the map they are one marker.
  const now = Date.now();
  expect(
    await ingest(
      server,
      key,
      PACK.map((bib, i) => ({ bib, time: now - 2000 + i * 200 })),
    ),
  ).toBe(200);
  const card = await (await fetch(`${server.url}/api/results/contexts/${MARATHON}/participants/5001`)).json();
  followed = card.athlete;
});
test.afterAll(async () => server?.stop());

/** Follows 5001 (marathon) and 101 (10 km: another context) as the one follow list stores them. */
async function follow(page: Page) {
  await page.addInitScript(() =>
    localStorage.setItem('favorites:demo-city-run', JSON.stringify(['5001', '101'])),
  );
}

test('from the marathon on a phone: the marathon, no 404, a tapped pack lists its runners, the followed runner by name', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await follow(page);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const missing: string[] = [];
  page.on('response', (r) => r.status() === 404 && missing.push(r.url()));

  await page.goto(`${server.url}/?lng=en#/events/demo-city-run/reportlist/group/city-marathon/report/LIVE1`);
  await page.getByRole('link', { name: 'Course map' }).click();
  await expect(page).toHaveURL(/\/map\?race=city-marathon$/);
  await expect(page.getByRole('group', { name: /Course of Marathon/ })).toBeVisible();
  await expect(page.getByRole('combobox')).toHaveValue('city-marathon');

  // The followed runner is drawn with their name beside the marker.
  const name = `${followed.firstName.slice(0, 1)}. ${followed.lastName}`;
  await expect(page.getByTestId('map-followed-name')).toContainText(name, { timeout: 15_000 });

  // The pack is one marker, a button: tapping it lists its four runners with bib and last point.
  const pack = page.getByRole('button', { name: /^4 runners:/ });
  await expect(pack).toBeVisible();
  await expect(pack).toHaveAttribute('aria-expanded', 'false');
  await pack.tap();
  const panel = page.getByRole('region', { name: '4 runners here' });
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('map-panel-runner')).toHaveCount(4);
  await expect(
    panel.getByRole('link', { name: `★ ${followed.firstName} ${followed.lastName}` }),
  ).toBeVisible();
  await expect(panel).toContainText(/Bib 5001 · [\d:]+ · 5 km/);
  await page.screenshot({ path: test.info().outputPath('map-phone-en-390.png'), fullPage: true });
  // Keyboard: the marker closes with Enter as it opened.
  await pack.focus();
  await page.keyboard.press('Enter');
  await expect(panel).toHaveCount(0);

  expect(missing).toEqual([]);
  expect(errors).toEqual([]);

  // The card link leads to the runner's card.
  await pack.tap();
  await panel.getByRole('link', { name: new RegExp(followed.lastName) }).click();
  await expect(page).toHaveURL(/\/events\/demo-city-run\/tracking\//);
});

test('in French at 390 px and in both languages at 1280 px the pack opens and names its runners', async ({
  page,
}) => {
  await follow(page);
  for (const [lng, width, pack, here, bib] of [
    ['fr', 390, /^4 athlètes :/, '4 athlètes ici', 'Dossard 5001'],
    ['en', 1280, /^4 runners:/, '4 runners here', 'Bib 5001'],
    ['fr', 1280, /^4 athlètes :/, '4 athlètes ici', 'Dossard 5001'],
  ] as const) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${server.url}/?lng=${lng}#/events/demo-city-run/map?race=city-marathon`);
    await expect(page.getByTestId('map-followed-name')).toContainText(followed.lastName, { timeout: 15_000 });
    await page.getByRole('button', { name: pack }).click();
    const panel = page.getByRole('region', { name: here });
    await expect(panel.getByTestId('map-panel-runner')).toHaveCount(4);
    await expect(panel).toContainText(bib);
    await page.screenshot({ path: test.info().outputPath(`map-phone-${lng}-${width}.png`), fullPage: true });
  }
});
