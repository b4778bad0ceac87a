import { expect, test } from './fixtures.ts';

test('a spectator finds an athlete by bib and follows the live card, then sees the leaders and statistics', async ({
  page,
  consoleErrors,
}) => {
  await page.goto('/?lng=en#/events/demo-city-run/tracking');
  await page.getByLabel('Find an athlete').fill('150');
  const first = page.getByRole('list', { name: 'Athletes found' }).getByRole('link').first();
  await expect(first).toContainText('150 ·');
  await first.click();
  const card = page.getByTestId('athlete-card');
  await expect(card.getByRole('heading', { level: 2 })).toBeVisible();
  await expect(card).toContainText('Bib 150');
  await expect(card.getByRole('table', { name: 'Splits' }).getByRole('row')).toHaveCount(5);
  await page.goto('/?lng=en#/firstrow/demo-city-run-10k/race/city-10k');
  await expect(page.getByRole('heading', { level: 2, name: 'Finish' })).toBeVisible();
  // Timing points in the reader's language (issue 19): the demo names them in French too.
  await page.goto('/?lng=fr#/firstrow/demo-city-run-10k/race/city-10k');
  await expect(page.getByRole('heading', { level: 2, name: 'Arrivée' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: '2,5 km' })).toBeVisible();
  await page.goto('/?lng=en#/events/demo-city-run/ctx/demo-city-run-10k/generic/live/stats/city-10k');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Statistics — 10 km');
  await expect(page.getByRole('table', { name: 'Categories' }).getByRole('row')).toHaveCount(11);
  // Teams are the race's clubs; each opens through its opaque share token.
  const teams = page.getByRole('table', { name: 'Team standings' });
  const firstTeam = teams.getByRole('link').first();
  const teamName = (await firstTeam.textContent()) ?? '';
  await firstTeam.click();
  await expect(page).toHaveURL(/\/generic\/live\/objectdetail\/[\w-]{16}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(teamName);
  await expect(
    page.getByTestId('team-card').getByRole('table', { name: 'Team members' }).getByRole('row'),
  ).not.toHaveCount(1);
  expect(consoleErrors).toEqual([]);
});

test('the scroller pages a report for big screens and explains invalid parameters', async ({ page }) => {
  await page.goto('/?lng=en#/events/demo-city-run/ctx/demo-city-run-10k/generic/live/scroller/START/10/2');
  const scroller = page.getByTestId('scroller');
  await expect(scroller).toContainText('Page 1 / 120');
  await expect(scroller).toContainText('Page 2 / 120', { timeout: 5_000 });
  await page.getByRole('button', { name: 'Full screen' }).click();
  await expect
    .poll(() => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid')))
    .toBe('scroller');
  await expect(page.getByRole('button', { name: 'Full screen' })).toHaveCount(0);
  await page.goto('/?lng=en#/events/demo-city-run/ctx/demo-city-run-10k/generic/live/scroller/START/0/2');
  await expect(page.getByRole('alert')).toContainText('Invalid scroller address');
});

test('the course map shows the course and the estimated positions of the leaders', async ({ page }) => {
  await page.goto('/?lng=en#/events/demo-city-run/map');
  await expect(page.getByRole('group', { name: /Course of 10 km/ })).toBeVisible();
  await expect(page.getByTestId('map-athlete').first()).toBeAttached({ timeout: 15_000 });
});

test('a tracking card is drawn before the app from the real answer, then replaced by the app', async ({
  page,
  consoleErrors,
}) => {
  const [hit] = await (
    await page.request.get('/api/results/contexts/demo-city-run-10k/participants?q=150')
  ).json();
  const card = await (await page.request.get(`/api/tracking/${hit.trackingKey}`)).json();
  const name = `${card.athlete.firstName} ${card.athlete.lastName}`;
  // The app's JavaScript refused: what shows is the boot script's picture alone (src/pre-paint/).
  await page.route(/\/assets\/index-[^/]+\.js$/, (route) => route.abort());
  await page.goto(`/?lng=fr#/tracking/${hit.trackingKey}`);
  const picture = page.locator('#pre-paint');
  await expect(picture.getByRole('heading', { level: 2, includeHidden: true })).toHaveText(name);
  await expect(picture.locator('.pp-top p')).toHaveText(new RegExp(`^Dossard ${card.athlete.bib} · `));
  await expect(picture.locator('tbody tr')).toHaveCount(card.race.points.length);
  await expect(picture).toHaveAttribute('aria-hidden', 'true');
  await expect(picture).toHaveAttribute('lang', 'fr');
  // With the app: its own card, the same athlete, and the picture gone.
  await page.unroute(/\/assets\/index-[^/]+\.js$/);
  await page.goto('about:blank');
  consoleErrors.splice(0); // the refused requests of the first load
  await page.goto(`/?lng=fr#/tracking/${hit.trackingKey}`);
  const shown = page.getByTestId('athlete-card');
  await expect(shown.getByRole('heading', { level: 2 })).toHaveText(name);
  await expect(shown.getByRole('table', { name: 'Temps intermédiaires' })).toBeVisible();
  await expect(picture).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
