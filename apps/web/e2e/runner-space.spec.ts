import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { deviceKey, ingest, post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

// Issue 40, the runner's own space, on a phone in both languages: a runner with results in two
// events of two organisations claims the older one by the e-mail code (the newer one the
// organiser approved) and sees both, a personal best and the certificate; hides their name, and
// the public table, tracking card, search, export and map no longer show it; downloads their data
// (JSON and PDF) and deletes their account: ranks of both races unchanged, the name nowhere.
const SLOW = { timeout: 120_000 };
const SHOTS = process.env.SCREENSHOTS ? path.resolve(import.meta.dirname, '../../../.tmp/screens') : null;
const PASSWORD = 'correct horse battery 40';
const WORDS = {
  en: {
    claim: 'This is me',
    enterCode: 'Enter the code',
    code: 'Code',
    confirm: 'Confirm',
    hideAll: 'Hide my name from every public result',
    hidden: 'Hidden runner',
    search: 'Find an athlete',
    best: /10 km: 49:00 \(City 10K/,
    myData: 'My data and my account',
    dataTitle: 'My data',
    json: 'Download as JSON',
    pdf: 'Download as PDF',
    pdfTitle: 'My data on Tempora',
    erase: 'Delete my account…',
    eraseTitle: 'Delete your account?',
    kept: '2 results stay as anonymous rows (same times, same ranks).',
    confirmEmail: 'Type your e-mail address to confirm',
    eraseConfirm: 'Delete my account for good',
    erased: 'Your account is deleted',
    close: 'Close',
  },
  fr: {
    claim: 'C’est moi',
    enterCode: 'Saisir le code',
    code: 'Code',
    confirm: 'Confirmer',
    hideAll: 'Masquer mon nom de tous les résultats publics',
    hidden: 'Coureur masqué',
    search: 'Trouver un athlète',
    best: /10 km : 49:00 \(City 10K/,
    myData: 'Mes données et mon compte',
    dataTitle: 'Mes données',
    json: 'Télécharger en JSON',
    pdf: 'Télécharger en PDF',
    pdfTitle: 'Mes données sur Tempora',
    erase: 'Supprimer mon compte…',
    eraseTitle: 'Supprimer votre compte ?',
    kept: '2 résultats restent comme lignes anonymes (mêmes temps, mêmes places).',
    confirmEmail: 'Saisissez votre adresse e-mail pour confirmer',
    eraseConfirm: 'Supprimer définitivement mon compte',
    erased: 'Votre compte est supprimé',
    close: 'Fermer',
  },
} as const;

let server: RunningServer;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function put(path_: string, body: unknown, token: string) {
  const res = await fetch(`${server.url}${path_}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path_}: ${res.status} ${await res.text()}`);
}

async function get<T>(path_: string, token?: string): Promise<T> {
  const res = await fetch(`${server.url}${path_}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) throw new Error(`${path_}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The claim link the server printed for `to` (development console: the only readable copy). */
async function claimCode(to: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const line = server.logs
      .join('')
      .split('\n')
      .filter((l) => l.includes('"link"') && l.includes(to))
      .at(-1);
    const code = line && /[?&]code=(\d+)/.exec(line)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no claim code for ${to}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An organisation with a finished, public 10 km: the runner (bib 1) and two others. */
async function race(lng: string, year: 2024 | 2025, runnerEmail: string, minutes: number) {
  const organiser = `org-${year}-${lng}@example.test`;
  const token = await verifiedAccount(server, organiser, PASSWORD, true);
  const eventId = `runner-${lng}-${year}`;
  const db = `${eventId}-ctx`;
  const raceId = `${eventId}-10k`;
  const date = `${year}-05-2${year === 2024 ? 6 : 5}`;
  const org = await post<{ id: string }>(
    server,
    '/api/console/organisations',
    {
      name: year === 2024 ? `Les Foulées ${lng}` : `Run Club ${lng}`,
      country: 'BE',
      contactEmail: organiser,
    },
    token,
  );
  await post(
    server,
    `/api/console/organisations/${org.id}/events`,
    {
      id: eventId,
      name: year === 2024 ? `Foulées 2024 ${lng}` : `City 10K 2025 ${lng}`,
      startDate: date,
      endDate: date,
      timeZone: 'Europe/Brussels',
      visibility: 'public',
      status: 'finished',
    },
    token,
  );
  await post(server, `/api/console/events/${eventId}/contexts`, { db, name: '10 km' }, token);
  const gun = Date.parse(`${date}T08:00:00Z`);
  await post(
    server,
    `/api/results/contexts/${db}/races`,
    {
      id: raceId,
      name: '10 km',
      date,
      distanceM: 10_000,
      startType: 'mass',
      gunTimeMs: gun,
      points: [
        { key: '5k', name: '5 km', distanceM: 5000 },
        { key: 'finish', name: 'Finish', distanceM: 10_000 },
      ],
    },
    token,
  );
  const people = [
    {
      bib: '1',
      firstName: 'Jeanne',
      lastName: 'Dupré',
      gender: 'F',
      birthDate: '1990-04-02',
      email: runnerEmail,
    },
    { bib: '2', firstName: 'Marc', lastName: 'Lenoir', gender: 'M', age: 40 },
    { bib: '3', firstName: 'Anne', lastName: 'Roy', gender: 'F', age: 30 },
  ];
  for (const p of people)
    await post(server, `/api/console/events/${eventId}/participants`, { raceId, ...p }, token);
  await put(`/api/exports/${eventId}/settings`, { spectatorExports: true }, token);
  for (const point of ['5k', 'finish'] as const) {
    const key = await deviceKey(server, token, db, point, point);
    const share = point === '5k' ? 0.5 : 1;
    const status = await ingest(
      server,
      key,
      [
        ['1', minutes],
        ['2', 45],
        ['3', 58],
      ].map(([bib, m]) => ({ bib, time: gun + Number(m) * 60_000 * share })),
    );
    expect(status).toBe(200);
  }
  return { token, eventId, db, raceId };
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  server = await startServer({ SEED_DEMO: 'false' });
});
test.afterAll(async () => server?.stop());

for (const lng of ['en', 'fr'] as const) {
  test(`my results: claim by e-mail code, personal best, certificate, hidden everywhere (phone, ${lng})`, async ({
    browser,
  }) => {
    test.setTimeout(600_000);
    const w = WORDS[lng];
    const older = await race(lng, 2024, `jeanne.entry.${lng}@example.org`, 52);
    const newer = await race(lng, 2025, '', 49);
    const runnerEmail = `jeanne.${lng}@example.test`;
    const runner = await verifiedAccount(server, runnerEmail, PASSWORD);
    await post(
      server,
      '/api/user/profile',
      {
        firstName: 'Jeanne',
        lastName: 'Dupré',
        gender: 'F',
        birthDate: '1990-04-02',
        nationality: 'BEL',
        club: '',
      },
      runner,
    );
    // The newer entry has no e-mail: the organiser approves the runner's claim.
    const suggestions = await get<{ participantId: string; eventName: string }[]>(
      '/api/me/claims/suggestions',
      runner,
    );
    const newerId = suggestions.find((s) => s.eventName.startsWith('City'))!.participantId;
    await post(server, '/api/me/claims', { participantId: newerId }, runner);
    const [pending] = await get<{ id: string }[]>(`/api/console/events/${newer.eventId}/claims`, newer.token);
    await post(
      server,
      `/api/console/events/${newer.eventId}/claims/${pending!.id}/decision`,
      { approve: true },
      newer.token,
    );
    const ranksBefore = await Promise.all(
      [older, newer].map((r) =>
        get<{ rows: unknown[][] }>(`/api/results/${r.eventId}/groups/${r.raceId}/reports/LIVE1`),
      ),
    );

    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/?lng=en#/login`);
    await page.getByLabel('E-mail').fill(runnerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).not.toHaveURL(/#\/login/, SLOW);
    await page.goto(`${server.url}/?lng=${lng}#/me/results`);

    // The older result is suggested, not mine yet: claimed by the code sent to the entry's e-mail.
    const suggestion = page.getByTestId('claim-suggestion');
    await expect(suggestion).toContainText('Foulées 2024', SLOW);
    await expect(page.getByTestId('my-result')).toHaveCount(1);
    await suggestion.getByRole('button', { name: w.claim }).click();
    await suggestion.getByRole('button', { name: w.enterCode }).click();
    const code = await claimCode(`jeanne.entry.${lng}@example.org`);
    await page.getByLabel(w.code).fill(code);
    await page.getByRole('button', { name: w.confirm }).click();
    await expect(page.getByTestId('my-result')).toHaveCount(2, SLOW);
    await expect(page.getByTestId('claim-suggestion')).toHaveCount(0);
    await expect(page.getByTestId('personal-bests')).toContainText(w.best);
    await expect(page.getByTestId('my-result-time').first()).toHaveText('49:00');
    await shot(page, `runner-space-results-${lng}`);

    // The certificate of each result: a PDF.
    const href = await page.getByTestId('my-result-certificate').first().getAttribute('href');
    const pdf = await fetch(new URL(href!, server.url));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');

    // Hide my name everywhere.
    await page.getByRole('switch', { name: w.hideAll }).click();
    await expect(page.getByTestId('my-result-hidden')).toHaveCount(2, SLOW);
    // I still see my name on my own page.
    await expect(page.getByTestId('my-result').first()).toContainText('Dupré');

    const mine = await get<{ results: { eventId: string; trackingKey: string }[] }>(
      '/api/me/results',
      runner,
    );
    for (const r of [older, newer]) {
      const key = mine.results.find((m) => m.eventId === r.eventId)!.trackingKey;
      // The public table: "Hidden runner" in the reader's language, same ranks.
      await page.goto(
        `${server.url}/?lng=${lng}#/events/${r.eventId}/reportlist/group/${r.raceId}/report/LIVE1`,
      );
      const table = page.getByTestId('report-table');
      await expect(table.locator('[role=row][data-key="1"]')).toContainText(w.hidden, SLOW);
      await expect(table).not.toContainText('Dupré');
      await expect(table).not.toContainText('DUPRÉ');
      if (r === older) await shot(page, `runner-space-table-hidden-${lng}`);
      // The tracking card.
      await page.goto(`${server.url}/?lng=${lng}#/events/${r.eventId}/tracking/${key}`);
      await expect(page.getByRole('heading', { name: w.hidden }).first()).toBeVisible(SLOW);
      await expect(page.locator('body')).not.toContainText('Dupré');
      // Search by name finds nobody; the map shows no name.
      await page.goto(`${server.url}/?lng=${lng}#/events/${r.eventId}/tracking`);
      await page.getByLabel(w.search).fill('Dupré');
      await expect(page.getByRole('list').getByText('Dupré')).toHaveCount(0);
      await page.getByLabel(w.search).fill('Lenoir');
      await expect(page.getByText('Lenoir').first()).toBeVisible(SLOW);
      await page.goto(`${server.url}/?lng=${lng}#/events/${r.eventId}/map`);
      await page.waitForLoadState('networkidle');
      await expect(page.locator('body')).not.toContainText('Dupré');
      // The export.
      const csv = await (
        await fetch(
          `${server.url}/api/exports/${r.eventId}/groups/${r.raceId}/reports/LIVE1?format=csv&lng=${lng}`,
        )
      ).text();
      expect(csv).toContain(w.hidden);
      expect(csv.toUpperCase()).not.toContain('DUPRÉ');
    }
    const ranksAfter = await Promise.all(
      [older, newer].map((r) =>
        get<{ rows: unknown[][] }>(`/api/results/${r.eventId}/groups/${r.raceId}/reports/LIVE1`),
      ),
    );
    const ranks = (t: { rows: unknown[][] }) => t.rows.map((row) => [row[3], row[2]]);
    expect(ranksAfter.map(ranks)).toEqual(ranksBefore.map(ranks));

    // Download my data (GDPR article 15): JSON and a readable PDF in the page's language.
    const { publicSlug } = await (
      await fetch(`${server.url}/api/me/public-page`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${runner}` },
        body: JSON.stringify({ enabled: true }),
      })
    ).json();
    expect((await fetch(`${server.url}/api/runners/${publicSlug}`)).status).toBe(200);
    await page.goto(`${server.url}/?lng=${lng}#/me/results`);
    await page.getByTestId('my-data-link').click();
    await expect(page.getByRole('heading', { name: w.dataTitle, exact: true })).toBeVisible(SLOW);
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: w.json }).click(),
    ]);
    expect(json.suggestedFilename()).toMatch(/^tempora-my-data-\d{4}-\d\d-\d\d\.json$/);
    const data = JSON.parse(fs.readFileSync((await json.path())!, 'utf8'));
    expect(data.account.email).toBe(runnerEmail);
    expect(data.results.map((r: { eventId: string }) => r.eventId).sort()).toEqual(
      [older.eventId, newer.eventId].sort(),
    );
    expect(data.claims).toHaveLength(2);
    const [pdfFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: w.pdf }).click(),
    ]);
    const text = execFileSync('pdftotext', [(await pdfFile.path())!, '-'], { encoding: 'utf8' });
    expect(text).toContain(w.pdfTitle);
    expect(text).toContain('Dupré');
    await shot(page, `runner-space-my-data-${lng}`);

    // Delete my account (GDPR article 17): the confirm step says what happens first.
    await page.getByRole('button', { name: w.erase }).click();
    const dialog = page.getByRole('dialog', { name: w.eraseTitle });
    await expect(dialog.getByTestId('erase-preview')).toContainText(w.kept, SLOW);
    await shot(page, `runner-space-erase-${lng}`);
    await dialog.getByLabel(w.confirmEmail).fill(runnerEmail);
    await dialog.getByRole('button', { name: w.eraseConfirm }).click();
    const done = page.getByRole('dialog', { name: w.erased });
    await expect(done).toBeVisible(SLOW);
    await done.getByRole('button', { name: w.close }).click();
    await expect(page).not.toHaveURL(/#\/me\/data/, SLOW);

    // Gone: signing in with the old e-mail fails, the public runner page is 404, the name is
    // nowhere, and the ranks of both races are unchanged.
    const signIn = await fetch(`${server.url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: runnerEmail, password: PASSWORD }),
    });
    expect(signIn.status).toBe(401);
    expect((await fetch(`${server.url}/api/runners/${publicSlug}`)).status).toBe(404);
    const ranksErased = await Promise.all(
      [older, newer].map((r) =>
        get<{ rows: unknown[][] }>(`/api/results/${r.eventId}/groups/${r.raceId}/reports/LIVE1`),
      ),
    );
    expect(ranksErased.map(ranks)).toEqual(ranksBefore.map(ranks));
    expect(JSON.stringify(ranksErased).toUpperCase()).not.toContain('DUPRÉ');
    // Each organiser sees that an account was deleted, and when, without the name.
    for (const r of [older, newer]) {
      const { log } = await get<{ log: { action: string; detail: Record<string, number> }[] }>(
        `/api/console/events/${r.eventId}/retention`,
        r.token,
      );
      expect(log).toEqual([
        expect.objectContaining({
          action: 'account-erased',
          detail: expect.objectContaining({ resultsKeptAnonymous: 1 }),
        }),
      ]);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
}
