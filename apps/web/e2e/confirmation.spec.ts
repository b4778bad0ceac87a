import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { outbox, post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 17: the confirmation account imports a school's XLSX of 300 pupils with three errors and
 * one duplicate, fixes two in the grid, rejects one row, merges the duplicate, confirms; the
 * pupils are on the public start list with bibs and categories; the report shows totals and
 * fees; the school's contact has its mail in the outbox table (read through the dev outbox).
 * A server of its own: platform staff create the kids' race and its bib range and price.
 */
let server: RunningServer;
let staffToken = '';
const CONFIRMER = 'confirmation@tempora.local';
const PASSWORD = 'a long confirmation password';
const RACE = 'school-2k';
const CONTACT = 'head@sunny-school.example';

test.beforeAll(async () => {
  // Starting a server (migrations, demo seed) takes long on a loaded machine.
  test.setTimeout(180_000);
  server = await startServer({ PLATFORM_STAFF_EMAILS: 'staff@example.org', DEMO_REPLAY: 'false' });
  const staff = await verifiedAccount(server, 'staff@example.org', 'a long staff password');
  staffToken = staff;
  await post(
    server,
    '/api/results/contexts/demo-city-run-10k/races',
    {
      id: RACE,
      name: 'School 2 km',
      date: '2026-06-14',
      distanceM: 2000,
      startType: 'mass',
      categories: [
        { id: 'U10', name: 'Under 10', minAge: 6, maxAge: 9 },
        { id: 'U14', name: 'Under 14', minAge: 10, maxAge: 13 },
      ],
      points: [{ key: 'finish', name: 'Finish', distanceM: 2000 }],
    },
    staff,
  );
  const res = await fetch(`${server.url}/api/confirmation/races/${RACE}/settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${staff}` },
    body: JSON.stringify({
      bibFrom: 5000,
      bibTo: 5999,
      capacity: 1000,
      tariffs: [{ until: null, priceCents: 500 }],
    }),
  });
  expect(res.status).toBe(200);
  await verifiedAccount(server, CONFIRMER, PASSWORD, true);
});
test.afterAll(async () => server?.stop());

const FIRST = ['Emma', 'Louis', 'Olivia', 'Gabriel', 'Alice', 'Arthur', 'Louise', 'Jules', 'Mila', 'Adam'];
const FIRST2 = ['Lina', 'Noah', 'Rose', 'Victor', 'Anna', 'Hugo', 'Inès', 'Léo', 'Jade', 'Tom'];
const LAST = [
  'Peeters',
  'Janssens',
  'Maes',
  'Jacobs',
  'Mertens',
  'Willems',
  'Claes',
  'Goossens',
  'Wouters',
  'Dubois',
];
const LAST2 = [
  'Lambert',
  'Dupont',
  'Martin',
  'Simon',
  'Leroy',
  'Laurent',
  'Michel',
  'Lejeune',
  'Renard',
  'Mathieu',
];

/** 300 pupils: row 10 has an impossible date, row 20 no first name, row 30 gender "?"; row 300 repeats row 5. */
async function schoolWorkbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Élèves');
  sheet.addRow(['Prénom', 'Nom', 'Sexe', 'Date de naissance', 'Classe']);
  const pupils: (string | Date)[][] = [];
  for (let i = 0; i < 299; i++) {
    const first = (i < 100 ? FIRST : FIRST2)[i % 10]!;
    const last = (i < 200 ? LAST : LAST2)[Math.floor(i / 10) % 10]!;
    const born = new Date(Date.UTC(2013 + (i % 6), (i * 7) % 12, 1 + (i % 28)));
    pupils.push([
      first,
      `${last}${i >= 100 && i < 200 ? '-Ba' : ''}`,
      i % 2 ? 'F' : 'M',
      born,
      `P${1 + (i % 6)}`,
    ]);
  }
  pupils[9]![3] = '31/02/2015';
  pupils[19]![0] = '';
  pupils[29]![2] = '?';
  pupils.push([...pupils[4]!]);
  for (const p of pupils) sheet.addRow(p);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function signIn(page: Page) {
  await page.goto(`${server.url}/?lng=en#/login`);
  await page.getByLabel('E-mail').fill(CONFIRMER);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/#\/$/);
}

const row = (page: Page, position: number) => page.locator(`[role=row][data-position="${position}"]`);

