import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { outbox, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 8: event content as spectators and staff use it, on a server of its own with a platform
 * staff account (staff of every organisation, so of the demo event's).
 */
let server: RunningServer;
const STAFF = 'staff@example.org';
const PASSWORD = 'a long staff password';

test.beforeAll(async () => {
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF });
});
test.afterAll(async () => server?.stop());

/** A verified staff account with a complete profile (the sign-in itself is done in the browser). */
let staffReady: Promise<string> | null = null;
const staffAccount = () => {
  staffReady ??= verifiedAccount(server, STAFF, PASSWORD, true);
  return staffReady;
};

async function signIn(page: Page) {
  await staffAccount();
  await page.goto(`${server.url}/?lng=en#/login`);
  await page.getByLabel('E-mail').fill(STAFF);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/#\/$/);
}

test('home lists and searches events; the event home links to its areas; the contact form reaches the organiser', async ({
  page,
}) => {
  await page.goto(`${server.url}/?lng=en#/`);
  await expect(page.getByRole('heading', { name: 'Live now' })).toBeVisible();
  const search = page.getByLabel('Search events');
  await search.fill('zzz-nowhere');
  await expect(page.getByText('No event matches your search.')).toBeVisible();
  await search.fill('Brussels');
  await page.getByRole('link', { name: /Demo City Run/ }).click();
  await expect(page).toHaveURL(/#\/events\/demo-city-run\/home$/);
  const links = page.getByRole('navigation', { name: 'Quick links' });
  // The demo has a course and a stream but no photos: no Photos tile (issue 27: no dead ends).
  for (const name of ['Results', 'Athlete tracking', 'Course map', 'Live stream', 'Contact'])
    await expect(links.getByRole('link', { name })).toBeVisible();
  await expect(links.getByRole('link', { name: 'Photos' })).toHaveCount(0);
  await links.getByRole('link', { name: 'Contact' }).click();
  await expect(page).toHaveURL(/#\/events\/demo-city-run\/contact$/);

  await page.getByLabel('Your name').fill('Pat Runner');
  await page.getByLabel('Your e-mail').fill('not an e-mail');
  await page.getByLabel('Subject').fill('Parking near the start');
  await page.getByLabel('Message').fill('Where can we park on race morning?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Enter a valid e-mail address.')).toBeVisible();
  await page.getByLabel('Your e-mail').fill('pat@example.org');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toContainText('your message has been sent');
  const mails = await outbox(server, await staffAccount());
  expect(mails.some((m) => m.subject.includes('Parking near the start'))).toBe(true);
});

test('series standings per category, in French', async ({ page }) => {
  await page.goto(`${server.url}/?lng=fr#/misc/crac/demo-challenge`);
  await expect(page.getByRole('heading', { level: 1, name: 'Demo Running Challenge' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Classement, F' });
  await expect(table.getByRole('row').nth(1)).toContainText('Emma Janssens');
  await expect(table.getByRole('row').nth(1)).toContainText('295');
  await page.getByRole('tab', { name: 'M' }).click();
  await expect(page.getByRole('table', { name: 'Classement, M' })).toBeVisible();
});

test('staff upload a photo tagged by its file name; spectators find it by bib; the kiosk shows it live', async ({
  page,
  browser,
}) => {
  await staffAccount();
  // The finish-line screen, anonymous, open before the upload.
  const kiosk = await browser.newPage();
  await kiosk.goto(`${server.url}/?lng=en#/photobox/demo-city-run`);
  await expect(kiosk.getByText('The first photos will appear here.')).toBeVisible();

  await signIn(page);
  await page.goto(`${server.url}/?lng=en#/photobox?event=demo-city-run`);
  await expect(page.getByText('No photo yet for this event.')).toBeVisible();
  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a7' } })
    .jpeg()
    .toBuffer();
  await page.getByLabel('Choose photos').setInputFiles([
    { name: '117_finish.jpg', mimeType: 'image/jpeg', buffer: jpeg },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') },
  ]);
  await page.getByRole('button', { name: 'Upload 2 photos' }).click();
  await expect(page.getByRole('status')).toContainText('1 photo added.');
  await expect(page.getByRole('status')).toContainText('notes.txt: not a JPEG, PNG or WebP image');
  await expect(page.getByTestId('photo')).toHaveCount(1);
  await expect(page.getByTestId('photo').first()).toContainText('117');

  await expect(kiosk.getByTestId('kiosk-photo')).toBeVisible();
  await expect(kiosk.getByRole('img', { name: 'Photo of bib 117' })).toBeVisible();

  // A spectator finds it by bib, and not by another one.
  const spectator = await browser.newPage();
  await spectator.goto(`${server.url}/?lng=en#/photobox?event=demo-city-run`);
  await spectator.getByLabel('Find photos').fill('999');
  await expect(spectator.getByText('No photo matches this bib or name.')).toBeVisible();
  await spectator.getByLabel('Find photos').fill('117');
  await expect(spectator.getByTestId('photo')).toHaveCount(1);
  await expect(spectator.getByRole('heading', { name: 'Upload photos' })).toHaveCount(0);
  await spectator.getByTestId('photo').first().getByRole('button').click();
  await expect(spectator.getByRole('dialog')).toBeVisible();
  await expect(spectator.getByRole('dialog').getByRole('img')).toHaveJSProperty('complete', true);
});

test('an organiser writes a page as a draft, publishes it, and spectators read it in both languages, scripts removed', async ({
  page,
  browser,
}) => {
  await signIn(page);
  await page.goto(`${server.url}/?lng=en#/events/demo-city-run/cms/main`);
  await page.getByRole('button', { name: 'New page' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Page address').fill('e2e-shuttle');
  await dialog.getByLabel('Title (French)').fill('Navettes');
  await dialog.getByLabel('Title (English)').fill('Shuttles');
  await dialog
    .getByLabel('Content (French)')
    .fill('<p>Navettes gratuites</p><script>window.pwned = 1</script>');
  await dialog
    .getByLabel('Content (English)')
    .fill('<p>Free shuttles</p><img src="x" onerror="window.pwned = 1">');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/#\/events\/demo-city-run\/cms\/main\/e2e-shuttle$/);
  await expect(page.getByText('Preview of a draft')).toBeVisible();

  const spectator = await browser.newPage();
  await spectator.goto(`${server.url}/?lng=en#/events/demo-city-run/cms/main/e2e-shuttle`);
  await expect(spectator.getByRole('navigation', { name: 'Pages' }).first()).toBeVisible();
  await expect(spectator.getByRole('link', { name: 'Shuttles' })).toHaveCount(0);
  await expect(spectator.getByRole('alert')).toBeVisible();

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Published', { exact: true })).toBeVisible();
  await spectator.reload();
  await expect(spectator.getByRole('heading', { level: 1, name: 'Shuttles' })).toBeVisible();
  await expect(spectator.getByRole('article')).toContainText('Free shuttles');
  await spectator.goto(`${server.url}/?lng=fr#/events/demo-city-run/cms/main/e2e-shuttle`);
  await spectator.reload();
  await expect(spectator.getByRole('heading', { level: 1, name: 'Navettes' })).toBeVisible();
  await expect(spectator.getByRole('article')).toContainText('Navettes gratuites');
  expect(await spectator.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
  await expect(spectator.locator('article script, article [onerror]')).toHaveCount(0);
});

test('the diagnostics page shows the configuration and a connected realtime client', async ({ page }) => {
  await page.goto(`${server.url}/?lng=en#/test`);
  await expect(page.getByRole('heading', { level: 1, name: 'Diagnostics' })).toBeVisible();
  await expect(page.getByText('connected', { exact: true })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText('prod', { exact: true }).first()).toBeVisible();
});

test('an organiser adds a contact and a stream; a stream from a host not allowed is refused', async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`${server.url}/?lng=en#/events/demo-city-run/contact`);
  await page.getByRole('button', { name: 'Add a contact' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Role').fill('Medical');
  await dialog.getByLabel('Name').fill('Dr Lena Peeters');
  await dialog.getByLabel('E-mail').fill('not-an-email');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Check this value.')).toBeVisible();
  await dialog.getByLabel('E-mail').fill('medical@demo-city-run.test');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Organising team' })).toContainText('Dr Lena Peeters');

  await page.goto(`${server.url}/?lng=en#/results/demo-city-run/youtube`);
  await page.getByRole('button', { name: 'Add a stream' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title').fill('Podium');
  await dialog.getByLabel('Address (URL)').fill('https://evil.example/watch?v=abc');
  await dialog.getByLabel('Starts').fill('2030-05-01T10:00');
  await dialog.getByLabel('Ends').fill('2030-05-01T11:00');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Check this value.')).toBeVisible();
  await dialog.getByLabel('Address (URL)').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Schedule' }).locator('..')).toContainText('Podium');
});
