import { mailLink } from './api.ts';
import { expect, test } from './fixtures.ts';

const REPORT = '/events/demo-city-run/reportlist/group/city-10k/report';

test('a spectator opens the demo event report list and a live report', async ({ page, consoleErrors }) => {
  await page.goto('/?lng=en#/results/demo-city-run/reportlist');
  await expect(page.getByRole('heading', { name: '10 km' })).toBeVisible();
  // The demo's two races, each with its own reports.
  await expect(page.getByRole('heading', { name: 'Marathon' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Overall' })).toHaveCount(2);
  await page.getByRole('link', { name: 'Overall' }).first().click();
  await expect(page).toHaveURL(/#\/results\/demo-city-run\/reportlist\/group\/city-10k\/report\/LIVE1$/);
  const table = page.getByRole('table', { name: 'Overall' });
  await expect(table.getByRole('columnheader', { name: 'Name' })).toBeVisible();
  await expect(table.locator('[role=row][aria-rowindex="2"]')).toBeVisible();
  // Virtualised: every runner counted, far fewer rows in the DOM.
  const total = Number(await table.getAttribute('aria-rowcount')) - 1;
  expect(total).toBeGreaterThan(100);
  expect(await table.getByRole('row').count()).toBeLessThanOrEqual(100);
  // The name links to the athlete's tracking page (UrlColumnIdx).
  await expect(table.getByRole('row').nth(1).getByRole('link')).toHaveAttribute(
    'href',
    /#\/events\/demo-city-run\/tracking\//,
  );
  expect(consoleErrors).toEqual([]);
});

test('the same report in French, and the bare table variant', async ({ page }) => {
  await page.goto(`/?lng=fr#${REPORT}/LIVE1`);
  await expect(page.getByRole('table', { name: 'Classement général' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Nom' })).toBeVisible();
  await page.goto(`/?lng=fr#/events/demo-city-run/reportlist/table/city-10k/report/LIVE1`);
  await expect(
    page.getByRole('table', { name: 'Classement général' }).locator('[aria-rowindex="2"]'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Classement général' })).toHaveCount(0);
});

test('a context report on the generic route', async ({ page }) => {
  await page.goto('/?lng=en#/events/demo-city-run/ctx/demo-city-run-10k/generic/results/home/LIVE2');
  const table = page.getByRole('table', { name: 'Women' });
  await expect(table.locator('[aria-rowindex="2"]')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Women' })).toBeVisible();
});

test('live patches reach an open table and highlight the changed rows', async ({ page, consoleErrors }) => {
  // The demo replays the race: passings arrive every few seconds and are patched in.
  await page.goto(`/?lng=en#${REPORT}/LAST`);
  const table = page.getByTestId('report-table');
  await expect(table.locator('[aria-rowindex="2"]')).toBeVisible();
  await expect(table.locator('[data-changed=true]').first()).toBeVisible({ timeout: 20_000 });
  expect(consoleErrors).toEqual([]);
});

test('search puts the exact bib first; the star keeps a favourite per event', async ({ page }) => {
  await page.goto(`/?lng=en#${REPORT}/START`);
  const table = page.getByTestId('report-table');
  await expect(table.locator('[aria-rowindex="2"]')).toBeVisible();
  await page.getByLabel('Search').fill('150');
  const first = table.getByRole('row').nth(1);
  await expect(first).toHaveAttribute('data-key', '150');
  const star = first.getByRole('button', { name: /bib 150/ });
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  await star.click();
  await expect(star).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate(() => localStorage.getItem('favorites:demo-city-run'))).toBe('["150"]');
  await page.reload();
  await page.getByLabel('Search').fill('150');
  await expect(
    table
      .getByRole('row')
      .nth(1)
      .getByRole('button', { name: /bib 150/ }),
  ).toHaveAttribute('aria-pressed', 'true');
});

test('a signed-in user holds exactly one personal channel; sign-out leaves it (spec §4)', async ({
  page,
  server,
}) => {
  const sent: { event: string; channel?: string; auth?: string }[] = [];
  const received: { event: string; channel?: string }[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      const m = JSON.parse(String(f.payload));
      if (m.event !== 'pusher:ping')
        sent.push({ event: m.event, channel: m.data?.channel, auth: m.data?.auth });
    });
    ws.on('framereceived', (f) => {
      const m = JSON.parse(String(f.payload));
      received.push({ event: m.event, channel: m.channel });
    });
  });
  const email = `fan-${Date.now()}@example.org`;
  const password = 'correct horse battery';
  await page.goto('/?lng=en#/auth/register');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your e-mail');
  const link = await mailLink(server, email, 'verifyEmail');
  await page.goto(`/?lng=en${link}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('E-mail verified');
  await page.goto('/?lng=en#/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/#\/$/);

  // pusher-js subscribed the personal channel with a signature from /api/realtime/auth, and the
  // server accepted it.
  const personal = () =>
    sent.filter((m) => m.event === 'pusher:subscribe' && m.channel?.startsWith('private-user-'));
  await expect.poll(() => personal().length).toBe(1);
  const channel = personal()[0]!.channel!;
  expect(personal()[0]!.auth).toMatch(/^[^:]+:[0-9a-f]{64}$/);
  await expect
    .poll(() =>
      received.some((m) => m.event === 'pusher_internal:subscription_succeeded' && m.channel === channel),
    )
    .toBe(true);

  // The profile, filled in on its own page (issue 29: no longer forced at sign-in).
  await page.goto('/?lng=en#/authentication/basicprofile');
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Gender').click();
  await page.getByRole('option', { name: 'Woman' }).click();
  await page.getByLabel('Birth date').fill('1986-12-09');
  await page.getByLabel(/Nationality/).fill('usa');
  await page.getByRole('button', { name: 'Save' }).click();
  // Saved on its own page (no longer a step of sign-in): the page stays, saying so.
  await expect(page.getByRole('status')).toContainText('Your profile is saved.');
  await page.goto('/?lng=en#/');
  await page.getByRole('button', { name: /Account of Grace Hopper/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/#\/$/);
  await expect
    .poll(() => sent.some((m) => m.event === 'pusher:unsubscribe' && m.channel === channel))
    .toBe(true);
  expect(personal()).toHaveLength(1);
});

test('the first screenful of a report is drawn before the app, from the real rows, then replaced', async ({
  page,
  consoleErrors,
}) => {
  const report = await (
    await page.request.get('/api/results/demo-city-run/groups/city-10k/reports/LIVE1?offset=0&limit=2')
  ).json();
  const name = report.columns.findIndex((c: { UrlColumnIdx: number }) => c.UrlColumnIdx >= 0);
  const firstName = String(report.rows[0][report.columns[name].FieldIdx]);
  // The app's JavaScript refused: what shows is the boot script's picture alone (src/pre-paint/).
  await page.route(/\/assets\/index-[^/]+\.js$/, (route) => route.abort());
  await page.goto(`/?lng=fr#${REPORT}/LIVE1`);
  const picture = page.locator('#pre-paint');
  await expect(picture.getByRole('heading', { includeHidden: true })).toHaveText(/Classement général$/);
  const first = picture.locator('.rt-row').first();
  await expect(first).toBeVisible();
  await expect(first).toContainText(firstName);
  await expect(first.locator('.rt-cell').nth(1)).toHaveText('1');
  await expect(picture).toHaveAttribute('aria-hidden', 'true');
  // With the app: its own table, the same first row, and the picture gone.
  await page.unroute(/\/assets\/index-[^/]+\.js$/);
  await page.goto('about:blank');
  consoleErrors.splice(0); // the refused requests of the first load
  await page.goto(`/?lng=fr#${REPORT}/LIVE1`);
  const table = page.getByRole('table', { name: 'Classement général' });
  await expect(table.locator('[aria-rowindex="2"]')).toContainText(firstName);
  await expect(picture).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