test('a school’s 300 pupils: import, fix, reject, merge, confirm, start list, report and mail', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const consoleErrors: string[] = [];
  page.on('pageerror', (err) => consoleErrors.push(err.message));
  await signIn(page);
  await page.goto(`${server.url}/?lng=en#/confirmation/home`);
  await expect(page.getByRole('heading', { name: 'Registration documents' })).toBeVisible();

  await page.getByRole('button', { name: 'New document' }).click();
  const dialog = page.getByRole('dialog', { name: 'New registration document' });
  await dialog.getByLabel('Event').click();
  await page.getByRole('option', { name: 'Demo City Run' }).click();
  await dialog.getByLabel('Default race').click();
  await page.getByRole('option', { name: 'School 2 km' }).click();
  await dialog.getByLabel('Title').fill('Sunny School 2026');
  await dialog.getByLabel('Sender (club, company or school)').fill('Sunny School');
  await dialog.getByLabel('Contact e-mail').fill(CONTACT);
  await dialog.getByRole('button', { name: 'Create and import' }).click();
  await expect(page).toHaveURL(/\/import$/);

  await page.getByLabel('File (CSV or XLSX)').setInputFiles({
    name: 'sunny-school.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await schoolWorkbook(),
  });
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Version 1 is in use.')).toBeVisible();
  // The columns were recognised from their French headers.
  await expect(page.getByRole('combobox', { name: 'Birth date' })).toHaveText('Date de naissance');
  await page.getByRole('button', { name: 'Map and validate' }).click();
  await expect(page).toHaveURL(/\/edit$/);

  await page.getByRole('combobox', { name: 'Show' }).click();
  await page.getByRole('option', { name: 'To fix' }).click();
  const grid = page.getByRole('grid', { name: 'Rows of the document' });
  await expect(grid.locator('[role=row][data-position]')).toHaveCount(4);
  await expect(row(page, 10).locator('[data-field=birthDate]')).toHaveAttribute('aria-invalid', 'true');
  await expect(row(page, 300)).toContainText('Duplicate of row 5');

  if (process.env.SCREENSHOTS)
    for (const [width, height, device] of [
      [1280, 800, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `.tmp/screens/confirmation-edit-errors-${device}-en.png` });
    }
  await page.setViewportSize({ width: 1280, height: 720 });
  // Fix two cells in the grid: typing starts an edit, Enter saves.
  await row(page, 10).locator('[data-field=birthDate]').dblclick();
  await page.getByLabel('Birth date of row 10').fill('2015-02-28');
  await page.getByLabel('Birth date of row 10').press('Enter');
  await expect(row(page, 10)).toHaveCount(0);
  await row(page, 20).locator('[data-field=firstName]').click();
  await page.keyboard.type('L');
  await page.getByLabel('First name of row 20').fill('Lina');
  await page.keyboard.press('Enter');
  await expect(row(page, 20)).toHaveCount(0);
  // Reject one row, merge the duplicate.
  await row(page, 30).getByRole('button', { name: 'Reject' }).click();
  await expect(row(page, 30)).toHaveCount(0);
  await row(page, 300).getByRole('button', { name: 'Merge' }).click();
  await expect(grid.locator('[role=row][data-position]')).toHaveCount(0);

  await page.getByRole('button', { name: 'Confirm clean rows (298)' }).click();
  await expect(page.getByText('298 rows confirmed')).toBeVisible();

  // The pupils are participants: on the public start list, with bibs from the range and categories.
  const start = (await (
    await fetch(`${server.url}/api/results/demo-city-run/groups/${RACE}/reports/START?limit=500`)
  ).json()) as { rows: unknown[][] };
  expect(start.rows.length).toBe(298);
  await page.goto(`${server.url}/?lng=en#/events/demo-city-run/reportlist/group/${RACE}/report/START`);
  const table = page.getByTestId('report-table');
  await page.getByLabel('Search').fill('Janssens');
  await expect(table).toContainText('Lina');
  await expect(table.getByRole('row').nth(1)).toContainText(/50\d\d/);
  await expect(table.getByRole('row').nth(1)).toContainText(/U1[04]|Under 1[04]/);

  // The report: totals and fees (298 × €5).
  await page.goto(`${server.url}/?lng=en#/confirmation/home`);
  await page.getByRole('link', { name: 'Sunny School 2026' }).click();
  await expect(page.getByText('Confirmed', { exact: true }).first()).toBeVisible();
  await page.getByRole('tab', { name: 'Report' }).click();
  await expect(page.getByTestId('report-fees')).toHaveText('€1,490.00');
  await expect(page.getByRole('table', { name: 'By race' })).toContainText('298');

  // The fees became an order with an invoice (issue 29), downloadable from the summary.
  await page.getByRole('tab', { name: 'Summary' }).click();
  const order = page.getByTestId('document-order');
  await expect(order).toContainText(/Order #\d+ · invoice 000001 · €1,490\.00 — awaiting the bank transfer/);
  await expect(order).toContainText(
    /Structured communication for the transfer: \+\+\+\d{3}\/\d{4}\/\d{5}\+\+\+/,
  );
  const download = page.waitForEvent('download');
  await order.getByRole('button', { name: 'Invoice (PDF)' }).click();
  expect((await download).suggestedFilename()).toBe('invoice-000001.pdf');

  // The school's contact was told, with what to transfer.
  const mail = (await outbox(server, staffToken)).find((m) => m.to === CONTACT);
  expect(mail?.subject).toContain('Registration confirmed');
  expect(mail?.text).toContain('298 runner(s) registered');
  expect(mail?.text).toMatch(
    /Invoice 000001: please transfer €1490\.00 to .* with the structured communication \+\+\+/,
  );
  expect(consoleErrors).toEqual([]);

  if (process.env.SCREENSHOTS) await screenshots(page);
});

/**
 * With SCREENSHOTS=1: the confirmation screens at desktop and phone width in both languages,
 * written to .tmp/screens (out of git) to be looked at.
 */
async function screenshots(page: Page) {
  const docId = /document\/([\w-]+)\//.exec(page.url())![1]!;
  const screens: [string, string][] = [
    ['home', '/confirmation/home'],
    ['event', '/confirmation/event/demo-city-run'],
    ['document', `/confirmation/document/${docId}/home`],
    ['import', `/confirmation/document/${docId}/import`],
    ['edit', `/confirmation/document/${docId}/edit`],
    ['report', `/confirmation/document/${docId}/report`],
  ];
  for (const [width, height, device] of [
    [1280, 800, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const lng of ['en', 'fr']) {
      for (const [name, path] of screens) {
        await page.goto(`${server.url}/?lng=${lng}#${path}`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByRole('progressbar')).toHaveCount(0);
        await page.waitForTimeout(400);
        await page.screenshot({
          path: `.tmp/screens/confirmation-${name}-${device}-${lng}.png`,
          fullPage: name !== 'edit',
        });
      }
    }
  }
}
