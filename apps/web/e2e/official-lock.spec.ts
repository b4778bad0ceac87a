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

async function signedIn(
  browser: Browser,
  lng: 'en' | 'fr',
  viewport: { width: number; height: number },
  email = STAFF,
) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${server.url}/?lng=${lng}#/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.locator('input[type="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/#\/$/);
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });

async function rankOf(bib: string): Promise<number | null> {
  // Every race of the test has its finish at the point keyed `finish`.
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
  // The finish's French name is "Arrivée" (issue 43: the French desk and the French correction
  // line said "Finish"), set as an organiser does in the race's points.
  const named = await fetch(`${server.url}/api/console/races/${RACE}/points`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      points: [{ key: 'finish', name: { en: 'Finish', fr: 'Arrivée' }, distanceM: 10_000, kind: 'finish' }],
    }),
  });
  expect(named.status, await named.text()).toBe(200);
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
    /Corrigé le \d+ \S+ \d{4}, \d\d:\d\d UTC\+1 : dossard O4 Karel Van den Broeck, un temps à Arrivée ajouté \(\d\d:\d\d:\d\d UTC\+1\)\. Motif : oubliée par le tapis/,
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
    /Corrected on \d+ \w+ \d{4}, \d\d:\d\d CET: bib O4 Karel Van den Broeck, a time at Finish added \(\d\d:\d\d:\d\d CET\)\. Reason: oubliée par le tapis/,
  );
  await shot(card, 'card-corrected-desktop-en');
  // The card of a phone in English too, and the certificate is re-issued with the correction.
  await card.setViewportSize(PHONE);
  await expect(card.getByTestId('corrections')).toBeVisible();
  await shot(card, 'card-corrected-phone-en');
  const pdf = await fetch(`${server.url}/api/certificates/${key}?lng=en`);
  expect(pdf.status).toBe(200);
});

const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const TIMEKEEPER = 'timekeeper43@example.org';

/** The link of the last invitation the development server printed for `email`. */
async function invitationToken(email: string): Promise<string> {
  for (let k = 0; k < 100; k++) {
    const line = server.logs
      .join('')
      .split('\n')
      .filter((l) => l.includes('console/invitations/') && l.includes(email))
      .at(-1);
    const token = /console\/invitations\/([A-Za-z0-9_%-]+)/.exec(line ?? '')?.[1];
    if (token) return decodeURIComponent(token);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no invitation link for ${email}`);
}

test('a timekeeper at the desk on an official race is asked first, then held: only the organiser corrects (desktop en, phone fr)', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const TK_RACE = 'e2e-official-tk';
  const gun = Date.now() - 60 * 60_000;
  await post(
    server,
    `/api/results/contexts/${DB}/races`,
    {
      id: TK_RACE,
      name: 'Timekeeper 10 km',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 10_000,
      startType: 'mass',
      gunTimeMs: gun,
      points: [{ key: 'finish', name: 'Finish', distanceM: 10_000 }],
    },
    token,
  );
  await post(
    server,
    `/api/results/contexts/${DB}/races/${TK_RACE}/participants`,
    {
      participants: ['K1', 'K2', 'K3'].map((bib) => ({ bib, firstName: 'Tim', lastName: bib, gender: 'F' })),
    },
    token,
  );
  await post(
    server,
    `/api/results/contexts/${DB}/passings`,
    {
      passings: [
        { id: 'k1', bib: 'K1', point: 'finish', time: gun + 38 * 60_000 },
        { id: 'k2', bib: 'K2', point: 'finish', time: gun + 40 * 60_000 },
      ],
    },
    token,
  );
  const published = await fetch(`${server.url}/api/console/races/${TK_RACE}/publication`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ official: true, protestWindowMinutes: 0 }),
  });
  expect(published.status, await published.text()).toBe(200);
  // A timekeeper of the organisation (invited, accepted): the desk's rights, not the organiser's.
  await post(
    server,
    `/api/console/organisations/${DEMO_ORG}/invitations`,
    { email: TIMEKEEPER, role: 'timekeeper', lng: 'en' },
    token,
  );
  const invitation = await invitationToken(TIMEKEEPER);
  const timekeeper = await verifiedAccount(server, TIMEKEEPER, PASSWORD, true);
  await post(server, `/api/console/invitations/${invitation}/accept`, {}, timekeeper);
  const finish = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Brussels',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(gun + 39 * 60_000);

  const words = {
    en: {
      time: 'Time',
      title: 'The results of Timekeeper 10 km are official',
      held: '1 entry held: not counted',
      reason: 'Reason (shown to spectators)',
      send: 'Send as a correction',
      organiser:
        'Only the organiser (owner or staff) can correct official results: ask them, or drop these entries.',
      drop: 'Drop the entries',
      allSent: 'All entries sent',
    },
    fr: {
      time: 'Heure',
      title: 'Les résultats de Timekeeper 10 km sont officiels',
      held: '1 saisie retenue : non comptée',
      reason: 'Motif (visible des spectateurs)',
      send: 'Envoyer comme correction',
      organiser:
        'Seul l’organisateur (propriétaire ou équipe) peut corriger des résultats officiels : demandez-le-lui, ou abandonnez ces saisies.',
      drop: 'Abandonner les saisies',
      allSent: 'Toutes les saisies sont envoyées',
    },
  } as const;
  for (const [lng, viewport] of [
    ['en', DESKTOP],
    ['fr', PHONE],
  ] as const) {
    const w = words[lng];
    const desk = await signedIn(browser, lng, viewport, TIMEKEEPER);
    await desk.goto(`${server.url}/?lng=${lng}#/console/events/${EVENT}/raceday/desk?db=${DB}`);
    await expect(desk.getByTestId('official-banner')).toContainText('Timekeeper 10 km', { timeout: 20_000 });
    await desk.getByLabel(w.time, { exact: true }).fill(finish);
    const bib = desk.getByTestId('bib-input');
    await bib.fill('K3');
    await bib.press('Enter');
    // Asked before anything changes: the entry is held, not counted.
    const held = desk.getByRole('dialog', { name: w.title });
    await expect(held).toBeVisible();
    await expect(held).toContainText(w.held);
    expect(await rankOf('K3')).toBeNull();
    // A timekeeper's correction is refused by the lock: the dialog says only the organiser corrects.
    await held.getByLabel(w.reason).fill('late read');
    await held.getByRole('button', { name: w.send }).click();
    await expect(held).toContainText(w.organiser);
    await expect(held.getByRole('button', { name: w.send })).toHaveCount(0);
    await shot(desk, `desk-timekeeper-refused-${lng === 'en' ? 'desktop-en' : 'phone-fr'}`);
    expect(await rankOf('K3')).toBeNull();
    expect(await rankOf('K2')).toBe(2);
    // Dropped: nothing pending, nothing changed.
    await held.getByRole('button', { name: w.drop }).click();
    await expect(held).toBeHidden();
    await expect(desk.getByTestId('pending-count')).toHaveText(w.allSent);
    expect(await rankOf('K3')).toBeNull();
    await desk.context().close();
  }
  // No correction was recorded: spectators read none on the runners' cards.
  const card = (await (await fetch(`${server.url}/api/results/contexts/${DB}/participants/K2`)).json()) as {
    corrections?: unknown[];
  };
  expect(card.corrections ?? []).toEqual([]);
});
