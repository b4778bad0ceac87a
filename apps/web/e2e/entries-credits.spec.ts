import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { startMollieStub } from '../../server/test/mollie-stub.ts';
import { post, verifiedAccount } from './api.ts';
import { expectFits } from './fits.ts';
import { type RunningServer, startServer } from './server.ts';

// Issue 38, the deferral's and the invoices' last gaps, in the browser: My entries shows the place
// a credit keeps in the next edition (that race full to others), the entry form shows what the
// credit leaves to pay or refunds before confirming, the order page the rest refunded; a refunded
// order's credit note (avoir) beside its invoice; the confirmation e-mail's invoice link; the
// console's manual entry and the pickup's late entry with day-first dates. Screenshots at 390 and
// 1280 px in both languages under .tmp/screens-38c/, each checked for sideways scroll and cut text.
const SLOW = { timeout: 60_000 };
const SHOTS = path.resolve(import.meta.dirname, '../../../.tmp/screens-38c');
const PASSWORD = 'correct horse battery 38c';
const EVENT = 'course-38c';
const TEN_K = 'course-38c-10k';
const NEXT = 'suite-38c';
const NEXT_10K = 'suite-38c-10k';
const NEXT_HALF = 'suite-38c-semi';

const mollie = startMollieStub();
let server: RunningServer;
let organiser: string;

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await expectFits(page, name);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function device(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: 844 },
    isMobile: width < 600,
    hasTouch: width < 600,
    locale: 'en-US',
  });
  return context.newPage();
}

async function signIn(page: Page, email: string) {
  await page.goto(`${server.url}/?lng=fr#/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Mot de passe').fill(PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).not.toHaveURL(/#\/login/, SLOW);
}

async function call(method: 'PUT' | 'POST', url: string, token: string, body: unknown) {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.json();
}

/** Enters this year's 10 km through the API and pays it with Mollie (the stub and its webhook). */
async function enterAndPay(token: string, email: string, firstName: string): Promise<string> {
  const order = await post<{ orderId: string }>(
    server,
    `/api/entries/events/${EVENT}/orders`,
    {
      lang: 'fr',
      runners: [
        { raceId: TEN_K, firstName, lastName: 'Martin', email, birthDate: '1990-05-01', gender: 'F' },
      ],
    },
    token,
  );
  await post(
    server,
    `/api/payments/orders/${order.orderId}/pay`,
    { provider: 'mollie', returnUrl: `${server.url}/#/entries/orders/${order.orderId}` },
    token,
  );
  const id = [...mollie.payments.keys()].pop()!;
  mollie.payments.get(id)!.status = 'paid';
  const res = await fetch(`${server.url}/api/payments/webhooks/mollie`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `id=${id}`,
  });
  expect(res.ok).toBe(true);
  return order.orderId;
}

async function entryCode(token: string): Promise<string> {
  const res = await fetch(`${server.url}/api/entries/mine`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { code: string; eventId: string }[]).find((e) => e.eventId === EVENT)!.code;
}

