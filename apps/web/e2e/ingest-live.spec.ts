import { chromium, expect, test } from '@playwright/test';
import { deviceKey, ingest, post, verifiedAccount } from './api.ts';
import { fullChromiumPath, LAUNCH_ARGS } from './chromium.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 6: a passing posted to the ingest API appears in an open browser's table, moving the
 * runner's rank, within a second. A server of its own with a platform staff account, which
 * creates a race and a timing device through the organiser API as an organiser would.
 */
let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer({ PLATFORM_STAFF_EMAILS: 'staff@example.org', SEED_BOSTON: 'false' });
});
test.afterAll(async () => server?.stop());

const call = <T>(path: string, body: unknown, token?: string) => post<T>(server, path, body, token);

let staffToken: Promise<string> | null = null;
/** The platform staff account's ID token (created once). */
function staff(): Promise<string> {
  staffToken ??= verifiedAccount(server, 'staff@example.org', 'a long staff password');
  return staffToken;
}

test('a posted passing reaches the open table and moves the runner’s rank within a second', async ({
  page,
}) => {
  const idToken = await staff();
  const gun = Date.now() - 20 * 60_000;
  await call(
    '/api/results/contexts/demo-city-run-10k/races',
    {
      id: 'e2e-1k',
      name: 'E2E 1 km',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 1000,
      startType: 'mass',
      gunTimeMs: gun,
      points: [{ key: 'finish', name: 'Finish', distanceM: 1000 }],
    },
    idToken,
  );
  await call(
    '/api/results/contexts/demo-city-run-10k/races/e2e-1k/participants',
    {
      participants: ['E1', 'E2', 'E3'].map((bib, k) => ({
        bib,
        firstName: `Runner${k}`,
        lastName: 'Test',
        gender: 'F',
      })),
    },
    idToken,
  );
  const key = await deviceKey(server, idToken, 'demo-city-run-10k', 'finish', 'finish');
  const send = (passings: unknown[]) => ingest(server, key, passings);
  await send([
    { bib: 'E1', time: gun + 300_000 },
    { bib: 'E2', time: gun + 330_000 },
  ]);

  await page.goto(`${server.url}/?lng=en#/events/demo-city-run/reportlist/group/e2e-1k/report/LIVE1`);
  const table = page.getByTestId('report-table');
  const firstRow = table.locator('[role=row][aria-rowindex="2"]');
  await expect(firstRow).toHaveAttribute('data-key', 'E1', { timeout: 15_000 });

  const posted = Date.now();
  expect(await send([{ bib: 'E3', time: gun + 240_000 }])).toBe(200);
  await expect(firstRow).toHaveAttribute('data-key', 'E3', { timeout: 10_000 });
  const elapsed = Date.now() - posted;
  console.log(`passing posted → visible in the table: ${elapsed} ms`);
  await expect(table.locator('[role=row][data-key="E1"]')).toContainText('2');
});

