import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { mailLink, post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 43, what a first-time organiser meets, on rendered pages at 390 and 1280 px in English
 * and French: a language switch on the sign-in page; the developers' mail note worded for them;
 * a new event's zone from the organisation's country, named on the form; a relay with too few
 * legs says why on the legs with the way out; the format's and the desk's labels are not cut;
 * the French desk names the point "Arrivée".
 */
const STAFF = 'staff43@example.org';
const PASSWORD = 'a long organiser password';
const EVENT = 'demo-city-run';
// The test's race goes in the marathon's context: the 10 km's desk keeps its own points.
const DB = 'demo-city-run-marathon';
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;
const SHOTS = path.resolve(import.meta.dirname, '../../../.tmp/issue43');
const W = {
  en: {
    signIn: 'Sign in',
    submit: 'Sign in',
    newEvent: 'New event',
    zoneHelp: /typed and shown in Europe\/Brussels \((CET|CEST)\)/,
    format: 'Race format',
    relay: 'Relay',
    legs: 'A relay needs at least two legs, and this race has 1',
    addPoints: 'Add timing points',
    points: 'Timing points',
    finish: 'Finish',
    devNote: /^Development server: no e-mail is sent/,
  },
  fr: {
    signIn: 'Connexion',
    submit: 'Se connecter',
    newEvent: 'Nouvel événement',
    zoneHelp: /saisis et affichés en Europe\/Brussels \(UTC\+[12]\)/,
    format: 'Format de la course',
    relay: 'Relais',
    legs: 'Un relais demande au moins deux étapes, et cette course en a 1',
    addPoints: 'Ajouter des points de chronométrage',
    points: 'Points de chronométrage',
    finish: 'Arrivée',
    devNote: /^Serveur de développement : aucun e-mail n’est envoyé/,
  },
} as const;

let server: RunningServer;
let token = '';
let orgId = '';
test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF, DEMO_REPLAY: 'false' });
  token = await verifiedAccount(server, STAFF, PASSWORD, true);
  orgId = (
    await post<{ id: string }>(
      server,
      '/api/console/organisations',
      { name: 'Brussels Runners', country: 'BE', contactEmail: STAFF },
      token,
    )
  ).id;
  // A race with a start and a finish only: one leg, too few for a relay.
  await post(
    server,
    `/api/results/contexts/${DB}/races`,
    {
      id: 'e2e-two-points',
      name: 'Two points',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 5000,
      startType: 'mass',
      gunTimeMs: Date.now(),
      points: [
        { key: 'start', name: 'Start', distanceM: 0 },
        { key: 'finish', name: 'Finish', distanceM: 5000 },
      ],
    },
    token,
  );
});
test.afterAll(async () => server?.stop());

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

