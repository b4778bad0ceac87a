import { expect, type Page, test } from '@playwright/test';
import { mailLink, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 14 part A: an organiser sets up an event from an empty database, in the browser — sign up,
 * verify, found an organisation, invite a colleague who joins, create an event with a context
 * and a marathon (five timing points, a GPX course, age-group categories from a template),
 * publish it, and an anonymous spectator finds its reports in both languages.
 */
let server: RunningServer;
// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take a destructured first argument.
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(90_000);
  server = await startServer({ SEED_DEMO: 'false' });
});
test.afterAll(async () => {
  await server?.stop();
});

const PASSWORD = 'a long organiser password';

/** A GPX track of `km` kilometres due north from Brussels (a vertex every 100 m). */
function gpx(km: number): string {
  const points = Array.from({ length: km * 10 + 1 }, (_, k) => {
    const lat = 50.8 + (k * 100) / 111_195;
    return `<trkpt lat="${lat.toFixed(7)}" lon="4.35"/>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="e2e" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${points.join('')}</trkseg></trk></gpx>`;
}

/** The invitation link the server printed on its console (development), as a hash route. */
async function invitationLink(email: string): Promise<string> {
  for (let k = 0; k < 100; k++) {
    const line = server.logs
      .join('')
      .split('\n')
      .filter((l) => l.includes('/console/invitations/') && l.includes(`"to":"${email}"`))
      .at(-1);
    const link = line && /#\/console\/invitations\/[\w-]+/.exec(line)?.[0];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no invitation link for ${email} in the server log`);
}

async function signIn(page: Page, email: string, hash = '#/console') {
  await page.goto(`${server.url}/?lng=en${hash}`);
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('sign up → organisation → a colleague joins → event, marathon, points, GPX, categories → public in both languages', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  // Its own server (an empty database), not the fixtures' demo one: console errors collected here.
  const consoleErrors: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (msg) => msg.type() === 'error' && consoleErrors.push(msg.text()));
    p.on('pageerror', (err) => consoleErrors.push(err.message));
  };
  watch(page);
  const owner = `owner-${Date.now()}@example.org`;
  const staff = `staff-${Date.now()}@example.org`;

  // Sign up and verify; the console is the remembered route.
  await page.goto(`${server.url}/?lng=en#/console`);
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('E-mail').fill(owner);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your e-mail');
  await page.goto(`${server.url}/?lng=en${await mailLink(server, owner, 'verifyEmail')}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('E-mail verified');
  await signIn(page, owner);
  await expect(page).toHaveURL(/#\/auth\/basic-profile$/);
  await page.getByLabel('First name').fill('Olga');
  await page.getByLabel('Last name').fill('Owner');
  await page.getByLabel('Gender').click();
  await page.getByRole('option', { name: 'Woman' }).click();
  await page.getByLabel('Date of birth').fill('1980-02-03');
  await page.getByLabel(/Nationality/).fill('bel');
  await page.getByRole('button', { name: 'Save' }).click();

  // No organisation yet: the console offers to create one.
  await expect(page).toHaveURL(/#\/console$/);
  await expect(page.getByText('You are not a member of any organisation yet')).toBeVisible();
  const create = page.getByRole('form', { name: 'New organisation' });
  await create.getByLabel('Name').fill('Brussels Running Club');
  await create.getByLabel('Country').fill('be');
  await create.getByLabel('Contact e-mail').fill('info@brc.example');
  await create.getByRole('button', { name: 'Create the organisation' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Brussels Running Club');
  await expect(page.getByText('Your role: Owner')).toBeVisible();
  await expect(page.getByText('Runs the timing: timing devices and passings')).toBeVisible();

  // Invite a staff member, who signs in and joins through the single-use link.
  const invite = page.getByRole('form', { name: 'Invite a member' });
  await invite.getByLabel('E-mail address').fill(staff);
  await invite.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${staff}.`)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Pending invitations' })).toContainText(staff);
  const link = await invitationLink(staff);
  await verifiedAccount(server, staff, PASSWORD, true);
  const colleague = await (await browser.newContext()).newPage();
  watch(colleague);
  await signIn(colleague, staff, link);
  await expect(colleague.getByRole('heading', { level: 2 })).toHaveText('Join Brussels Running Club');
  await colleague.getByRole('button', { name: 'Accept and join' }).click();
  await expect(colleague.getByText('Your role: Staff')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId(`member-${staff}`)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Pending invitations' })).toHaveCount(0);

  // The staff member creates the event (a draft) in the Brussels time zone.
  await colleague.getByRole('button', { name: 'New event' }).click();
  const dialog = colleague.getByRole('dialog', { name: 'New event' });
  await dialog.getByLabel('Name').fill('Brussels Marathon');
  await dialog.getByLabel('First day').fill('2026-10-04');
  await dialog.getByLabel('Place').fill('Brussels');
  await dialog.getByLabel('Time zone').fill('Europe/Brussels');
  await colleague.getByRole('option', { name: 'Europe/Brussels' }).click();
  await dialog.getByRole('button', { name: 'Create the event' }).click();
  await expect(colleague).toHaveURL(/#\/console\/events\/brussels-marathon-2026$/);
  await expect(colleague.getByText('Draft', { exact: true })).toBeVisible();

  // A context, then the marathon with its gun time in the event's zone.
  await colleague.getByTestId('event-nav-races').click();
  const context = colleague.getByRole('form', { name: 'Add a context' });
  await context.getByLabel('Context name').fill('Marathon 2026');
  await context.getByRole('button', { name: 'Add a context' }).click();
  await expect(colleague.getByText('marathon-2026', { exact: true })).toBeVisible();
  await colleague.getByRole('button', { name: 'New race' }).click();
  const race = colleague.getByRole('dialog', { name: 'New race' });
  await race.getByLabel('Name').fill('Marathon');
  await race.getByLabel('Distance (km)').fill('42.195');
  await race.getByLabel('Gun time').fill('09:30:00');
  await expect(race.getByText('Time of day in Europe/Brussels')).toBeVisible();
  await race.getByRole('button', { name: 'Create the race' }).click();
  await expect(colleague).toHaveURL(/races\/marathon$/);

  // Five timing points: start, three splits, finish.
  const points = colleague.getByRole('form', { name: 'Timing points' });
  for (const [key, en, fr, km] of [
    ['10k', '10 km', '10 km', '10'],
    ['half', 'Half', 'Semi', '21.0975'],
    ['30k', '30 km', '30 km', '30'],
  ]) {
    await points.getByRole('button', { name: 'Add a point' }).click();
    const row = points.locator('li').nth(-2);
    await row.getByLabel('Key').fill(key!);
    await row.getByLabel('Name (English)').fill(en!);
    await row.getByLabel('Name (French)').fill(fr!);
    await row.getByLabel('km').fill(km!);
  }
  await points.getByRole('button', { name: 'Save the points' }).click();
  await expect(points.locator('li')).toHaveCount(5);
  await expect(points.locator('li').nth(2).getByLabel('Key')).toHaveValue('half');
  await expect(points.locator('li').nth(4).getByLabel('Kind')).toContainText('Finish');

  // The GPX course, drawn on the map; the points are placed along it.
  await colleague.getByTestId('course-file').setInputFiles({
    name: 'marathon.gpx',
    mimeType: 'application/gpx+xml',
    buffer: Buffer.from(gpx(43)),
  });
  await expect(colleague.getByTestId('course-length')).toHaveText(
    /^Track: 4[23](\.\d+)? km \(race: 42\.\d+ km\)$/,
  );
  await expect(colleague.getByTestId('course-map').locator('path.leaflet-interactive')).toHaveCount(6);

  // Age groups from the Boston template: no overlap, no gap.
  const categories = colleague.getByRole('form', { name: 'Categories' });
  await categories.getByLabel('Template').click();
  await colleague.getByRole('option', { name: 'Boston Marathon divisions' }).click();
  await categories.getByRole('button', { name: 'Generate (replaces the list)' }).click();
  await expect(categories.getByText('22 categories, no overlap and no gap.')).toBeVisible();
  await categories.getByRole('button', { name: 'Save the categories' }).click();
  await expect(categories.getByLabel('Name').first()).toHaveValue('F 18-34');
  await colleague.getByRole('link', { name: 'Reports' }).click();
  await expect(colleague.getByTestId('report-CAT-F18-34')).toBeVisible();

  // Still a draft: a spectator finds nothing. Published: the report list shows the race.
  const spectator = await (await browser.newContext()).newPage();
  await spectator.goto(`${server.url}/?lng=en#/events/brussels-marathon-2026/reportlist`);
  await expect(spectator.getByRole('alert')).toBeVisible();
  await colleague.getByTestId('event-nav-details').click();
  await colleague.getByLabel('Published').check();
  await colleague.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(colleague.getByText('Public', { exact: true })).toBeVisible();

  await spectator.reload();
  await expect(spectator.getByRole('heading', { name: 'Marathon', level: 2 })).toBeVisible();
  await expect(spectator.getByRole('link', { name: 'Overall' })).toBeVisible();
  await expect(spectator.getByRole('link', { name: 'M 40-44' })).toBeVisible();
  await spectator.goto(`${server.url}/?lng=fr#/events/brussels-marathon-2026/reportlist`);
  await spectator.reload();
  await expect(spectator.getByRole('link', { name: 'Classement général' })).toBeVisible();
  await expect(spectator.getByRole('link', { name: 'Liste de départ' })).toBeVisible();

  expect(consoleErrors).toEqual([]);
});
