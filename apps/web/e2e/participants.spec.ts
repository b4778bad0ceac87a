import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 14 (part B): an organiser imports 2,000 participants from an XLSX with French column
 * names (mapping, preview reporting a duplicate and a bad date, import of the valid rows),
 * assigns the missing bibs from a range, and an anonymous spectator finds them in the public
 * start list, in both languages. The organiser is platform staff here (the console's
 * organisations and invitations are part A's journey); the race is made through the API.
 */
let server: RunningServer;
const STAFF = 'organiser@example.org';
const PASSWORD = 'a long organiser password';
const EVENT = 'demo-city-run';
const DB = 'demo-city-run-10k';
const RACE = 'kids-run';
const SHOTS = process.env.SCREENSHOTS ? path.resolve(import.meta.dirname, '../../../.tmp/screens') : null;

test.beforeAll(async () => {
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF, DEMO_REPLAY: 'false' });
});
test.afterAll(async () => server?.stop());

const FIRST = ['Élodie', 'Jean', 'Sofie', 'Luc', 'Ana', 'Marc', 'Inès', 'Noah', 'Zoé', 'Hugo'];
const LAST = [
  'Dupré',
  'Martin',
  'Peeters',
  'Janssens',
  'Silva',
  'Lefèvre',
  'Maes',
  'Dubois',
  'Claes',
  'Goossens',
];

/** 2,000 rows with French headers: every tenth without a bib, one duplicate person, one bad date. */
async function workbook(): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Inscriptions');
  sheet.addRow(['Dossard', 'Prénom', 'Nom', 'Sexe', 'Date de naissance', 'Club', 'Nationalité', 'E-mail']);
  for (let k = 0; k < 2000; k++) {
    const first = FIRST[k % 10]!;
    const last = `${LAST[Math.floor(k / 10) % 10]}${k >= 100 ? `-${Math.floor(k / 100)}` : ''}`;
    const birth = new Date(Date.UTC(1960 + (k % 45), k % 12, 1 + (k % 28)));
    sheet.addRow([
      k % 10 === 9 ? null : 1000 + k,
      first,
      last,
      k % 2 ? 'Homme' : 'Femme',
      k === 1500 ? '31/02/1990' : birth,
      k % 3 ? 'AC Liège' : 'Namur Running',
      'BEL',
      `runner${k}@example.be`,
    ]);
  }
  // The same person as row 2 (line 3), under another bib.
  sheet.addRow([5000, 'Jean', 'Dupré', 'Homme', new Date(Date.UTC(1961, 1, 2)), '', 'BEL', '']);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-xlsx-')), 'inscriptions-2026.xlsx');
  await book.xlsx.writeFile(file);
  return file;
}

async function signIn(page: Page) {
  await page.goto(`${server.url}/?lng=en#/login`);
  await page.getByLabel('E-mail').fill(STAFF);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/#\/$/);
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
}