async function signIn(page: Page, lng: 'en' | 'fr', hash: string) {
  await page.goto(`${server.url}/?lng=${lng}#${hash}`);
  await expect(page).toHaveURL(/#\/login$/);
  await page.getByLabel(lng === 'en' ? 'E-mail' : 'E-mail').fill(STAFF);
  await page.getByLabel(lng === 'en' ? 'Password' : 'Mot de passe').fill(PASSWORD);
  await page.getByRole('button', { name: W[lng].submit }).click();
}

/** Labels of the visible text fields whose text is cut (wider than their box). */
async function cutLabels(page: Page, scope: string) {
  return page
    .locator(`${scope} label`)
    .evaluateAll((labels) =>
      labels
        .filter((l) => (l as HTMLElement).offsetParent !== null && l.scrollWidth > l.clientWidth + 1)
        .map((l) => l.textContent),
    );
}

for (const [size, viewport] of Object.entries(SIZES)) {
  for (const lng of ['en', 'fr'] as const) {
    const w = W[lng];
    const other = lng === 'en' ? 'fr' : 'en';

    test(`${size} ${lng}: the sign-in page switches language; the mail note is for developers`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/?lng=${lng}#/login`);
      await expect(page.getByRole('heading', { level: 1, name: w.signIn })).toBeVisible();
      await shot(page, `sign-in-${size}-${lng}`);
      await page
        .getByTestId('language-switch')
        .getByRole('button', { name: other === 'fr' ? 'Français' : 'English' })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: W[other].signIn })).toBeVisible();
      await page
        .getByTestId('language-switch')
        .getByRole('button', { name: lng === 'fr' ? 'Français' : 'English' })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: w.signIn })).toBeVisible();
      // Sign up: the next page's note says it is a development server (the e2e servers are).
      await page.goto(`${server.url}/?lng=${lng}#/auth/register`);
      await page.getByLabel(/E-mail/).fill(`new-${size}-${lng}@example.org`);
      await page.getByLabel(lng === 'en' ? /^Password/ : /^Mot de passe/).fill(PASSWORD);
      await page
        .getByRole('button', { name: lng === 'en' ? 'Create my account' : 'Créer mon compte' })
        .click();
      await expect(page.getByTestId('dev-mail-hint')).toHaveText(w.devNote);
      // Opened directly (as an end user following a link: a new tab, no history state), the page
      // has no such note. (A reload of the same tab keeps the history entry's state, and with it
      // the note, in some runs.)
      const direct = await page.context().newPage();
      await direct.setViewportSize(viewport);
      await direct.goto(`${server.url}/?lng=${lng}#/auth/message/verify-email`);
      await expect(direct.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(direct.getByTestId('dev-mail-hint')).toHaveCount(0);
      await direct.close();
    });

    test(`${size} ${lng}: a new event's zone is the organisation's country's, named; relay legs say why`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      await signIn(page, lng, `/console/organisations/${orgId}`);
      await page.getByRole('button', { name: w.newEvent }).click();
      const dialog = page.getByRole('dialog', { name: w.newEvent });
      await expect(dialog.getByRole('combobox', { name: /zone|fuseau/i })).toHaveValue('Europe/Brussels');
      await expect(dialog).toContainText(w.zoneHelp);
      await shot(page, `event-zone-${size}-${lng}`);
      await page.keyboard.press('Escape');

      // The race's format: Relay on a race with one leg says why, on the legs, with the way out.
      await page.goto(`${server.url}/?lng=${lng}#/console/events/${EVENT}/races/e2e-two-points#race-format`);
      const form = page.getByRole('form', { name: w.format });
      await expect(form).toBeVisible({ timeout: 20_000 });
      await form.getByRole('combobox', { name: 'Format' }).click();
      await page.getByRole('option', { name: w.relay }).click();
      const why = form.getByTestId('legs-needed');
      await expect(why).toContainText(w.legs);
      await form
        .getByRole('button', { name: lng === 'en' ? 'Save the format' : 'Enregistrer le format' })
        .click();
      await expect(why).toContainText(w.legs);
      await shot(page, `relay-legs-${size}-${lng}`);
      expect(await cutLabels(page, 'form[aria-label]')).toEqual([]);
      await why.getByRole('link', { name: w.addPoints }).click();
      await expect(page).toHaveURL(/#race-points$/);
      await expect(page.getByRole('heading', { name: w.points, level: 3 })).toBeFocused();

      // The demo 10 km (four legs): the legs' fields and their labels fit.
      await page.goto(`${server.url}/?lng=${lng}#/console/events/${EVENT}/races/city-10k#race-format`);
      await expect(form).toBeVisible({ timeout: 20_000 });
      await form.getByRole('combobox', { name: 'Format' }).click();
      await page.getByRole('option', { name: w.relay }).click();
      await expect(form.getByTestId('legs-needed')).toHaveCount(0);
      expect(await cutLabels(page, 'form[aria-label]')).toEqual([]);
      await shot(page, `relay-fields-${size}-${lng}`);

      // The desk names the point in the page's language, and its labels fit.
      await page.goto(`${server.url}/?lng=${lng}#/console/events/${EVENT}/raceday/desk?db=demo-city-run-10k`);
      const point = page.getByRole('combobox', { name: 'Point' }).first();
      await expect(point).toHaveText(w.finish, { timeout: 20_000 });
      expect(await cutLabels(page, 'main')).toEqual([]);
      await shot(page, `desk-${size}-${lng}`);
    });
  }
}

