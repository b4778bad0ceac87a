import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { startMollieStub } from '../../server/test/mollie-stub.ts';
import { post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

// Issue 38, "Done when": on a 390 px phone in French, an organiser opens registration (two price
// tiers, a code, a T-shirt of stock 2, a question, a waiver); three runners enter (one with the
// code, the third finds the T-shirt sold out), the race fills and a fourth joins the waitlist; one
// runner cancels and gets the refund the policy says; the waitlisted runner is invited and enters;
// a runner moves to the other race and pays the difference; the list and the export show it all.
// Payments go through Mollie's local stub (its checkout page stood in for by the test, which then
// delivers the webhook as Mollie would).
const SLOW = { timeout: 120_000 };
const SHOTS = process.env.SCREENSHOTS ? path.resolve(import.meta.dirname, '../../../.tmp/screens') : null;
const PASSWORD = 'correct horse battery 38';
const EVENT = 'course-38';
const TEN_K = 'course-38-10k';
const MARATHON = 'course-38-marathon';
/** Another event of the organiser taking entries (a team's link opened on its page is refused). */
const OTHER = 'autre-38';

const mollie = startMollieStub();
let server: RunningServer;
let organiser: string;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** A signed-in phone in French. */
async function phone(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  // The provider's checkout page (an external site): the runner "pays" there.
  await page.route('https://www.mollie.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<html><body><h1>Mollie (test)</h1></body></html>' }),
  );
  await page.goto(`${server.url}/?lng=en#/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/#\/login/, SLOW);
  return page;
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

/** Fills the form's first runner as `firstName` (the question, the waiver) and sends it. */
async function fillAndSend(page: Page, firstName: string, submit = true) {
  const runner = page.getByTestId('runner-0');
  await runner.getByLabel('Prénom').fill(firstName);
  await runner.getByLabel(/Comment nous avez-vous connus/).click();
  await page.getByRole('option', { name: 'Amis' }).click();
  await page.getByLabel('J’accepte la décharge').check();
  if (submit) await page.getByRole('button', { name: 'Voir le récapitulatif' }).click();
}

/** Enters the 10 km as `firstName`, with the options given. */
async function enter(
  page: Page,
  firstName: string,
  o: { shirt?: boolean; code?: string; invitation?: string } = {},
) {
  if (!o.invitation) {
    await page.goto(`${server.url}/?lng=fr#/entries/${EVENT}`);
    await page.getByTestId(`race-${TEN_K}`).getByRole('button', { name: 'S’inscrire' }).click();
  }
  const runner = page.getByTestId('runner-0');
  await runner.getByLabel('Prénom').fill(firstName);
  await runner.getByLabel(/Comment nous avez-vous connus/).click();
  await page.getByRole('option', { name: 'Amis' }).click();
  if (o.shirt) await runner.getByLabel(/T-shirt M/).check();
  if (o.code) await runner.getByLabel('Code promo').fill(o.code);
  await page.getByLabel('J’accepte la décharge').check();
  await page.getByRole('button', { name: 'Voir le récapitulatif' }).click();
  await expect(page).toHaveURL(/#\/entries\/orders\/\d+/, SLOW);
}

