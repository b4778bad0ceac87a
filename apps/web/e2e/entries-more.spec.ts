import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { startMollieStub } from '../../server/test/mollie-stub.ts';
import { mailLink, post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

// Issue 38, what online entries still lacked, on a 390 px phone in French: an account created on
// the way (sign up from the entry page, the e-mail verified, back to the form of the race chosen
// with the e-mail typed), dates typed and shown as jj/mm/aaaa (not Chromium's en-US pickers) in the
// entry form and the settings form, the numbered invoice linked from the confirmation and My
// entries, and a deferral carried over to the next edition (the credit's code, entering with it).
const SLOW = { timeout: 60_000 };
const SHOTS = path.resolve(import.meta.dirname, '../../../.tmp/screens-38b');
const PASSWORD = 'correct horse battery 38b';
const EVENT = 'course-38b';
const TEN_K = 'course-38b-10k';
const NEXT = 'suite-38b';
const NEXT_5K = 'suite-38b-5k';

const mollie = startMollieStub();
let server: RunningServer;
let organiser: string;

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** A phone in French, signed out. */
async function phone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
  });
  const page = await context.newPage();
  await page.route('https://www.mollie.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<html><body><h1>Mollie (test)</h1></body></html>' }),
  );
  return page;
}

async function signIn(page: Page, email: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Mot de passe').fill(PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

/** Pays the order on screen with Mollie: the checkout, then Mollie's webhook, then the way back. */
async function payWithMollie(page: Page) {
  const orderUrl = page.url();
  await page.getByRole('button', { name: 'Payer avec Mollie' }).click();
  await expect(page.getByRole('heading', { name: 'Mollie (test)' })).toBeVisible(SLOW);
  const id = /select-method\/(tr_\w+)/.exec(page.url())![1]!;
  mollie.payments.get(id)!.status = 'paid';
  const res = await fetch(`${server.url}/api/payments/webhooks/mollie`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `id=${id}`,
  });
  expect(res.ok).toBe(true);
  await page.goto(orderUrl);
}