test.describe('deferral places, credit remainders, credit notes, dates typed day first', () => {
  let lea = '';
  let tom = '';
  let tomOrder = '';

  test.beforeAll(async () => {
    const url = await mollie.listen();
    server = await startServer({
      MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz',
      MOLLIE_API_URL: url,
      NODE_TLS_REJECT_UNAUTHORIZED: '0',
    });
    organiser = await verifiedAccount(server, 'organiser-38c@example.test', PASSWORD, true);
    const org = await post<{ id: string }>(
      server,
      '/api/console/organisations',
      { name: 'Les Foulées 38c', country: 'BE', contactEmail: 'organiser-38c@example.test' },
      organiser,
    );
    for (const [event, name, date, races] of [
      [EVENT, 'Foulées 2027', '2027-06-06', [[TEN_K, '10 km', 10_000]]],
      [
        NEXT,
        'Foulées 2028',
        '2028-06-04',
        [
          [NEXT_10K, '10 km', 10_000],
          [NEXT_HALF, 'Semi-marathon', 21_097],
        ],
      ],
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
      for (const [id, raceName, distanceM] of races)
        await post(
          server,
          `/api/results/contexts/${event}-ctx/races`,
          {
            id,
            name: raceName,
            date,
            distanceM,
            startType: 'mass',
            points: [{ key: 'finish', name: 'Arrivée', distanceM }],
          },
          organiser,
        );
    }
    const thisYear = (nextEventId: string | null) => ({
      policy: {
        deferUntil: '2099-06-01',
        deferFeeCents: 500,
        cancelUntil: '2099-06-01',
        refund: { kind: 'tiers', tiers: [{ until: '2099-06-01', percent: 100 }] },
      },
      nextEventId,
      races: [
        {
          raceId: TEN_K,
          opensAt: '2020-01-01T00:00:00.000Z',
          closesAt: '2099-06-01T00:00:00.000Z',
          capacity: 100,
          prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 2500 }] },
          required: ['birthDate', 'gender'],
        },
      ],
    });
    await call('PUT', `/api/entries/staff/events/${EVENT}/settings`, organiser, thisYear(null));
    // The next edition: a 10 km of one place at 12 €, a half marathon at 30 €.
    await call('PUT', `/api/entries/staff/events/${NEXT}/settings`, organiser, {
      races: [
        {
          raceId: NEXT_10K,
          opensAt: '2020-01-01T00:00:00.000Z',
          closesAt: '2098-06-01T00:00:00.000Z',
          capacity: 1,
          prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 1200 }] },
        },
        {
          raceId: NEXT_HALF,
          opensAt: '2020-01-01T00:00:00.000Z',
          closesAt: '2098-06-01T00:00:00.000Z',
          capacity: 100,
          prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 3000 }] },
        },
      ],
    });
    lea = await verifiedAccount(server, 'lea-38c@example.test', PASSWORD, true);
    tom = await verifiedAccount(server, 'tom-38c@example.test', PASSWORD, true);
    // Léa pays 25 € and defers (a credit of 20 €); Tom pays and cancels (refunded 25 €).
    await enterAndPay(lea, 'lea-38c@example.test', 'Léa');
    await call('POST', `/api/entries/entry/${await entryCode(lea)}/action`, lea, { action: 'defer' });
    tomOrder = await enterAndPay(tom, 'tom-38c@example.test', 'Tom');
    await call('POST', `/api/entries/entry/${await entryCode(tom)}/action`, tom, { action: 'cancel' });
    // The organiser names the next edition: Léa's credit keeps the 10 km's one place.
    await call('PUT', `/api/entries/staff/events/${EVENT}/settings`, organiser, thisYear(NEXT));
  });
  test.afterAll(async () => {
    await server?.stop();
    await mollie.close();
  });

  test('the screens, on a phone and a desktop, in both languages', async ({ browser }) => {
    test.setTimeout(900_000);
    const runner = await device(browser, 390);
    const other = await device(browser, 390);
    const org = await device(browser, 390);
    await signIn(runner, 'lea-38c@example.test');
    await signIn(other, 'tom-38c@example.test');
    await signIn(org, 'organiser-38c@example.test');

    // Tom: the credit note of his refund beside the invoice, a PDF.
    await other.goto(`${server.url}/?lng=fr#/me/entries`);
    const note = other.getByTestId('credit-note');
    await expect(note).toHaveText(/^Avoir \d{6} \(PDF\)$/, SLOW);
    await expect(other.getByRole('button', { name: 'Facture (PDF)' })).toBeVisible();
    const download = other.waitForEvent('download');
    await note.click();
    const pdf = fs.readFileSync((await (await download).path())!);
    expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
    expect((await download).suggestedFilename()).toMatch(/^credit-note-\d{6}\.pdf$/);
    // The confirmation e-mail's invoice link: the order page, which downloads the invoice.
    const invoice = other.waitForEvent('download');
    await other.goto(`${server.url}/?lng=fr#/entries/orders/${tomOrder}?invoice=1`);
    expect((await invoice).suggestedFilename()).toMatch(/^invoice-\d{6}\.pdf$/);
    // The next edition's 10 km is full to Tom: its one place is kept for Léa.
    await other.goto(`${server.url}/?lng=fr#/entries/${NEXT}`);
    await expect(other.getByTestId(`race-${NEXT_10K}`)).toContainText('Complet', SLOW);

    // Léa: the place kept for her, then the form with what the credit leaves (12 € of 20 €).
    await runner.goto(`${server.url}/?lng=fr#/me/entries`);
    await expect(runner.getByTestId('credit-place')).toContainText(
      'Une place vous est réservée au 10 km',
      SLOW,
    );
    await runner.getByTestId('enter-next').click();
    await expect(runner).toHaveURL(new RegExp(`#/entries/${NEXT}\\?code=CR\\w+&race=${NEXT_10K}`), SLOW);
    await expect(runner.getByTestId(`race-${NEXT_10K}`)).toContainText('Place réservée pour vous');
    const summary = runner.getByTestId('credit-summary');
    await expect(summary).toContainText(
      'Votre crédit de report 20,00 € · cette inscription 12,00 € · à payer 0,00 €',
      SLOW,
    );
    await expect(summary.getByTestId('credit-rest')).toContainText('Le solde de 8,00 € vous est remboursé');
    const entryForm = runner.url().slice(runner.url().indexOf('#'));

    // The console's manual entry: the birth date typed day first.
    await org.goto(`${server.url}/?lng=fr#/console/events/${EVENT}/entries`);
    await org.getByRole('button', { name: 'Inscription manuelle' }).click();
    const birth = org.getByTestId('manual-birth-date').locator('input');
    await expect(birth).toHaveAttribute('placeholder', 'jj/mm/aaaa', SLOW);
    await birth.pressSequentially('01051990');
    await expect(birth).toHaveValue('01/05/1990');

    for (const width of [390, 1280])
      for (const lng of ['en', 'fr'] as const) {
        for (const p of [runner, other, org]) await p.setViewportSize({ width, height: 844 });
        await runner.goto(`${server.url}/?lng=${lng}#/me/entries`);
        await expect(runner.getByTestId('credit-place')).toBeVisible(SLOW);
        await shot(runner, `mine-place-${width}-${lng}`);
        await runner.goto(`${server.url}/?lng=${lng}${entryForm}`);
        await expect(runner.getByTestId('credit-summary')).toBeVisible(SLOW);
        await shot(runner, `form-credit-${width}-${lng}`);
        await other.goto(`${server.url}/?lng=${lng}#/me/entries`);
        await expect(other.getByTestId('credit-note')).toBeVisible(SLOW);
        await shot(other, `mine-credit-note-${width}-${lng}`);
        await org.goto(`${server.url}/?lng=${lng}#/console/events/${EVENT}/entries`);
        await org
          .getByRole('button', { name: lng === 'fr' ? 'Inscription manuelle' : 'Manual entry' })
          .click();
        await org.getByTestId('manual-birth-date').locator('input').pressSequentially('01051990');
        await shot(org, `manual-entry-${width}-${lng}`);
        await org.goto(`${server.url}/?lng=${lng}#/pickup/${EVENT}`);
        await org.getByRole('tab', { name: lng === 'fr' ? 'Inscription tardive' : 'Late entry' }).click();
        await expect(org.getByLabel(lng === 'fr' ? 'Date de naissance' : 'Birth date')).toHaveAttribute(
          'placeholder',
          lng === 'fr' ? 'jj/mm/aaaa' : 'dd/mm/yyyy',
          SLOW,
        );
        await shot(org, `late-entry-${width}-${lng}`);
        // The next edition's settings: the place kept for the previous edition's deferral.
        await org.goto(`${server.url}/?lng=${lng}#/console/events/${NEXT}/entries`);
        await org
          .getByRole('tab', { name: lng === 'fr' ? 'Réglages des inscriptions' : 'Registration settings' })
          .click();
        await expect(org.getByTestId('credits-kept')).toContainText(
          lng === 'fr' ? '1 place de cet événement est réservée' : '1 place of this event is kept',
          SLOW,
        );
        await org.getByTestId('credits-kept').scrollIntoViewIfNeeded();
        await shot(org, `settings-kept-${width}-${lng}`);
        // The 10 km that keeps Léa's place taken off: the form asks where the place goes; saved
        // without a choice, the server's 409 is shown on it; the choice goes with the save.
        const tenK = org.getByTestId(`settings-race-${NEXT_10K}`);
        await expect(tenK).toContainText(lng === 'fr' ? '1 place gardée' : '1 place kept');
        await tenK.getByRole('button', { name: lng === 'fr' ? 'Pas d’inscriptions' : 'No entries' }).click();
        const kept = org.getByTestId('kept-places');
        await expect(kept).toContainText(lng === 'fr' ? '10 km garde 1 place' : '10 km keeps 1 place');
        await org.getByRole('button', { name: lng === 'fr' ? 'Enregistrer' : 'Save', exact: true }).click();
        await expect(kept.getByRole('alert')).toContainText(
          lng === 'fr' ? 'choisissez où elles vont' : 'choose where they go',
          SLOW,
        );
        await kept.scrollIntoViewIfNeeded();
        await shot(org, `settings-kept-409-${width}-${lng}`);
        await kept.getByRole('combobox').click();
        await org
          .getByRole('option', {
            name: lng === 'fr' ? 'Les déplacer vers Semi-marathon' : 'Move them to Semi-marathon',
          })
          .click();
        await kept.scrollIntoViewIfNeeded();
        await shot(org, `settings-kept-move-${width}-${lng}`);
        // The save carries the choice (stopped here: Léa's place stays for the rest of the journey;
        // the move itself is credit-places-late.test.ts's).
        const settingsUrl = `**/api/entries/staff/events/${NEXT}/settings`;
        await org.route(settingsUrl, (route) =>
          route.request().method() === 'PUT' ? route.abort() : route.continue(),
        );
        const sent = org.waitForRequest(
          (r) => r.method() === 'PUT' && r.url().includes(`/events/${NEXT}/settings`),
        );
        await org.getByRole('button', { name: lng === 'fr' ? 'Enregistrer' : 'Save', exact: true }).click();
        expect((await sent).postDataJSON().keptPlaces).toEqual([{ raceId: NEXT_10K, moveTo: NEXT_HALF }]);
        await org.unroute(settingsUrl);
        // The organiser's orders: Tom's invoice and the credit note of his refund, negative.
        await org.goto(`${server.url}/?lng=${lng}#/payment/home?event=${EVENT}&tab=orders`);
        const row = org.getByTestId(`staff-order-${tomOrder}`);
        await expect(row).toContainText(lng === 'fr' ? /Facture \d{6}/ : /Invoice \d{6}/, SLOW);
        await expect(row).toContainText(
          lng === 'fr' ? /Avoir \d{6} : -25,00\s€/ : /Credit note \d{6}: -€25\.00/,
        );
        if (width === 390 && lng === 'fr') {
          // The staff download the credit note from there: a PDF.
          const file = org.waitForEvent('download');
          await row.getByRole('button', { name: /^Avoir/ }).click();
          expect((await file).suggestedFilename()).toMatch(/^credit-note-\d{6}\.pdf$/);
        }
        await shot(org, `orders-credit-note-${width}-${lng}`);
      }

    // Léa enters the 10 km with her credit: nothing to pay, 8 € refunded, shown on the order page.
    await runner.setViewportSize({ width: 390, height: 844 });
    await runner.goto(`${server.url}/?lng=fr${entryForm}`);
    const form = runner.getByTestId('runner-0');
    await expect(form).toBeVisible(SLOW);
    await form.getByLabel('Prénom').fill('Léa');
    await form.getByLabel('Nom', { exact: true }).fill('Martin');
    await runner.getByRole('button', { name: 'Voir le récapitulatif' }).click();
    await expect(runner).toHaveURL(/#\/entries\/orders\/\d+/, SLOW);
    await expect(runner.getByTestId('credit-refund')).toHaveText(
      'Remboursé (solde de votre crédit de report) : 8,00 €',
      SLOW,
    );
    const order = runner.url().slice(runner.url().indexOf('#'));
    await runner.goto(`${server.url}/?lng=fr#/me/entries`);
    await expect(runner.getByTestId('credit-remainder')).toHaveText(
      'Le solde de 8,00 € vous a été remboursé.',
      SLOW,
    );
    for (const width of [390, 1280])
      for (const lng of ['en', 'fr'] as const) {
        await runner.setViewportSize({ width, height: 844 });
        await runner.goto(`${server.url}/?lng=${lng}${order}`);
        await expect(runner.getByTestId('credit-refund')).toBeVisible(SLOW);
        await shot(runner, `order-credit-refund-${width}-${lng}`);
        await runner.goto(`${server.url}/?lng=${lng}#/me/entries`);
        await expect(runner.getByTestId('credit-remainder')).toBeVisible(SLOW);
        await shot(runner, `mine-remainder-${width}-${lng}`);
      }
  });
});