test.describe('online entries on a phone, in French', () => {
  test.beforeAll(async () => {
    const url = await mollie.listen();
    server = await startServer({
      MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz',
      MOLLIE_API_URL: url,
      // The stub's certificate is self-signed (test/mollie-stub.ts).
      NODE_TLS_REJECT_UNAUTHORIZED: '0',
    });
    organiser = await verifiedAccount(server, 'organiser-38@example.test', PASSWORD, true);
    const org = await post<{ id: string }>(
      server,
      '/api/console/organisations',
      { name: 'Les Foulées 38', country: 'BE', contactEmail: 'organiser-38@example.test' },
      organiser,
    );
    await post(
      server,
      `/api/console/organisations/${org.id}/events`,
      {
        id: EVENT,
        name: 'Foulées 2027',
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
    for (const [id, name, distanceM] of [
      [TEN_K, '10 km', 10_000],
      [MARATHON, 'Marathon', 42_195],
    ] as const) {
      await post(
        server,
        `/api/results/contexts/${EVENT}-ctx/races`,
        {
          id,
          name,
          date: '2027-06-06',
          distanceM,
          startType: 'mass',
          points: [{ key: 'finish', name: 'Arrivée', distanceM }],
        },
        organiser,
      );
    }
    // Another event taking entries (its 5 km), whose page a team's link may be opened on.
    await post(
      server,
      `/api/console/organisations/${org.id}/events`,
      {
        id: OTHER,
        name: 'Autre 2027',
        startDate: '2027-09-05',
        endDate: '2027-09-05',
        timeZone: 'Europe/Brussels',
        visibility: 'public',
        status: 'upcoming',
      },
      organiser,
    );
    await post(
      server,
      `/api/console/events/${OTHER}/contexts`,
      { db: `${OTHER}-ctx`, name: 'Courses' },
      organiser,
    );
    await post(
      server,
      `/api/results/contexts/${OTHER}-ctx/races`,
      {
        id: `${OTHER}-5k`,
        name: '5 km',
        date: '2027-09-05',
        distanceM: 5000,
        startType: 'mass',
        points: [{ key: 'finish', name: 'Arrivée', distanceM: 5000 }],
      },
      organiser,
    );
    const put = await fetch(`${server.url}/api/entries/staff/events/${OTHER}/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${organiser}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        races: [
          {
            raceId: `${OTHER}-5k`,
            opensAt: '2020-01-01T00:00:00.000Z',
            closesAt: '2027-09-01T00:00:00.000Z',
            capacity: 100,
            prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 1000 }] },
          },
        ],
        questions: [
          {
            key: 'source',
            label: 'Comment nous avez-vous connus ?',
            kind: 'one',
            options: ['Amis'],
            required: true,
          },
        ],
        waiver: 'Je cours à mes propres risques.',
      }),
    });
    expect(put.status).toBe(200);
  });
  test.afterAll(async () => {
    await server?.stop();
    await mollie.close();
  });

  test('registration opens, the race fills, a cancellation goes to the waitlist, a move pays the difference', async ({
    browser,
  }) => {
    test.setTimeout(1_500_000);
    // The organiser opens registration from the console.
    const org = await phone(browser, 'organiser-38@example.test');
    await org.goto(`${server.url}/?lng=fr#/console/events/${EVENT}/entries`);
    await org.getByRole('tab', { name: 'Réglages des inscriptions' }).click();
    const settings = {
      holdMinutes: 15,
      waitlistMinutes: 60,
      currency: 'EUR',
      policy: {
        editUntil: '2027-06-01',
        moveUntil: '2027-06-01',
        transferUntil: '2027-06-01',
        transferFeeCents: 500,
        cancelUntil: '2027-06-01',
        refund: {
          kind: 'tiers',
          tiers: [
            { until: '2027-05-01', percent: 100 },
            { until: '2027-06-01', percent: 50 },
          ],
        },
      },
      races: [
        {
          raceId: TEN_K,
          opensAt: '2020-01-01T00:00:00.000Z',
          closesAt: '2027-06-01T00:00:00.000Z',
          capacity: 4,
          prices: {
            tiers: [
              { from: '2020-01-01T00:00:00.000Z', cents: 2500 },
              { from: '2027-03-01T00:00:00.000Z', cents: 3500 },
            ],
          },
          minAge: 12,
          required: ['birthDate', 'gender'],
        },
        {
          raceId: MARATHON,
          opensAt: '2020-01-01T00:00:00.000Z',
          closesAt: '2027-06-01T00:00:00.000Z',
          capacity: 50,
          prices: { tiers: [{ from: '2020-01-01T00:00:00.000Z', cents: 4500 }] },
          minAge: 18,
        },
      ],
      questions: [
        {
          key: 'source',
          label: 'Comment nous avez-vous connus ?',
          kind: 'one',
          options: ['Amis', 'Web'],
          required: true,
        },
      ],
      addOns: [{ key: 'tshirt-m', name: 'T-shirt M', priceCents: 1500, capacity: 2 }],
      codes: [{ code: 'AMI10', kind: 'percent', value: 10, capacity: 5 }],
      waiver: 'Je cours à mes propres risques.',
    };
    // The whole settings pasted as JSON (the advanced copy), then edited in the form.
    await org.getByRole('button', { name: 'Réglages en JSON (copier vers un autre événement)' }).click();
    await org
      .getByLabel('Réglages en JSON (copier vers un autre événement)')
      .fill(JSON.stringify(settings, null, 2));
    await org.getByRole('button', { name: 'Appliquer au formulaire' }).click();
    const tenKSettings = org.getByTestId(`settings-race-${TEN_K}`);
    await expect(tenKSettings.getByLabel('Places')).toHaveValue('4');
    await tenKSettings.getByLabel('Places').fill('3');
    // A closing before the opening: the server's error on its field, nothing saved.
    const marathonSettings = org.getByTestId(`settings-race-${MARATHON}`);
    await marathonSettings.getByLabel('Clôture').fill('01/06/2019 12:00');
    await org.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(marathonSettings.getByText('La clôture précède l’ouverture.')).toBeVisible(SLOW);
    await marathonSettings.getByLabel('Clôture').fill('01/06/2027 02:00');
    await marathonSettings.getByLabel('Taille d’équipe').fill('3');
    await org.getByTestId('settings-question').getByLabel('Affichée sur la liste de départ').check();
    await org.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(org.getByText('Enregistré.')).toBeVisible(SLOW);
    await shot(org, 'entries-settings-fr');

    const runners = ['alice', 'bruno', 'chloe', 'david'];
    const pages: Record<string, Page> = {};
    for (const r of runners) {
      await verifiedAccount(server, `${r}-38@example.test`, PASSWORD, true);
      pages[r] = await phone(browser, `${r}-38@example.test`);
    }
    const { alice, bruno, chloe, david } = pages as Record<string, Page>;

    // Alice: the price now and the next one, then the code and a T-shirt.
    await alice!.goto(`${server.url}/?lng=fr#/entries/${EVENT}`);
    const tenK = alice!.getByTestId(`race-${TEN_K}`);
    await expect(tenK).toContainText('Prix actuel : 25,00 €', SLOW);
    await expect(tenK).toContainText('35,00 € à partir du');
    await expect(tenK).toContainText('3 places restantes');
    await shot(alice!, 'entries-event-fr');
    await enter(alice!, 'Alice', { shirt: true, code: 'AMI10' });
    // 25 € − 10 % + 15 € T-shirt.
    await expect(alice!.getByTestId('order-total')).toHaveText('Total : 37,50 €');
    await shot(alice!, 'entries-summary-fr');
    await payWithMollie(alice!);
    await expect(alice!.getByText('Vous êtes inscrit !')).toBeVisible(SLOW);
    await shot(alice!, 'entries-confirmed-fr');

    // Bruno takes the last T-shirt; Chloé no longer sees it offered.
    await enter(bruno!, 'Bruno', { shirt: true });
    await payWithMollie(bruno!);
    await expect(bruno!.getByText('Vous êtes inscrit !')).toBeVisible(SLOW);
    await chloe!.goto(`${server.url}/?lng=fr#/entries/${EVENT}`);
    await chloe!.getByTestId(`race-${TEN_K}`).getByRole('button', { name: 'S’inscrire' }).click();
    await expect(chloe!.getByTestId('runner-0').getByLabel(/T-shirt M/)).toHaveCount(0);
    await enter(chloe!, 'Chloé');
    await payWithMollie(chloe!);
    await expect(chloe!.getByText('Vous êtes inscrit !')).toBeVisible(SLOW);

    // The race is full: David joins the waitlist.
    await david!.goto(`${server.url}/?lng=fr#/entries/${EVENT}`);
    await expect(david!.getByTestId(`race-${TEN_K}`)).toContainText('Complet : liste d’attente', SLOW);
    await david!.getByRole('button', { name: 'Rejoindre la liste d’attente' }).click();
    await expect(
      david!.getByText('Vous êtes numéro 1 sur la liste d’attente.', { exact: false }),
    ).toBeVisible(SLOW);
    await shot(david!, 'entries-waitlist-fr');

    // Alice cancels: the policy refunds 100 % until 1 May 2027.
    await alice!.goto(`${server.url}/?lng=fr#/me/entries`);
    await alice!.getByTestId('my-entry').first().click();
    await alice!.getByTestId('action-cancel').click();
    await alice!.getByRole('button', { name: 'Vérifier' }).click();
    await expect(alice!.getByTestId('action-quote')).toHaveText('Remboursement : 37,50 €', SLOW);
    await shot(alice!, 'entries-cancel-quote-fr');
    await alice!.getByRole('button', { name: 'Confirmer' }).click();
    await expect(alice!.getByTestId('entry-state')).toHaveText('Annulée', SLOW);
    expect(mollie.refunds.map((r) => r.amount)).toEqual(['37.50']);

    // David is invited by e-mail (the link on the development console) and enters.
    const deadline = Date.now() + 20_000;
    let link: string | undefined;
    while (!link && Date.now() < deadline) {
      link = server.logs
        .join('')
        .split('\n')
        .filter(
          (l) => l.includes('"link"') && l.includes('david-38@example.test') && l.includes('invitation='),
        )
        .map((l) => /"link":"([^"]+)"/.exec(l)?.[1])
        .at(-1);
      if (!link) await new Promise((r) => setTimeout(r, 200));
    }
    expect(link).toBeTruthy();
    await david!.goto(`${server.url}/?lng=fr${link!.slice(link!.indexOf('#'))}`);
    await expect(david!.getByText('Une place vous est réservée : inscrivez-vous maintenant.')).toBeVisible(
      SLOW,
    );
    await enter(david!, 'David', { invitation: 'yes' });
    await payWithMollie(david!);
    await expect(david!.getByText('Vous êtes inscrit !')).toBeVisible(SLOW);

    // Bruno moves to the marathon and pays the difference (45 € − 25 €).
    await bruno!.goto(`${server.url}/?lng=fr#/me/entries`);
    await bruno!.getByTestId('my-entry').first().click();
    await bruno!.getByTestId('action-move').click();
    await bruno!.getByLabel('Nouvelle course').click();
    await bruno!.getByRole('option', { name: /Marathon/ }).click();
    await bruno!.getByRole('button', { name: 'Vérifier' }).click();
    await expect(bruno!.getByTestId('action-quote')).toHaveText('Frais à payer : 20,00 €', SLOW);
    await bruno!.getByRole('button', { name: 'Payer 20,00 €' }).click();
    await expect(bruno!).toHaveURL(/#\/entries\/orders\/\d+/, SLOW);
    await payWithMollie(bruno!);
    await bruno!.goto(`${server.url}/?lng=fr#/me/entries`);
    await expect(bruno!.getByTestId('my-entry').first()).toContainText('Marathon', SLOW);
    await shot(bruno!, 'entries-mine-fr');

    // A relay team on the marathon: Chloé is its captain, each member pays their own entry.
    await chloe!.goto(`${server.url}/?lng=fr#/entries/${EVENT}`);
    await chloe!.getByTestId(`race-${MARATHON}`).getByRole('button', { name: 'Créer une équipe' }).click();
    await chloe!.getByLabel('Nom de l’équipe').fill('Les Gazelles');
    await chloe!.getByRole('button', { name: 'Créer l’équipe' }).click();
    await expect(chloe!).toHaveURL(/#\/entries\/course-38\/team\/T/, SLOW);
    await expect(chloe!.getByText('Partagez ce lien avec votre équipe')).toBeVisible();
    const teamLink = await chloe!.getByLabel('Le lien de l’équipe').inputValue();
    const token = /team\/(T[\w-]+)/.exec(teamLink)![1]!;
    // The link opened on another event's page: refused on the team's field, nothing held.
    await david!.goto(`${server.url}/?lng=fr#/entries/${OTHER}/team/${token}`);
    await david!.getByRole('button', { name: 'Rejoindre l’équipe' }).click();
    await fillAndSend(david!, 'David');
    await expect(
      david!.getByTestId('team-card').getByText('Le lien de cette équipe est celui d’un autre événement.'),
    ).toBeVisible(SLOW);
    // The right link: David joins, pays, and the team shows him entered.
    await david!.goto(`${server.url}/?lng=fr#/entries/${EVENT}/team/${token}`);
    await david!.getByRole('button', { name: 'Rejoindre l’équipe' }).click();
    await fillAndSend(david!, 'David');
    await expect(david!).toHaveURL(/#\/entries\/orders\/\d+/, SLOW);
    await payWithMollie(david!);
    await expect(david!.getByText('Vous êtes inscrit !')).toBeVisible(SLOW);
    await expect(david!.getByRole('button', { name: 'Reçu (PDF)' })).toBeVisible();
    const confirmation = david!.url().slice(david!.url().indexOf('#'));
    await chloe!.reload();
    await expect(chloe!.getByTestId('team-member')).toHaveText([/David.*Inscrit/], SLOW);
    await shot(chloe!, 'entries-team-fr');
    // The start list: the team, and the question shown on the start list as a column.
    await chloe!.goto(`${server.url}/?lng=fr#/entries/${EVENT}/start-list`);
    const marathonList = chloe!.getByTestId(`start-list-${MARATHON}`);
    await expect(marathonList).toContainText('Les Gazelles', SLOW);
    await expect(
      marathonList.getByRole('columnheader', { name: 'Comment nous avez-vous connus ?' }),
    ).toBeVisible();
    await expect(marathonList).toContainText('Amis');
    await shot(chloe!, 'entries-start-list-fr');

    // The pages of this step on a phone and a desktop, in both languages (looked at by people).
    if (SHOTS) {
      for (const width of [390, 1280])
        for (const lng of ['en', 'fr']) {
          const views: [Page, string, string][] = [
            [org, `#/console/events/${EVENT}/entries`, 'settings'],
            [chloe!, `#/entries/${EVENT}/team/${token}`, 'team'],
            [david!, confirmation, 'confirmation'],
          ];
          for (const [page, hash, name] of views) {
            await page.setViewportSize({ width, height: 844 });
            await page.goto(`${server.url}/?lng=${lng}${hash}`);
            if (name === 'settings') {
              await page
                .getByRole('tab', {
                  name: lng === 'fr' ? 'Réglages des inscriptions' : 'Registration settings',
                })
                .click();
              await expect(page.getByTestId(`settings-race-${TEN_K}`)).toBeVisible(SLOW);
            } else await expect(page.getByRole('heading', { level: 1 })).toBeVisible(SLOW);
            await shot(page, `entries-${name}-${width}-${lng}`);
          }
        }
    }

    // The organiser's list and export show it all; the participants are those of the start list.
    await org.goto(`${server.url}/?lng=fr#/console/events/${EVENT}/entries`);
    // The page's own tab (the event's navigation has an 'Inscriptions' tab too).
    await org.getByRole('tab', { name: 'Inscriptions', exact: true }).last().click();
    const rows = org.getByTestId('staff-entry');
    // Four runners of the 10 km, and David's place in the relay team.
    await expect(rows).toHaveCount(5, SLOW);
    await expect(org.getByRole('table', { name: 'Inscriptions' })).toContainText('Annulée');
    await shot(org, 'entries-staff-fr');
    const download = org.waitForEvent('download');
    await org.getByRole('button', { name: 'Exporter CSV' }).click();
    const csv = fs.readFileSync((await (await download).path())!, 'utf8');
    for (const name of [
      'Alice',
      'Bruno',
      'Chloé',
      'David',
      'Comment nous avez-vous connus ?',
      'cancelled',
      'Marathon',
    ])
      expect(csv).toContain(name);
    const res = await fetch(`${server.url}/api/console/events/${EVENT}/participants?limit=50`, {
      headers: { authorization: `Bearer ${organiser}` },
    });
    const people = JSON.stringify(await res.json());
    for (const name of ['Bruno', 'Chloé', 'David']) expect(people).toContain(name);
    expect(people).not.toContain('Alice');
  });
});
