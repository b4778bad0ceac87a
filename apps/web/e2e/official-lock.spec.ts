import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 43, "official means official", on rendered pages: the organiser publishes a 10 km as
 * official in the console (desktop, English) after a dialog that says what is published; at the
 * desk on a phone (French) a late finish is not counted silently — the desk says the race is
 * official and asks, and the organiser sends it as a correction with a reason; spectators then
 * read "Corrigé le … : …" / "Corrected on …: …" on the results list and the runner's card (phone
 * and desktop, both languages), with the new ranks. Screenshots in .tmp/official-shots.
 */
let server: RunningServer;
const STAFF = 'organiser43@example.org';
const PASSWORD = 'a long organiser password';
const DB = 'demo-city-run-10k';
const RACE = 'e2e-official';
const EVENT = 'demo-city-run';
const SHOTS = path.resolve(import.meta.dirname, '../../../.tmp/official-shots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
let token = '';

// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take a destructured first argument.
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000) + 60_000);
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF, DEMO_REPLAY: 'false', SEED_BOSTON: 'false' });
  token = await verifiedAccount(server, STAFF, PASSWORD, true);
  fs.mkdirSync(SHOTS, { recursive: true });
});
test.afterAll(async () => server?.stop());

async function signedIn(browser: Browser, lng: 'en' | 'fr', viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${server.url}/?lng=${lng}#/login`);
  await page.getByLabel('E-mail').fill(STAFF);
  await page.locator('input[type="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/#\/$/);
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });

async function rankOf(bib: string): Promise<number | null> {
  const res = await fetch(`${server.url}/api/results/contexts/${DB}/participants/${bib}`);
  const card = (await res.json()) as { splits: { pointKey: string; rankOverall: number | null }[] };
  return card.splits.find((s) => s.pointKey === 'finish')?.rankOverall ?? null;
}

