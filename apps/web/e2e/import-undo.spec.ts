import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 29, imports as RaceResult users expect: a small French XLSX with a duplicate bib and a
 * missing name → the mapping shows each column's values → the preview says once that the race has
 * no bib range → import → the refused rows downloaded (their content read) → undo → the runners
 * are gone. On a phone and a desktop, in English and French; each pass its own race.
 */
let server: RunningServer;
let token = '';
const STAFF = 'organiser@example.org';
const PASSWORD = 'a long organiser password';
const EVENT = 'import-night-run';
const DB = 'import-night-run-2026';
/** Reading a workbook and checking rows run on a worker thread: slow on a loaded machine. */
const SLOW = { timeout: 120_000 };
const SHOTS = process.env.SCREENSHOTS ? path.resolve(import.meta.dirname, '../../../.tmp/screens') : null;

const WORDS = {
  en: {
    samples: 'e.g. Martin · Durand · Petit',
    race: 'Race',
    check: 'Check every row',
    noRange: 'The race has no bib range: 1 runner without a bib will keep none',
    alsoOn: 'Bib 102 is also on line 3',
    run: 'Import',
    done: '3 participants imported (2 row(s) skipped).',
    csv: 'Refused rows (CSV)',
    header: 'Dossard,Prénom,Nom,Sexe,Date de naissance,Line,Reason',
    refusedLines: [
      '102,Marc,Petit,M,02/02/1982,4,Bib 102 is also on line 3',
      '103,Anne,,F,05/05/1995,5,Last name is missing',
    ],
    undoOf: 'Undo the import of inscrits.xlsx',
    confirm: 'Undo the import',
    undone: 'Import undone: 3 participants removed.',
  },
  fr: {
    samples: 'ex. : Martin · Durand · Petit',
    race: 'Course',
    check: 'Vérifier chaque ligne',
    noRange: 'La course n’a pas de plage de dossards : 1 coureur sans dossard le restera',
    alsoOn: 'Le dossard 102 est aussi à la ligne 3',
    run: 'Importer',
    done: '3 participants importés (2 ligne(s) ignorée(s)).',
    csv: 'Lignes refusées (CSV)',
    header: 'Dossard;Prénom;Nom;Sexe;Date de naissance;Ligne;Motif',
    refusedLines: [
      '102;Marc;Petit;M;02/02/1982;4;Le dossard 102 est aussi à la ligne 3',
      '103;Anne;;F;05/05/1995;5;Nom manquant',
    ],
    undoOf: 'Annuler l’import de inscrits.xlsx',
    confirm: 'Annuler l’import',
    undone: 'Import annulé : 3 participants supprimés.',
  },
} as const;

/** Line 4 repeats line 3's bib, line 5 has no last name, line 6 no bib. */
async function frenchFile(): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Inscrits');
  sheet.addRow(['Dossard', 'Prénom', 'Nom', 'Sexe', 'Date de naissance']);
  for (const row of [
    ['101', 'Léa', 'Martin', 'F', '12/03/1990'],
    ['102', 'Paul', 'Durand', 'M', '01/01/1980'],
    ['102', 'Marc', 'Petit', 'M', '02/02/1982'],
    ['103', 'Anne', '', 'F', '05/05/1995'],
    ['', 'Zoé', 'Blanc', 'F', ''],
  ])
    sheet.addRow(row);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-e2e-'));
  const file = path.join(dir, 'inscrits.xlsx');
  await book.xlsx.writeFile(file);
  return file;
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