async function put(url: string, body: unknown) {
  const res = await fetch(`${server.url}${url}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${organiser}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

test.describe('online entries: what was still missing, on a phone in French', () => {
  test.beforeAll(async () => {
    const url = await mollie.listen();
    server = await startServer({
      MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz',
      MOLLIE_API_URL: url,
      NODE_TLS_REJECT_UNAUTHORIZED: '0',
    });
    organiser = await verifiedAccount(server, 'organiser-38b@example.test', PASSWORD, true);
    const org = await post<{ id: string }>(
      server,
      '/api/console/organisations',
      { name: 'Les Foulées 38b', country: 'BE', contactEmail: 'organiser-38b@example.test' },
      organiser,
    );
    for (const [event, name, date, race, raceName] of [
      [EVENT, 'Foulées 2027', '2027-06-06', TEN_K, '10 km'],
      [NEXT, 'Foulées 2028', '2028-06-04', NEXT_5K, '5 km'],
    ] as const) {
      await post(
        server,
        `/api/console/organisations/${org.id}/events`,
        {
          id: event,
          name,
          startDate: date,
          endDate: date,
          timeZone: 'Europe/Brussels',
          visibility: 'public',
          status: 'upcoming',
        },
        organiser,
      );
      await post(server, `/api/console/events/${event}/contexts`, { db: `${event}-ctx`, name }, organiser);
      await post(
        server,
        `/api/results/contexts/${event}-ctx/races`,
        {
          id: race,
          name: raceName,
          date,
          distanceM: 10_000,
          startType: 'mass',
          points: [{ key: 'finish', name: 'Arrivée', distanceM: 10_000 }],
        },
        organiser,
      );
    }
    await put(`/api/entries/staff/events/${EVENT}/settings`, {
      policy: { deferUntil: '2027-06-01', deferFeeCents: 500 },
      races: [
        {
          raceId: TEN_K,
          opensAt: '2020-01-01T00:00:00.000Z',
          closesAt: '2027-06-01T00:00:00.000Z',
          capacity: 100,
          prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 2500 }] },
          required: ['birthDate', 'gender'],
        },
      ],
    });
    await put(`/api/entries/staff/events/${NEXT}/settings`, {
      races: [
        {
          raceId: NEXT_5K,
          opensAt: '2020-01-01T00:00:00.000Z',
          closesAt: '2028-06-01T00:00:00.000Z',
          capacity: 100,
          prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 3000 }] },
        },
      ],
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await mollie.close();
  });

  test('an account made on the way, dates in French, the invoice, a deferral carried over', async ({
    browser,
  }) => {
    test.setTimeout(900_000);
    const email = 'lea-38b@example.test';
    const runner = await phone(browser);
    // Signed out, the runner chooses the 10 km and creates an account on the way.
    await runner.goto(`${server.url}/?lng=fr#/entries/${EVENT}`);
    await runner.getByTestId(`race-${TEN_K}`).getByRole('button', { name: 'S’inscrire' }).click();
    await expect(runner.getByTestId('sign-in-to-enter')).toBeVisible(SLOW);
    await runner.getByRole('button', { name: 'Créer un compte' }).click();
    await expect(runner.getByRole('heading', { level: 1 })).toHaveText('Créer un compte', SLOW);
    await runner.getByLabel('E-mail').fill(email);
    await runner.getByLabel('Mot de passe').fill(PASSWORD);
    await runner.getByRole('button', { name: 'Créer mon compte' }).click();
    await expect(runner.getByRole('heading', { level: 1 })).toHaveText('Vérifiez votre e-mail', SLOW);
    // The link of the e-mail (printed by the development server) leads back to the race's form.
    const link = await mailLink(server, email, 'verifyEmail');
    expect(decodeURIComponent(link)).toContain(`next=/entries/${EVENT}?race=${TEN_K}`);
    await runner.goto(`${server.url}/?lng=fr${link}`);
    await expect(runner).toHaveURL(new RegExp(`#/entries/${EVENT}\\?race=${TEN_K}`), SLOW);
    // Verified but not signed in yet: signing in comes back to the same form.
    await runner.getByTestId('sign-in-to-enter').getByRole('button', { name: 'Se connecter' }).click();
    await signIn(runner, email);
    await expect(runner).toHaveURL(new RegExp(`#/entries/${EVENT}\\?race=${TEN_K}`), SLOW);
    const form = runner.getByTestId('runner-0');
    await expect(form).toBeVisible(SLOW);
    // What was typed on the way: the e-mail of the account.
    await expect(form.getByLabel('E-mail', { exact: true })).toHaveValue(email);

    // The birth date as jj/mm/aaaa (the browser's locale is en-US: no mm/dd/yyyy picker).
    const birth = form.getByTestId('runner-0-birthDate').locator('input');
    await expect(birth).toHaveAttribute('placeholder', 'jj/mm/aaaa');
    await expect(birth).toHaveAttribute('inputmode', 'numeric');
    await birth.pressSequentially('31021990');
    await expect(birth).toHaveValue('31/02/1990');
    await form.getByLabel('Prénom').click();
    await expect(form.getByText('Une date au format jj/mm/aaaa.')).toBeVisible();
    await birth.fill('');
    await birth.pressSequentially('01051990');
    await expect(birth).toHaveValue('01/05/1990');
    await form.getByLabel('Prénom').fill('Léa');
    await expect(form.getByText('Une date au format jj/mm/aaaa.')).toHaveCount(0);
    await form.getByLabel('Nom', { exact: true }).fill('Martin');
    await form.getByLabel(/^Sexe/).click();
    await runner.getByRole('option', { name: 'Femme' }).click();
    await shot(runner, 'entry-form-390-fr');
    await runner.getByRole('button', { name: 'Voir le récapitulatif' }).click();
    await expect(runner).toHaveURL(/#\/entries\/orders\/\d+/, SLOW);
    await payWithMollie(runner);
    await expect(runner.getByText('Vous êtes inscrit !')).toBeVisible(SLOW);
    const confirmation = runner.url().slice(runner.url().indexOf('#'));

    // The numbered invoice, from the confirmation page.
    const invoice = runner.waitForEvent('download');
    await runner.getByTestId('invoice').click();
    const pdf = fs.readFileSync((await (await invoice).path())!);
    expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
    await shot(runner, 'confirmation-390-fr');
    // The birth date stored as typed (1 May 1990), as the organiser sees it.
    const entries = await fetch(`${server.url}/api/entries/staff/events/${EVENT}/entries`, {
      headers: { authorization: `Bearer ${organiser}` },
    });
    expect(JSON.stringify(await entries.json())).toContain('1990-05-01');

    // The organiser's settings: dates as jj/mm/aaaa hh:mm in the event's zone; the next edition.
    const org = await phone(browser);
    await org.goto(`${server.url}/?lng=fr#/login`);
    await signIn(org, 'organiser-38b@example.test');
    await expect(org).not.toHaveURL(/#\/login/, SLOW);
    await org.goto(`${server.url}/?lng=fr#/console/events/${EVENT}/entries`);
    await org.getByRole('tab', { name: 'Réglages des inscriptions' }).click();
    const race = org.getByTestId(`settings-race-${TEN_K}`);
    await expect(race.getByLabel('Ouverture')).toHaveValue('01/01/2020 01:00', SLOW);
    await expect(race.getByLabel('Ouverture')).toHaveAttribute('placeholder', 'jj/mm/aaaa hh:mm');
    await expect(race.getByLabel('Clôture')).toHaveValue('01/06/2027 02:00');
    await race.getByLabel('Clôture').fill('');
    await race.getByLabel('Clôture').pressSequentially('310520272330');
    await expect(race.getByLabel('Clôture')).toHaveValue('31/05/2027 23:30');
    await expect(org.getByLabel('Reporter jusqu’au')).toHaveValue('01/06/2027');
    // A date and time is whole in its field on the phone (nothing cut).
    for (const input of await org.locator('input[placeholder="jj/mm/aaaa hh:mm"]').all())
      expect(await input.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await org.getByRole('combobox', { name: /Prochaine édition/ }).click();
    await org.getByRole('option', { name: /Foulées 2028/ }).click();
    await org.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(org.getByText('Enregistré.')).toBeVisible(SLOW);
    await org.reload();
    await org.getByRole('tab', { name: 'Réglages des inscriptions' }).click();
    await expect(org.getByTestId(`settings-race-${TEN_K}`).getByLabel('Clôture')).toHaveValue(
      '31/05/2027 23:30',
      SLOW,
    );
    await expect(org.getByRole('combobox', { name: /Prochaine édition/ })).toContainText('Foulées 2028');
    await shot(org, 'settings-390-fr');

    // The runner defers: 25 € paid less the 5 € fee is a credit of 20 € for Foulées 2028.
    await runner.goto(`${server.url}/?lng=fr#/me/entries`);
    await expect(runner.getByTestId('my-entry').getByRole('button', { name: 'Facture (PDF)' })).toBeVisible(
      SLOW,
    );
    await runner.getByTestId('my-entry').first().getByRole('link').first().click();
    await runner.getByTestId('action-defer').click();
    await runner.getByRole('button', { name: 'Vérifier' }).click();
    await expect(runner.getByTestId('action-quote')).toHaveText(
      'Rien à payer : un crédit de report de 20,00 € pour la prochaine édition (ce que vous avez payé, moins les frais).',
      SLOW,
    );
    await runner.getByRole('button', { name: 'Confirmer' }).click();
    await expect(runner.getByTestId('entry-state')).toHaveText('Reportée', SLOW);
    await runner.goto(`${server.url}/?lng=fr#/me/entries`);
    const credit = runner.getByTestId('entry-credit');
    await expect(credit).toContainText('Crédit de report pour la prochaine édition : 20,00 €', SLOW);
    await expect(credit.getByTestId('credit-code')).toHaveText(/^CR[0-9A-Z]{20}$/);
    const code = await credit.getByTestId('credit-code').innerText();
    await shot(runner, 'mine-credit-390-fr');
    await runner.setViewportSize({ width: 1280, height: 844 });
    await runner.goto(`${server.url}/?lng=en#/me/entries`);
    await expect(runner.getByTestId('credit-code')).toHaveText(code, SLOW);
    await shot(runner, 'mine-credit-1280-en');
    await runner.setViewportSize({ width: 390, height: 844 });
    await runner.goto(`${server.url}/?lng=fr#/me/entries`);
    // Entering the next edition with it: the code filled in, 30 € − 20 € = 10 € to pay.
    await credit.getByTestId('enter-next').click();
    await expect(runner).toHaveURL(new RegExp(`#/entries/${NEXT}\\?code=${code}`), SLOW);
    await runner.getByTestId(`race-${NEXT_5K}`).getByRole('button', { name: 'S’inscrire' }).click();
    await expect(runner.getByTestId('credit-filled')).toBeVisible(SLOW);
    await expect(runner.getByTestId('runner-0').getByLabel('Code promo')).toHaveValue(code);
    await runner.getByTestId('runner-0').getByLabel('Prénom').fill('Léa');
    await runner.getByTestId('runner-0').getByLabel('Nom', { exact: true }).fill('Martin');
    await runner.getByRole('button', { name: 'Voir le récapitulatif' }).click();
    await expect(runner.getByTestId('order-total')).toHaveText('Total : 10,00 €', SLOW);
    await payWithMollie(runner);
    await expect(runner.getByText('Vous êtes inscrit !')).toBeVisible(SLOW);
    await runner.goto(`${server.url}/?lng=fr#/me/entries`);
    await expect(runner.getByTestId('entry-credit')).toContainText(
      'Crédit de report utilisé pour Foulées 2028.',
      SLOW,
    );

    // The pages changed, on a phone and a desktop, in both languages (looked at by people).
    for (const width of [390, 1280])
      for (const lng of ['en', 'fr'] as const) {
        await runner.setViewportSize({ width, height: 844 });
        await org.setViewportSize({ width, height: 844 });
        await runner.goto(`${server.url}/?lng=${lng}#/me/entries`);
        await expect(runner.getByTestId('entry-credit')).toBeVisible(SLOW);
        await shot(runner, `mine-${width}-${lng}`);
        await runner.getByTestId('my-entry').last().getByRole('link').first().click();
        await expect(runner.getByTestId('entry-state')).toBeVisible(SLOW);
        await shot(runner, `entry-${width}-${lng}`);
        await runner.goto(`${server.url}/?lng=${lng}#/entries/${EVENT}?race=${TEN_K}`);
        await expect(runner.getByTestId('runner-0')).toBeVisible(SLOW);
        await shot(runner, `entry-form-${width}-${lng}`);
        await runner.goto(`${server.url}/?lng=${lng}${confirmation}`);
        await expect(runner.getByTestId('invoice')).toBeVisible(SLOW);
        // Deferred since it was paid: not "the hold expired".
        await expect(
          runner.getByText(lng === 'fr' ? /La réservation a expiré/ : /The hold expired/),
        ).toHaveCount(0);
        await shot(runner, `confirmation-${width}-${lng}`);
        await org.goto(`${server.url}/?lng=${lng}#/console/events/${EVENT}/entries`);
        await org
          .getByRole('tab', { name: lng === 'fr' ? 'Réglages des inscriptions' : 'Registration settings' })
          .click();
        await expect(org.getByTestId(`settings-race-${TEN_K}`)).toBeVisible(SLOW);
        await shot(org, `settings-${width}-${lng}`);
      }
  });
});
