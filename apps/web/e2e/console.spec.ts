import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { mailLink, verifiedAccount } from './api.ts';
import { keyLikeTexts } from './key-like.ts';
import { type RunningServer, startServer } from './server.ts';
import { workbook } from './xlsx.ts';

/**
 * Issue 14, the organiser's journey from an empty database (`SEED_DEMO=false`), in the browser
 * only: sign up, verify, found an organisation, invite a colleague who joins (a staff member, no
 * platform staff) and sets the event up — its context (created with it) and a marathon (gun time, five timing points,
 * a GPX course, age-group categories from a template), 2,000 participants from an XLSX with
 * French column names (mapping, a preview reporting a duplicate and a bad date, the valid rows
 * imported), the missing bibs from a range, an inline edit with its history, a result list whose
 * gun time is typed in the event's zone — then publishes it, and an anonymous spectator finds the
 * report list and the start list in both languages. The colleague's browser runs in New York's
 * time zone, the event in Brussels': every time of day is entered and shown in Brussels time.
 */
let server: RunningServer;
// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take a destructured first argument.
test.beforeAll(async ({}, testInfo) => {
  // A loaded machine may take longer than the default to start (E2E_READY_TIMEOUT_MS).
  testInfo.setTimeout(Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000) + 30_000);
  server = await startServer({ SEED_DEMO: 'false' });
});
test.afterAll(async () => {
  await server?.stop();
});

const PASSWORD = 'a long organiser password';
const EVENT = 'brussels-marathon-2026';
const SHOTS = process.env.SCREENSHOTS ? path.resolve(import.meta.dirname, '../../../.tmp/screens') : null;
/** The colleague's browser zone: not the event's (Europe/Brussels, six hours ahead). */
const BROWSER_ZONE = 'America/New_York';
/** The staff member who sets the event up (kept for the screens test). */
let staff = '';

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
}

/** A Boston-format result list of two finishers (and a row it cannot read). */
function bostonCsv(): string {
  const splits = '0:15:25,0:30:28,0:45:44,1:01:15,1:04:35,1:16:59,1:33:01,1:48:19,2:02:53';
  return [
    'Bib,Name,Age,M/F,City,State,Country,Citizen,,5K,10K,15K,20K,Half,25K,30K,35K,40K,Pace,Proj Time,Official Time,Overall,Gender,Division',
    `3,"Desisa, Lelisa",25,M,Ambo,,ETH,,,${splits},0:04:57,-,2:09:17,1,1,1`,
    '4,broken,row',
    `5,"Keitany, Mary",33,F,Iten,,KEN,,,${splits},0:04:57,-,2:25:07,1,1,1`,
  ].join('\n');
}

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

/**
 * Signs up by clicking from the sign-in page (issue 29). The link's navigation is rendered in a
 * React transition (HashRouter wraps history updates in `startTransition`), so the sign-in form —
 * whose fields carry the same labels, "E-mail" and "Password" — stays on screen until the register
 * page commits; on a loaded machine typing right after the click filled the sign-in form, and the
 * register form then submitted empty (the CI flake: the "Create an account" heading stayed). The
 * register page's heading is awaited before typing.
 */
async function signUpByClicking(page: Page, email: string, lng: 'en' | 'fr') {
  const words =
    lng === 'en'
      ? {
          link: 'Create an account',
          email: 'E-mail',
          password: 'Password',
          submit: 'Create my account',
          verify: 'Verify your e-mail',
        }
      : {
          link: 'Créer un compte',
          email: 'E-mail',
          password: 'Mot de passe',
          submit: 'Créer mon compte',
          verify: 'Vérifiez votre e-mail',
        };
  await page.getByRole('link', { name: words.link }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.link);
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: words.submit }) });
  await form.getByLabel(words.email).fill(email);
  await form.getByLabel(words.password).fill(PASSWORD);
  await form.getByRole('button', { name: words.submit }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.verify);
}