test('an organiser imports 2,000 runners from an XLSX, assigns bibs; spectators see the start list', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const token = await verifiedAccount(server, STAFF, PASSWORD, true);
  await post(
    server,
    `/api/results/contexts/${DB}/races`,
    {
      id: RACE,
      name: 'Kids & Family Run',
      date: '2026-06-14',
      distanceM: 3000,
      startType: 'mass',
      gunTimeMs: Date.UTC(2026, 5, 14, 8),
      categories: [
        { id: 'F', name: 'Women', gender: 'F', minAge: 10, maxAge: 99 },
        { id: 'M', name: 'Men', gender: 'M', minAge: 10, maxAge: 99 },
      ],
      points: [{ key: 'finish', name: 'Finish', distanceM: 3000 }],
    },
    token,
  );
  const file = await workbook();
  await signIn(page);

  await page.goto(`${server.url}/?lng=en#/console/events/${EVENT}/participants/import`);
  await expect(page.getByRole('heading', { level: 2, name: 'Imports' })).toBeVisible();
  await page.getByTestId('import-file').setInputFiles(file);
  await expect(page.getByRole('heading', { name: /inscriptions-2026\.xlsx: 2001 rows/ })).toBeVisible();
  // The French headers are recognised; the race is chosen.
  await expect(page.getByRole('combobox', { name: 'First name *' })).toHaveText('Prénom');
  await expect(page.getByRole('combobox', { name: 'Birth date' })).toHaveText('Date de naissance');
  await page.getByRole('combobox', { name: 'Race' }).click();
  await page.getByRole('option', { name: 'Kids & Family Run' }).click();
  await shot(page, 'import-mapping-desktop-en');
  await page.getByRole('button', { name: 'Check every row' }).click();
  const problems = page.getByRole('list', { name: 'Rows with errors or warnings' });
  await expect(page.getByText('1999 valid', { exact: true })).toBeVisible();
  await expect(page.getByText('2 with errors', { exact: true })).toBeVisible();
  await expect(problems).toContainText('Line 1502 — 2500 Élodie Dupré-15');
  await expect(problems).toContainText("Birth date: '31/02/1990' is not a date");
  await expect(problems).toContainText('Already registered (same name and birth date)');
  await shot(page, 'import-preview-desktop-en');
  await page.getByRole('radio', { name: /Import the 1999 valid rows/ }).check();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: '1999 participants imported (2 row(s) skipped)' }),
  ).toBeVisible({
    timeout: 60_000,
  });

  await page.getByRole('link', { name: 'See the participants' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Participants' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Race' }).click();
  await page.getByRole('option', { name: 'Kids & Family Run' }).click();
  await expect(page.getByText('1999 participants')).toBeVisible();
  await page.getByLabel('Without a bib').check();
  await expect(page.getByText('200 participants')).toBeVisible();
  await shot(page, 'grid-desktop-en');

  await page.getByRole('button', { name: 'Assign bibs' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assign bibs from a range' });
  await dialog.getByRole('combobox', { name: 'Race' }).click();
  await page.getByRole('option', { name: /Kids & Family Run/ }).click();
  await dialog.getByLabel('First bib').fill('3000');
  await dialog.getByLabel('Last bib').fill('3999');
  await dialog.getByRole('button', { name: 'Assign' }).click();
  await expect(dialog.getByRole('status')).toHaveText('200 bibs assigned; 0 runner(s) still without one.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText('0 participants')).toBeVisible();
  await page.getByLabel('Without a bib').uncheck();

  // Inline edit with its history; the search ignores accents and case.
  await page.getByRole('searchbox', { name: 'Search' }).fill('MARTIN-15 hugo');
  const grid = page.getByTestId('participant-grid');
  await expect(page.getByText('1 participant', { exact: true })).toBeVisible();
  await grid.getByRole('button', { name: /^Club of Hugo Martin-15/ }).click();
  await grid.getByRole('textbox', { name: 'Club of Hugo Martin-15' }).fill('Liège Athlétisme');
  await grid.getByRole('textbox', { name: 'Club of Hugo Martin-15' }).press('Enter');
  await expect(grid.getByRole('button', { name: /^Club of Hugo Martin-15: Liège Athlétisme/ })).toBeVisible();
  await grid.getByRole('button', { name: 'History of Hugo Martin-15' }).click();
  await expect(page.getByRole('dialog')).toContainText('Club: AC Liège → Liège Athlétisme');
  await expect(page.getByRole('dialog')).toContainText(STAFF);
  await page.getByRole('button', { name: 'Close' }).click();

  // An anonymous spectator, in both languages.
  const spectator = await browser.newPage();
  for (const [lng, title, runner] of [
    ['en', 'Start list', 'MARTIN-15 Hugo'],
    ['fr', 'Liste de départ', 'MARTIN-15 Hugo'],
  ] as const) {
    await spectator.goto(`${server.url}/?lng=${lng}#/events/${EVENT}/reportlist`);
    await spectator
      .locator('section')
      .filter({ has: spectator.getByRole('heading', { name: 'Kids & Family Run' }) })
      .getByRole('link', { name: title })
      .click();
    await expect(spectator).toHaveURL(new RegExp(`group/${RACE}/report/START`));
    await spectator.getByRole('searchbox').fill('Martin-15');
    await expect(spectator.getByTestId('report-table')).toContainText(runner);
    await expect(spectator.getByTestId('report-table')).toContainText('Liège Athlétisme');
  }
  await spectator.close();
});