test.beforeAll(async () => {
  // Starting a server (migrations, demo seed) takes minutes on a loaded machine
  // (E2E_READY_TIMEOUT_MS raises server.ts's wait).
  test.setTimeout(600_000);
  // An empty database (no demo seed): nothing for the results module to load at start.
  server = await startServer({ SEED_DEMO: 'false' });
  token = await verifiedAccount(server, STAFF, PASSWORD, true);
  const org = await post<{ id: string }>(
    server,
    '/api/console/organisations',
    { name: 'Import Night', country: 'BE', contactEmail: STAFF },
    token,
  );
  await post(
    server,
    `/api/console/organisations/${org.id}/events`,
    {
      id: EVENT,
      name: 'Night Run',
      startDate: '2026-10-03',
      endDate: '2026-10-03',
      place: 'Namur',
      placeLat: 50.4669,
      placeLon: 4.8675,
      timeZone: 'Europe/Brussels',
    },
    token,
  );
  await post(server, `/api/console/events/${EVENT}/contexts`, { db: DB, name: '2026' }, token);
});
test.afterAll(async () => server?.stop());

for (const [size, width, height] of [
  ['desktop', 1280, 800],
  ['phone', 390, 844],
] as const) {
  for (const lng of ['en', 'fr'] as const) {
    test(`import with samples, one notice, refused rows, undo (${size}, ${lng})`, async ({ browser }) => {
      test.setTimeout(600_000);
      const w = WORDS[lng];
      const raceId = `import-${size}-${lng}`;
      const raceName = `Import ${size} ${lng}`;
      // A race with neither bib range nor categories: the preview warns once.
      await post(
        server,
        `/api/results/contexts/${DB}/races`,
        {
          id: raceId,
          name: raceName,
          date: '2026-06-14',
          distanceM: 5000,
          startType: 'mass',
          points: [{ key: 'finish', name: 'Finish', distanceM: 5000 }],
        },
        token,
      );
      const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${server.url}/?lng=en#/console`);
      await page.getByLabel('E-mail').fill(STAFF);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/#\/console$/, SLOW);
      await page.goto(`${server.url}/?lng=${lng}#/console/events/${EVENT}/participants/import`);
      await page.getByTestId('import-file').setInputFiles(await frenchFile());

      // The mapping: each choice shows what its column holds.
      await expect(page.getByTestId('mapping-lastName')).toContainText(w.samples, SLOW);
      await page.getByRole('combobox', { name: w.race, exact: true }).click();
      await page.getByRole('option', { name: raceName }).click();
      await shot(page, `import-mapping-${size}-${lng}`);

      // The preview: the missing range said once, the duplicate naming its other line.
      await page.getByRole('button', { name: w.check }).click();
      const notices = page.getByTestId('import-notices');
      await expect(notices).toContainText(w.noRange, SLOW);
      await expect(notices.getByText(w.noRange)).toHaveCount(1);
      await expect(page.getByTestId('import-problems')).toContainText(w.alsoOn);
      await expect(page.getByTestId('import-problems').locator('li')).toHaveCount(2);
      await shot(page, `import-preview-${size}-${lng}`);

      await page.getByRole('button', { name: w.run, exact: true }).click();
      const result = page.getByTestId('import-result');
      await expect(result.getByRole('status')).toContainText(w.done, SLOW);
      await shot(page, `import-result-${size}-${lng}`);

      // The refused rows, as the file held them with the line and the reason.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        result.getByRole('button', { name: w.csv }).click(),
      ]);
      const text = fs.readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
      expect(text.trim().split('\r\n')).toEqual([w.header, ...w.refusedLines]);

      // Undo from the history entry, after a confirmation.
      const list = async () =>
        (
          await (
            await fetch(`${server.url}/api/console/events/${EVENT}/participants?race=${raceId}&limit=50`, {
              headers: { authorization: `Bearer ${token}` },
            })
          ).json()
        ).total as number;
      expect(await list()).toBe(3);
      const history = page.getByTestId('import-history');
      await history.getByRole('button', { name: w.undoOf }).first().click();
      const dialog = page.getByRole('dialog');
      await shot(page, `import-undo-dialog-${size}-${lng}`);
      await dialog.getByRole('button', { name: w.confirm }).click();
      await expect(page.getByText(w.undone)).toBeVisible(SLOW);
      await expect(dialog).toBeHidden();
      expect(await list()).toBe(0);
      await history.scrollIntoViewIfNeeded();
      await shot(page, `import-history-${size}-${lng}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
}
