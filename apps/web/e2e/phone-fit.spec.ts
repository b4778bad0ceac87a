import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { post, verifiedAccount } from './api.ts';
import { cutTexts } from './fits.ts';
import { type RunningServer, startServer } from './server.ts';

// The 390 px sweep of the runner's, the entries' and the pickup's pages (issues 38–40), in English
// and French: on each page nothing scrolls sideways and no visible text is cut by its box (fits.ts).
// SCREENSHOTS=1 keeps a picture of each page in .tmp/screens (looked at for the closing note).
const SLOW = { timeout: 60_000 };
const SHOTS = process.env.SCREENSHOTS ? path.resolve(import.meta.dirname, '../../../.tmp/screens') : null;
const PASSWORD = 'correct horse battery fit';
const EVENT = 'fit-event';
const RACE = 'fit-event-10k';
const ORGANISER = 'organiser-fit@example.test';
const RUNNER = 'runner-fit@example.test';

let server: RunningServer;

async function signedIn(browser: Browser, email: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 844 }, isMobile: width < 600 });
  const page = await context.newPage();
  await page.goto(`${server.url}/?lng=en#/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/#\/login/, SLOW);
  return page;
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startServer();
  const organiser = await verifiedAccount(server, ORGANISER, PASSWORD, true);
  const org = await post<{ id: string }>(
    server,
    '/api/console/organisations',
    { name: 'Fits Running Club', country: 'BE', contactEmail: ORGANISER },
    organiser,
  );
  await post(
    server,
    `/api/console/organisations/${org.id}/events`,
    {
      id: EVENT,
      name: 'Corrida des Quatre-Bras 2027',
      startDate: '2027-06-06',
      endDate: '2027-06-06',
      timeZone: 'Europe/Brussels',
      visibility: 'public',
      status: 'upcoming',
    },
    organiser,
  );
  await post(
    server,
    `/api/console/events/${EVENT}/contexts`,
    { db: `${EVENT}-ctx`, name: 'Courses' },
    organiser,
  );
  await post(
    server,
    `/api/results/contexts/${EVENT}-ctx/races`,
    {
      id: RACE,
      name: '10 km des Quatre-Bras',
      date: '2027-06-06',
      distanceM: 10_000,
      startType: 'mass',
      points: [{ key: 'finish', name: 'Arrivée', distanceM: 10_000 }],
    },
    organiser,
  );
  const settings = await fetch(`${server.url}/api/entries/staff/events/${EVENT}/settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${organiser}` },
    body: JSON.stringify({
      holdMinutes: 15,
      waitlistMinutes: 60,
      currency: 'EUR',
      payOnSite: true,
      races: [
        {
          raceId: RACE,
          opensAt: '2020-01-01T00:00:00.000Z',
          closesAt: '2027-06-01T00:00:00.000Z',
          capacity: 300,
          prices: {
            tiers: [
              { from: '2020-01-01T00:00:00.000Z', cents: 2500 },
              { from: '2027-03-01T00:00:00.000Z', cents: 3500 },
            ],
          },
        },
      ],
      addOns: [{ key: 'tshirt-m', name: 'T-shirt M', priceCents: 1500, capacity: 20 }],
      waiver: 'Je cours à mes propres risques.',
    }),
  });
  expect(settings.status, await settings.clone().text()).toBeLessThan(300);
  await verifiedAccount(server, RUNNER, PASSWORD, true);
});
test.afterAll(async () => server?.stop());

/** Opens `route` in each language at `width` and checks that nothing is cut. */
async function sweep(page: Page, route: string, name: string, ready: (page: Page) => Promise<void>) {
  const cut: string[] = [];
  for (const lng of ['en', 'fr']) {
    await page.goto(`${server.url}/?lng=${lng}#${route}`);
    await ready(page);
    await page.waitForTimeout(300);
    cut.push(...(await cutTexts(page)).map((c) => `${lng}: ${c}`));
    if (SHOTS) {
      fs.mkdirSync(SHOTS, { recursive: true });
      const width = page.viewportSize()!.width;
      await page.screenshot({ path: path.join(SHOTS, `fit-${name}-${width}-${lng}.png`), fullPage: true });
    }
  }
  expect(cut, `cut on ${route}`).toEqual([]);
}

for (const width of [390, 1280]) {
  test(`the runner's pages fit ${width} px in both languages`, async ({ browser }) => {
    test.setTimeout(300_000);
    const page = await signedIn(browser, RUNNER, width);
    await sweep(page, `/entries/${EVENT}`, 'entries-event', (p) =>
      expect(p.getByTestId(`race-${RACE}`)).toBeVisible(SLOW),
    );
    await sweep(page, '/me/entries', 'my-entries', (p) =>
      expect(p.getByRole('heading').first()).toBeVisible(SLOW),
    );
    await sweep(page, '/me/results', 'my-results', (p) =>
      expect(p.getByRole('heading').first()).toBeVisible(SLOW),
    );
    await page.context().close();
  });

  test(`the organiser's entries and pickup pages fit ${width} px in both languages`, async ({ browser }) => {
    test.setTimeout(300_000);
    const page = await signedIn(browser, ORGANISER, width);
    await sweep(page, `/console/events/${EVENT}/entries`, 'console-entries', (p) =>
      expect(p.getByRole('tab').first()).toBeVisible(SLOW),
    );
    await sweep(page, `/console/events/${EVENT}/pickup`, 'console-pickup', (p) =>
      expect(p.getByRole('heading').first()).toBeVisible(SLOW),
    );
    await sweep(page, `/pickup/${EVENT}`, 'pickup', (p) =>
      expect(p.getByRole('heading').first()).toBeVisible(SLOW),
    );
    await page.context().close();
  });
}