async function signIn(page: Page, email: string, hash = '#/console') {
  await page.goto(`${server.url}/?lng=en${hash}`);
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('sign up → organisation → a colleague joins → event, marathon, points, GPX, categories, 2,000 participants, bibs, a result list → public in both languages', async ({
  browser,
  page,
}) => {
  test.setTimeout(600_000);
  // Its own server (an empty database), not the fixtures' demo one: console errors collected here.
  const consoleErrors: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (msg) => msg.type() === 'error' && consoleErrors.push(msg.text()));
    p.on('pageerror', (err) => consoleErrors.push(err.message));
  };
  watch(page);
  const owner = `owner-${Date.now()}@example.org`;
  staff = `staff-${Date.now()}@example.org`;

  // Sign up and verify; the console is the remembered route.
  await page.goto(`${server.url}/?lng=en#/console`);
  await expect(page).toHaveURL(/#\/login$/);
  await signUpByClicking(page, owner, 'en');
  await page.goto(`${server.url}/?lng=en${await mailLink(server, owner, 'verifyEmail')}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('E-mail verified');
  await signIn(page, owner);

  // No runner profile is asked of an organiser (issue 29: it is asked when a race is entered):
  // no organisation yet, the console offers to create one.
  await expect(page).toHaveURL(/#\/console$/);
  await expect(page.getByText('You are not a member of any organisation yet')).toBeVisible();
  const create = page.getByRole('form', { name: 'New organisation' });
  await create.getByLabel('Name').fill('Brussels Running Club');
  // A country picker (issue 29): the name in the interface language gives the ISO code.
  await create.getByLabel('Country').fill('Belgi');
  await page.getByRole('option', { name: 'Belgium' }).click();
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
  const colleague = await (await browser.newContext({ timezoneId: BROWSER_ZONE })).newPage();
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
  // The zone comes from the organisation's country (Belgium has one: issue 43), not UTC.
  await expect(dialog.getByLabel('Time zone')).toHaveValue('Europe/Brussels');
  await dialog.getByRole('button', { name: 'Create the event' }).click();
  await expect(colleague).toHaveURL(/#\/console\/events\/brussels-marathon-2026$/);
  await expect(colleague.getByText('Draft', { exact: true })).toBeVisible();

  // The event came with its timing context (issue 29), then the marathon with its gun time in the
  // event's zone.
  await colleague.getByTestId('event-nav-races').click();
  await expect(colleague.getByText(EVENT, { exact: true })).toBeVisible();
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

  // The gun time is the event's (Brussels) time of day in a New York browser, after a reload too.
  await colleague.goBack();
  await colleague.reload();
  const details = colleague.getByRole('form', { name: 'Race', exact: true });
  await expect(details.getByLabel('Gun time')).toHaveValue('09:30:00');
  expect(await colleague.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(BROWSER_ZONE);

  // 2,000 participants from an XLSX with French column names, into the marathon.
  await colleague.getByTestId('event-nav-participants').click();
  await colleague.getByRole('link', { name: 'Import', exact: true }).click();
  await expect(colleague.getByRole('heading', { level: 2, name: 'Imports', exact: true })).toBeVisible();
  await colleague.getByTestId('import-file').setInputFiles(await workbook());
  // The workbook is read in the browser (2,001 rows): seconds on a loaded CI machine.
  await expect(colleague.getByRole('heading', { name: /inscriptions-2026\.xlsx: 2001 rows/ })).toBeVisible({
    timeout: 45_000,
  });
  await expect(colleague.getByRole('combobox', { name: 'First name *' })).toHaveText('Prénom');
  await expect(colleague.getByRole('combobox', { name: 'Birth date' })).toHaveText('Date de naissance');
  await expect(colleague.getByRole('combobox', { name: 'Race' })).toHaveText('Marathon');
  await colleague.getByRole('button', { name: 'Check every row' }).click();
  const problems = colleague.getByRole('list', { name: 'Rows with errors or warnings' });
  await expect(colleague.getByText('1999 valid', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(colleague.getByText('2 with errors', { exact: true })).toBeVisible();
  await expect(problems).toContainText('Line 1502 — 2500 Élodie Dupré-15');
  await expect(problems).toContainText("Birth date: '31/02/1990' is not a date");
  await expect(problems).toContainText('Line 2002 — 5000 Jean Dupré');
  await expect(problems).toContainText('Same name and birth date as line 3');
  await colleague.getByRole('radio', { name: /Import the 1999 valid rows/ }).check();
  await colleague.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(
    colleague.getByRole('status').filter({ hasText: '1999 participants imported (2 row(s) skipped)' }),
  ).toBeVisible({ timeout: 90_000 });

  // The missing bibs from a range.
  await colleague.getByRole('link', { name: 'See the participants' }).click();
  await expect(colleague.getByRole('heading', { level: 2, name: 'Participants' })).toBeVisible();
  await expect(colleague.getByText('1999 participants')).toBeVisible();
  await colleague.getByLabel('Without a bib').check();
  await expect(colleague.getByText('200 participants')).toBeVisible();
  await colleague.getByRole('button', { name: 'Assign bibs' }).click();
  const bibs = colleague.getByRole('dialog', { name: 'Assign bibs from a range' });
  await bibs.getByRole('combobox', { name: 'Race' }).click();
  await colleague.getByRole('option', { name: /^Marathon/ }).click();
  await bibs.getByLabel('First bib').fill('3000');
  await bibs.getByLabel('Last bib').fill('3999');
  await bibs.getByRole('button', { name: 'Assign' }).click();
  await expect(bibs.getByRole('status')).toHaveText('200 bibs assigned; 0 runner(s) still without one.');
  await bibs.getByRole('button', { name: 'Close' }).click();
  await expect(colleague.getByText('0 participants')).toBeVisible();
  await colleague.getByLabel('Without a bib').uncheck();

  // An inline edit, with its history (who: the staff member); the search ignores accents and case.
  await colleague.getByRole('searchbox', { name: 'Search' }).fill('MARTIN-15 hugo');
  const grid = colleague.getByTestId('participant-grid');
  await expect(colleague.getByText('1 participant', { exact: true })).toBeVisible();
  await grid.getByRole('button', { name: /^Club of Hugo Martin-15/ }).click();
  await grid.getByRole('textbox', { name: 'Club of Hugo Martin-15' }).fill('Liège Athlétisme');
  await grid.getByRole('textbox', { name: 'Club of Hugo Martin-15' }).press('Enter');
  await expect(grid.getByRole('button', { name: /^Club of Hugo Martin-15: Liège Athlétisme/ })).toBeVisible();
  await grid.getByRole('button', { name: 'History of Hugo Martin-15' }).click();
  await expect(colleague.getByRole('dialog')).toContainText('Club: AC Liège → Liège Athlétisme');
  await expect(colleague.getByRole('dialog')).toContainText(staff);
  await colleague.getByRole('button', { name: 'Close' }).click();

  // A result list: its gun time typed as Brussels' clocks showed it, in the New York browser.
  await colleague.getByRole('link', { name: 'Import', exact: true }).click();
  await colleague.getByRole('tab', { name: 'Result lists' }).click();
  const results = colleague.getByRole('tabpanel');
  await results.getByLabel('Race name').fill('Boston test list');
  await results.getByLabel('Race date').fill('2026-10-03');
  await results.getByLabel('Gun time').fill('2026-10-03T10:00:00');
  await expect(results.getByText('In the event’s time zone (Europe/Brussels)')).toBeVisible();
  await results.locator('input[type=file]').setInputFiles({
    name: 'boston.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(bostonCsv()),
  });
  await results.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(results.getByRole('status')).toContainText('2 runners and');
  await expect(results.getByRole('status')).toContainText('1 row(s) refused');
  await expect(results.getByRole('list', { name: 'Rows with errors or warnings' })).toContainText('Line 3');
  await colleague.getByTestId('event-nav-races').click();
  await colleague.getByRole('link', { name: /^Boston test list/ }).click();
  await expect(colleague.getByRole('form', { name: 'Race', exact: true }).getByLabel('Gun time')).toHaveValue(
    '10:00:00',
  );

  // Still a draft: a spectator finds nothing. Published: the report list shows the race.
  const spectator = await (await browser.newContext()).newPage();
  await spectator.goto(`${server.url}/?lng=en#/events/brussels-marathon-2026/reportlist`);
  await expect(spectator.getByRole('alert')).toBeVisible();
  await colleague.getByTestId('event-nav-details').click();
  await colleague.getByLabel('Published').check();
  await colleague.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(colleague.getByText('Public', { exact: true })).toBeVisible();

  await spectator.reload();
  // The marathon's reports (the result list made a second race: its own section).
  const marathon = spectator
    .locator('section')
    .filter({ has: spectator.getByRole('heading', { name: 'Marathon', exact: true, level: 2 }) });
  await expect(marathon.getByRole('link', { name: 'Overall' })).toBeVisible();
  // A category report reads in words (issue 29), not "M 40-44" nor its key CAT-M40-44.
  await expect(marathon.getByRole('link', { name: 'Men 40–44', exact: true })).toBeVisible();
  await expect(spectator.getByRole('heading', { name: 'Boston test list', level: 2 })).toBeVisible();
  await spectator.goto(`${server.url}/?lng=fr#/events/brussels-marathon-2026/reportlist`);
  await spectator.reload();
  await expect(marathon.getByRole('link', { name: 'Classement général' })).toBeVisible();
  await expect(marathon.getByRole('link', { name: 'Hommes 40–44' })).toBeVisible();
  await expect(marathon.getByRole('link', { name: 'Liste de départ' })).toBeVisible();

  // The start list of the marathon shows the imported runners, their bibs, in both languages.
  for (const [lng, title] of [
    ['en', 'Start list'],
    ['fr', 'Liste de départ'],
  ] as const) {
    await spectator.goto(`${server.url}/?lng=${lng}#/events/${EVENT}/reportlist`);
    await spectator
      .locator('section')
      .filter({ has: spectator.getByRole('heading', { name: 'Marathon', exact: true }) })
      .getByRole('link', { name: title })
      .click();
    await expect(spectator).toHaveURL(/group\/marathon\/report\/START/);
    await spectator.getByRole('searchbox').fill('Martin-15');
    await expect(spectator.getByTestId('report-table')).toContainText('MARTIN-15 Hugo');
    await expect(spectator.getByTestId('report-table')).toContainText('Liège Athlétisme');
  }

  expect(consoleErrors).toEqual([]);
});

/**
 * Issue 29: the same journey in French, for a second organisation on the same (empty) server —
 * organisation, event, race, categories, participants import, publication, public start list —
 * where every page shows words and never an i18n key, and every save is confirmed.
 */
test('le parcours de l’organisateur en français : des mots, pas des clés, et chaque enregistrement confirmé', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const email = `organisatrice-${Date.now()}@example.org`;
  const page = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const noKeys = async (where: string) => expect(await keyLikeTexts(page), where).toEqual([]);
  const saved = page.getByRole('status').filter({ hasText: 'Enregistré.' });

  // Issue 29: the journey starts with the sign-up, by clicking, in French.
  await page.goto(`${server.url}/?lng=fr#/console`);
  await expect(page).toHaveURL(/#\/login$/);
  await noKeys('connexion');
  await signUpByClicking(page, email, 'fr');
  await noKeys('inscription');
  await page.goto(`${server.url}/?lng=fr${await mailLink(server, email, 'verifyEmail')}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('E-mail vérifié');
  await page.goto(`${server.url}/?lng=fr#/console`);
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Mot de passe').fill(PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();

  // The organisation, its country picked by its French name.
  await expect(page).toHaveURL(/#\/console$/);
  await noKeys('console vide');
  const create = page.getByRole('form', { name: 'Nouvelle organisation' });
  await create.getByLabel('Nom').fill('Namur Course à pied');
  await create.getByLabel('Pays').fill('Belgi');
  await page.getByRole('option', { name: 'Belgique' }).click();
  await create.getByLabel('E-mail de contact').fill('info@ncp.example');
  await create.getByRole('button', { name: "Créer l'organisation" }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Namur Course à pied');
  await noKeys('organisation');

  // The event, then its race.
  await page.getByRole('button', { name: 'Nouvel événement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nouvel événement' });
  await dialog.getByRole('textbox', { name: 'Nom', exact: true }).fill('Marathon de Namur');
  await dialog.getByLabel('Premier jour').fill('2026-11-08');
  await dialog.getByLabel('Lieu').fill('Namur');
  // Le fuseau vient du pays de l'organisation (issue 43), pas UTC.
  await expect(dialog.getByLabel('Fuseau horaire')).toHaveValue('Europe/Brussels');
  await noKeys('nouvel événement');
  await dialog.getByRole('button', { name: "Créer l'événement" }).click();
  await expect(page).toHaveURL(/#\/console\/events\/[\w-]+$/);
  const eventId = /#\/console\/events\/([\w-]+)$/.exec(page.url())![1]!;
  await expect(page.getByText('Brouillon', { exact: true })).toBeVisible();
  await noKeys('événement');

  await page.getByTestId('event-nav-races').click();
  await page.getByRole('button', { name: 'Nouvelle course' }).click();
  const race = page.getByRole('dialog', { name: 'Nouvelle course' });
  await race.getByRole('textbox', { name: 'Nom', exact: true }).fill('Marathon');
  await race.getByLabel('Distance (km)').fill('42,195');
  await race.getByLabel('Heure du coup de pistolet').fill('09:30:00');
  await noKeys('nouvelle course');
  await race.getByRole('button', { name: 'Créer la course' }).click();
  await expect(page).toHaveURL(/races\/[\w-]+$/);
  await noKeys('course');

  // Categories from a template; the save is confirmed.
  const categories = page.getByRole('form', { name: 'Catégories' });
  await categories.getByLabel('Modèle').click();
  await page.getByRole('option', { name: 'Divisions du marathon de Boston' }).click();
  await categories.getByRole('button', { name: 'Générer (remplace la liste)' }).click();
  await categories.getByRole('button', { name: 'Enregistrer les catégories' }).click();
  await expect(saved).toBeVisible();
  await noKeys('catégories');

  // Participants from the XLSX with French column names.
  await page.getByTestId('event-nav-participants').click();
  await noKeys('participants');
  await page.getByRole('link', { name: 'Importer', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Imports', exact: true })).toBeVisible();
  await page.getByTestId('import-file').setInputFiles(await workbook());
  await expect(page.getByRole('heading', { name: /inscriptions-2026\.xlsx : 2001 lignes/ })).toBeVisible({
    timeout: 45_000,
  });
  await noKeys('correspondance des colonnes');
  await page.getByRole('button', { name: 'Vérifier chaque ligne' }).click();
  await expect(page.getByText('1999 valides', { exact: true })).toBeVisible({ timeout: 60_000 });
  await noKeys('aperçu de l’import');
  await page.getByRole('radio', { name: /Importer les 1999 lignes valides/ }).check();
  await page.getByRole('button', { name: 'Importer', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: '1999 participants importés (2 ligne(s) ignorée(s)).' }),
  ).toBeVisible({ timeout: 90_000 });
  await noKeys('import terminé');

  // Published; the save is confirmed.
  await page.getByTestId('event-nav-details').click();
  await page.getByLabel('Publié').check();
  await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(saved).toBeVisible();
  await expect(page.getByText('Public', { exact: true })).toBeVisible();
  await noKeys('événement publié');

  // The public start list, in French.
  const spectator = await (await browser.newContext()).newPage();
  await spectator.goto(`${server.url}/?lng=fr#/events/${eventId}/reportlist`);
  await spectator
    .locator('section')
    .filter({ has: spectator.getByRole('heading', { name: 'Marathon', exact: true }) })
    .getByRole('link', { name: 'Liste de départ' })
    .click();
  await expect(spectator).toHaveURL(/report\/START/);
  await spectator.getByRole('searchbox').fill('Martin-15');
  // Runners with a bib from the file (Hugo's row had none: no bibs were assigned here).
  await expect(spectator.getByTestId('report-table')).toContainText('MARTIN-15 Jean');
  expect(await keyLikeTexts(spectator), 'liste de départ publique').toEqual([]);
  expect(errors).toEqual([]);
});

// Every console screen of the journey at desktop and phone width in both languages, for looking
// at (SCREENSHOTS=1 only; after the journey above, on its data, as the staff member).
test('screens of the console', async ({ browser }) => {
  test.skip(!SHOTS || !staff, 'SCREENSHOTS=1 takes them, after the journey');
  test.setTimeout(600_000);
  const page = await (await browser.newContext({ timezoneId: BROWSER_ZONE })).newPage();
  await signIn(page, staff, '#/console');
  await expect(page).toHaveURL(/#\/console$/);
  const file = await workbook();
  for (const [width, height, size] of [
    [1280, 800, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const lng of ['en', 'fr'] as const) {
      const base = `${server.url}/?lng=${lng}#/console`;
      const at = async (hash: string, name: string, ready: () => Promise<unknown>) => {
        await page.goto(`${base}${hash}`);
        await ready();
        await page.waitForTimeout(400); // labels and transitions settled
        await shot(page, `${name}-${size}-${lng}`);
      };
      const h1 = () => page.getByRole('heading', { level: 1 }).waitFor();
      await at('', 'console-home', h1);
      await at(`/events/${EVENT}`, 'event-details', h1);
      await at(`/events/${EVENT}/races`, 'event-races', h1);
      await at(`/events/${EVENT}/races/marathon`, 'race', () => page.getByTestId('course-map').waitFor());
      await page.getByTestId('point-row-0').scrollIntoViewIfNeeded();
      await shot(page, `race-points-${size}-${lng}`);
      await page
        .getByRole('form', { name: lng === 'en' ? 'Categories' : 'Catégories' })
        .scrollIntoViewIfNeeded();
      await shot(page, `race-categories-${size}-${lng}`);
      await page
        .getByRole('form', { name: lng === 'en' ? 'Finish prediction' : "Prévision de l'arrivée" })
        .scrollIntoViewIfNeeded();
      await shot(page, `race-prediction-${size}-${lng}`);
      await at(`/events/${EVENT}/participants`, 'participants-grid', () =>
        page.getByTestId('participant-grid').getByRole('row').nth(3).waitFor(),
      );
      await at(`/events/${EVENT}/participants/import`, 'import', h1);
      await page.getByTestId('import-file').setInputFiles(file);
      await page
        .getByRole('button', { name: lng === 'en' ? 'Check every row' : 'Vérifier chaque ligne' })
        .click();
      await page.getByTestId('import-problems').waitFor({ timeout: 60_000 });
      await shot(page, `import-preview-${size}-${lng}`);
      await at(`/events/${EVENT}/participants/import?tab=results`, 'result-import', h1);
    }
  }
});