/** The invitation link the server printed for `email` (development prints every mail link). */
async function invitationLink(email: string): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const line = server.logs
      .join('')
      .split('\n')
      .findLast((l) => l.includes('"link"') && l.includes(email) && l.includes('/console/invitations/'));
    const link = line && (JSON.parse(line) as { link: string }).link;
    if (link) return link.slice(link.indexOf('#'));
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no invitation link for ${email}`);
}

for (const lng of ['en', 'fr'] as const) {
  test(`phone ${lng}: an invitation opened signed out names the organisation, role and address, and comes back after verification`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(SIZES.phone);
    const email = `invitee-${lng}@example.org`;
    await post(
      server,
      `/api/console/organisations/${orgId}/invitations`,
      { email, role: 'timekeeper' },
      token,
    );
    const link = await invitationLink(email);
    await page.goto(`${server.url}/?lng=${lng}${link}`);
    await expect(page).toHaveURL(/#\/login$/);
    const note = page.getByTestId('invitation-note');
    await expect(note).toContainText('Brussels Runners');
    await expect(note).toContainText(lng === 'en' ? 'timekeeper' : 'chronométreur');
    await expect(note).toContainText(email);
    await expect(page.getByLabel('E-mail')).toHaveValue(email);
    await shot(page, `invitation-login-phone-${lng}`);
    // No account yet: create it from here; the verification link leads back to the invitation.
    await page.getByRole('link', { name: lng === 'en' ? 'Create an account' : 'Créer un compte' }).click();
    await expect(page.getByTestId('invitation-note')).toContainText('Brussels Runners');
    await expect(page.getByLabel('E-mail')).toHaveValue(email);
    await page.getByLabel(lng === 'en' ? /^Password/ : /^Mot de passe/).fill(PASSWORD);
    await page.getByRole('button', { name: lng === 'en' ? 'Create my account' : 'Créer mon compte' }).click();
    await expect(page.getByTestId('dev-mail-hint')).toBeVisible();
    const verify = await mailLink(server, email, 'verifyEmail');
    expect(verify).toContain('next=%2Fconsole%2Finvitations%2F');
    await page.goto(`${server.url}/?lng=${lng}${verify}`);
    // Verified: on the way back to the invitation, signing in with it named.
    await expect(page).toHaveURL(/#\/login$/);
    await expect(page.getByTestId('invitation-note')).toContainText('Brussels Runners');
    await page.getByLabel(lng === 'en' ? /^Password/ : /^Mot de passe/).fill(PASSWORD);
    await page.getByRole('button', { name: W[lng].submit }).click();
    // The basic profile first (a new account), then the invitation.
    await expect(page).toHaveURL(/#\/(auth\/basic-profile|console\/invitations\/)/, { timeout: 20_000 });
    if (page.url().includes('basic-profile')) {
      await page.getByLabel(lng === 'en' ? 'First name' : 'Prénom').fill('Tim');
      await page.getByLabel(lng === 'en' ? 'Last name' : 'Nom').fill('Keeper');
      await page.getByRole('combobox', { name: lng === 'en' ? 'Gender' : 'Genre' }).click();
      await page.getByRole('option', { name: lng === 'en' ? 'Man' : 'Homme' }).click();
      await page.getByLabel(lng === 'en' ? 'Date of birth' : 'Date de naissance').fill('1980-01-01');
      await page.getByLabel(lng === 'en' ? /^Nationality/ : /^Nationalité/).fill('BEL');
      await page.getByRole('button', { name: lng === 'en' ? 'Save' : 'Enregistrer' }).click();
    }
    await expect(page).toHaveURL(/#\/console\/invitations\//, { timeout: 20_000 });
    await expect(
      page.getByRole('button', { name: lng === 'en' ? 'Accept and join' : 'Accepter et rejoindre' }),
    ).toBeVisible();
    await shot(page, `invitation-back-phone-${lng}`);
  });
}

// The demo without its replay: the marathon is live, its gun gone, nobody timed yet.
for (const [size, viewport] of Object.entries(SIZES)) {
  for (const lng of ['en', 'fr'] as const) {
    test(`${size} ${lng}: a live race before its first split says when the first times come`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto(
        `${server.url}/?lng=${lng}#/events/${EVENT}/reportlist/group/city-marathon/report/LIVE1`,
      );
      const note = page.getByTestId('before-first-times');
      await expect(note).toContainText(
        lng === 'en'
          ? /^Started at \d\d:\d\d CES?T\. First times at 5 km from about \d\d:\d\d CES?T\./
          : /^Parti à \d\d:\d\d UTC\+[12]\. Premiers temps à 5 km vers \d\d:\d\d UTC\+[12]\./,
        { timeout: 20_000 },
      );
      const startList = note.getByRole('link', {
        name: lng === 'en' ? /start list: [\d,]+ runners/ : /liste de départ : [\d\s\u202f]+ coureurs/,
      });
      await shot(page, `before-first-times-${size}-${lng}`);
      await startList.click();
      await expect(page).toHaveURL(/report\/START$/);
      await expect(page.getByTestId('report-table').locator('[aria-rowindex="2"]')).toBeVisible({
        timeout: 20_000,
      });
    });
  }
}