test('the time-trial board: hot seat, riders on course with their rank at the last split, next starters, live', async ({
  page,
}) => {
  const idToken = await staff();
  const now = Date.now();
  const starts = { T1: now - 30 * 60_000, T2: now - 20 * 60_000, T3: now + 10 * 60_000 };
  await call(
    '/api/results/contexts/demo-city-run-10k/races',
    {
      id: 'e2e-tt',
      name: 'E2E time trial',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 10_000,
      startType: 'individual',
      gunTimeMs: starts.T1,
      points: [
        { key: 'split', name: 'Split 5 km', distanceM: 5000 },
        { key: 'finish', name: 'Finish', distanceM: 10_000 },
      ],
    },
    idToken,
  );
  await call(
    '/api/results/contexts/demo-city-run-10k/races/e2e-tt/participants',
    {
      participants: (['T1', 'T2', 'T3'] as const).map((bib) => ({
        bib,
        firstName: `Rider${bib}`,
        lastName: 'Clock',
        gender: 'M',
        startTime: starts[bib],
      })),
    },
    idToken,
  );
  const splitKey = await deviceKey(server, idToken, 'demo-city-run-10k', 'split', 'split');
  const finishKey = await deviceKey(server, idToken, 'demo-city-run-10k', 'finish tt', 'finish');
  const send = async (key: string, passings: unknown[]) =>
    expect(await ingest(server, key, passings)).toBe(200);
  await send(splitKey, [{ bib: 'T1', time: starts.T1 + 8 * 60_000 }]);
  await send(finishKey, [{ bib: 'T1', time: starts.T1 + 16 * 60_000 }]);

  await page.goto(`${server.url}/?lng=en#/live/clm/demo-city-run-10k/e2e-tt`);
  await expect(page.getByTestId('hot-seat')).toContainText('RiderT1 Clock');
  await expect(page.getByTestId('hot-seat')).toContainText('16:00');
  const onCourse = page.getByRole('table', { name: 'On course' });
  await expect(onCourse.locator('[data-bib="T2"]')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Next starters' })).toContainText('RiderT3 Clock');

  // T2 beats T1's split: first at the split, live; then the best finish takes the hot seat.
  await send(splitKey, [{ bib: 'T2', time: starts.T2 + 7 * 60_000 }]);
  await expect(onCourse.locator('[data-bib="T2"]')).toContainText('Split 5 km');
  await expect(onCourse.locator('[data-bib="T2"]')).toContainText('best');
  await send(finishKey, [{ bib: 'T2', time: starts.T2 + 15 * 60_000 }]);
  await expect(page.getByTestId('hot-seat')).toContainText('RiderT2 Clock');
  await expect(page.getByRole('table', { name: 'Standings' }).getByRole('row').nth(1)).toContainText('+1:00');
});

test('a spectator follows two athletes together; a passing moves one card live', async ({ page }) => {
  const idToken = await staff();
  const search = async (q: string) =>
    (
      (await (
        await fetch(`${server.url}/api/results/contexts/demo-city-run-10k/participants?q=${q}`)
      ).json()) as {
        bib: string;
        trackingKey: string;
      }[]
    )[0]!;
  const [a, b] = [await search('150'), await search('151')];
  for (const athlete of [a, b]) {
    await page.goto(`${server.url}/?lng=en#/tracking/${athlete.trackingKey}`);
    await page.getByRole('button', { name: /^Follow / }).click();
    await expect(page.getByRole('button', { name: /^Stop following / })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  }
  await page.goto(`${server.url}/?lng=en#/genericTracking`);
  const cards = page.getByTestId('followed-cards').getByTestId('athlete-card');
  await expect(cards).toHaveCount(2);
  await expect(page.getByText('2 athletes, live.')).toBeVisible();

  await expect(cards.nth(1)).not.toContainText('Last point: 7.5 km');
  const key = await deviceKey(server, idToken, 'demo-city-run-10k', '7.5 km mat', '7k5');
  expect(await ingest(server, key, [{ bib: b.bib, time: Date.now() - 1000 }])).toBe(200);
  await expect(cards.nth(1)).toContainText('Last point: 7.5 km');
  await expect(cards.nth(0)).not.toContainText('Last point: 7.5 km');

  // The group's own link shows the same two cards on another device.
  await page.goto(`${server.url}/?lng=en#/genericTracking/${a.trackingKey},${b.trackingKey}`);
  await expect(cards).toHaveCount(2);
});

test('a starred runner’s passing raises a browser notification once the spectator turns them on', async () => {
  // Debian's full Chromium: the headless shell reports the granted permission as `denied` (chromium.ts).
  const browser = await chromium.launch({ executablePath: fullChromiumPath(), args: LAUNCH_ARGS });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const idToken = await staff();
    await context.grantPermissions(['notifications'], { origin: server.url });
    // Record what the page shows through the real Notification API.
    await page.addInitScript(() => {
      const Real = window.Notification;
      const shown: { title: string; body: string }[] = [];
      (window as unknown as { shown: typeof shown }).shown = shown;
      window.Notification = class extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          shown.push({ title, body: options?.body ?? '' });
        }
      } as typeof Notification;
    });
    await page.goto(`${server.url}/?lng=en#/events/demo-city-run/reportlist/group/city-10k/report/START`);
    await page.getByLabel('Search').fill('160');
    const row = page.getByTestId('report-table').getByRole('row').nth(1);
    await expect(row).toHaveAttribute('data-key', '160');
    await row.getByRole('button', { name: /bib 160/ }).click();

    await page.goto(`${server.url}/?lng=en#/events/demo-city-run/favorites`);
    const toggle = page.getByLabel('Notify me when a favourite passes a timing point');
    await toggle.check();
    await expect(toggle).toBeChecked();
    // The favourites list is live too: the starred runner's row changes with the passing.
    const favourite = page.getByTestId('report-table').locator('[data-key="160"]');
    await expect(favourite).toBeVisible();
    const rowBefore = (await favourite.textContent()) ?? '';

    const key = await deviceKey(server, idToken, 'demo-city-run-10k', 'finish mat (notifications)', 'finish');
    expect(
      await ingest(server, key, [
        { bib: '161', time: Date.now() - 2000 },
        { bib: '160', time: Date.now() - 1000 },
      ]),
    ).toBe(200);
    const shown = () =>
      page.evaluate(() => (window as unknown as { shown: { title: string; body: string }[] }).shown);
    // The demo's own reads may notify of 160 at other points too: look for the finish one.
    await expect.poll(shown).toContainEqual({
      title: expect.stringContaining('(#160)'),
      body: expect.stringContaining('Passed Finish in'),
    });
    expect((await shown()).filter((n) => !n.title.includes('(#160)'))).toEqual([]);
    await expect(favourite).not.toHaveText(rowBefore);
  } finally {
    await browser.close();
  }
});

test('the leaders board and the statistics follow a posted passing live', async ({ page }) => {
  const idToken = await staff();
  const key = await deviceKey(server, idToken, 'demo-city-run-10k', '7.5 km mat (views)', '7k5');
  const passAt75 = async () => {
    expect(await ingest(server, key, [{ bib: '210', time: Date.now() - 1000 }])).toBe(200);
  };

  const stats = `${server.url}/?lng=en#/events/demo-city-run/ctx/demo-city-run-10k/generic/live/stats/city-10k`;
  const passedAt75 = page
    .getByRole('table', { name: 'Passed each point' })
    .getByRole('row', { name: /7\.5 km/ });
  await page.goto(stats);
  await expect(passedAt75).toBeVisible();
  const before = Number(await passedAt75.getByRole('cell').last().textContent());

  await page.goto(`${server.url}/?lng=en#/firstrow/demo-city-run-10k/race/city-10k`);
  await expect(page.getByRole('heading', { level: 2, name: '7.5 km' })).toBeVisible();
  await expect(page.getByRole('table', { name: '7.5 km' }).getByText('#210')).toHaveCount(0);
  await passAt75();
  await expect(page.getByRole('table', { name: '7.5 km' })).toContainText('#210');

  await page.goto(stats);
  await expect(passedAt75.getByRole('cell').last()).toHaveText(String(before + 1));
});