test('published only when asked; the desk asks before changing official results; spectators see the correction', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const gun = Date.now() - 60 * 60_000;
  await post(
    server,
    `/api/results/contexts/${DB}/races`,
    {
      id: RACE,
      name: 'E2E 10 km',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 10_000,
      startType: 'mass',
      gunTimeMs: gun,
      points: [{ key: 'finish', name: 'Finish', distanceM: 10_000 }],
    },
    token,
  );
  const runners = [
    ['O1', 'Anna', 'Jacobs'],
    ['O2', 'Bart', 'Claes'],
    ['O3', 'Jan', 'Peeters'],
    ['O4', 'Karel', 'Van den Broeck'],
  ];
  await post(
    server,
    `/api/results/contexts/${DB}/races/${RACE}/participants`,
    {
      participants: runners.map(([bib, firstName, lastName]) => ({ bib, firstName, lastName, gender: 'M' })),
    },
    token,
  );
  await post(
    server,
    `/api/results/contexts/${DB}/passings`,
    {
      passings: [
        { id: 'o1', bib: 'O1', point: 'finish', time: gun + 38 * 60_000 },
        { id: 'o2', bib: 'O2', point: 'finish', time: gun + 40 * 60_000 },
        { id: 'o3', bib: 'O3', point: 'finish', time: gun + 42 * 60_000 },
      ],
    },
    token,
  );

  // The console, desktop, English: "Publish as official" asks first, saying what it publishes.
  const organiser = await signedIn(browser, 'en', DESKTOP);
  await organiser.goto(`${server.url}/?lng=en#/console/events/${EVENT}/races/${RACE}`);
  const form = organiser.getByRole('form', { name: 'Official results' });
  await form.scrollIntoViewIfNeeded({ timeout: 20_000 });
  await form.getByRole('button', { name: 'Publish as official' }).click();
  const ask = organiser.getByRole('dialog', { name: 'Publish the results of E2E 10 km as official?' });
  const preview = ask.getByTestId('publication-preview');
  await expect(preview).toContainText('3 finishers');
  await expect(preview).toContainText('0 did not finish (DNF)');
  await expect(preview).toContainText('1 runner still on course or without a result');
  // O4 has no read: the review's DNS candidate, still open.
  await expect(preview).toContainText('1 anomaly of the review still open');
  await expect(preview).toContainText(/No protest window: official from \d+ \w+ \d{4}, \d\d:\d\d CET/);
  await shot(organiser, 'publish-dialog-desktop-en');
  expect(await rankOf('O3')).toBe(3);
  await ask.getByRole('button', { name: 'Publish as official' }).click();
  await expect(ask).toBeHidden();
  await expect(form.getByTestId('publication-state')).toContainText(
    /Published as official on \d+ \w+ \d{4}, \d\d:\d\d CET/,
  );

  // The desk on a phone, French: it says the race is official before anyone types; a finish for
  // O4 is held, the desk asks, and the organiser sends it as a correction.
  const desk = await signedIn(browser, 'fr', PHONE);
  await desk.goto(`${server.url}/?lng=fr#/console/events/${EVENT}/raceday/desk?db=${DB}`);
  await expect(desk.getByTestId('official-banner')).toContainText(
    'Résultats publiés comme officiels : E2E 10 km',
  );
  // O4 finished 39 minutes after the gun (typed in the event's zone): ahead of Peeters.
  const finish = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Brussels',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(gun + 39 * 60_000);
  await desk.getByLabel('Heure', { exact: true }).fill(finish);
  const bib = desk.getByTestId('bib-input');
  await bib.fill('O4');
  await bib.press('Enter');
  const held = desk.getByRole('dialog', { name: 'Les résultats de E2E 10 km sont officiels' });
  await expect(held).toBeVisible();
  await expect(held).toContainText('1 saisie retenue : non comptée');
  await expect(desk.getByTestId('entry-flag')).toContainText('Les résultats de E2E 10 km sont officiels');
  await shot(desk, 'desk-held-phone-fr');
  // Nothing changed meanwhile.
  expect(await rankOf('O3')).toBe(3);
  expect(await rankOf('O4')).toBeNull();
  await held.getByLabel('Motif (visible des spectateurs)').fill('oubliée par le tapis');
  await held.getByRole('button', { name: 'Envoyer comme correction' }).click();
  await expect(held).toBeHidden();
  await expect(desk.getByTestId('pending-count')).toHaveText('Toutes les saisies sont envoyées');
  await expect.poll(() => rankOf('O3'), { timeout: 10_000 }).toBe(4);

  // Spectators: the results list on a phone in French, the runner's card on a desktop in English.
  const report = await (await browser.newContext({ viewport: PHONE })).newPage();
  await report.goto(`${server.url}/?lng=fr#/events/${EVENT}/reportlist/group/${RACE}/report/LIVE1`);
  const note = report.getByTestId('corrections');
  await expect(note).toContainText('Corrections depuis la publication officielle');
  await expect(note).toContainText(
    /Corrigé le \d+ \S+ \d{4}, \d\d:\d\d UTC\+1 : dossard O4 Karel Van den Broeck, un temps à Finish ajouté \(\d\d:\d\d:\d\d\)\. Motif : oubliée par le tapis/,
  );
  await note.scrollIntoViewIfNeeded();
  await shot(report, 'report-corrected-phone-fr');
  const box = await note.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);

  const key = (
    (await (await fetch(`${server.url}/api/results/contexts/${DB}/participants/O3`)).json()) as {
      athlete: { trackingKey: string };
    }
  ).athlete.trackingKey;
  const card = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await card.goto(`${server.url}/?lng=en#/tracking/${key}`);
  await expect(card.getByTestId('corrections')).toContainText(
    /Corrected on \d+ \w+ \d{4}, \d\d:\d\d CET: bib O4 Karel Van den Broeck, a time at Finish added \(\d\d:\d\d:\d\d\)\. Reason: oubliée par le tapis/,
  );
  await shot(card, 'card-corrected-desktop-en');
  // The card of a phone in English too, and the certificate is re-issued with the correction.
  await card.setViewportSize(PHONE);
  await expect(card.getByTestId('corrections')).toBeVisible();
  await shot(card, 'card-corrected-phone-en');
  const pdf = await fetch(`${server.url}/api/certificates/${key}?lng=en`);
  expect(pdf.status).toBe(200);
});
