import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { deviceKey, ingest, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 27 (big tables) and issue 28 (channels follow views) on Boston 2017 (26,410 rows) and the
 * demo 10 km: jump to a rank or a bib, back to top, and a scrolled table kept live by the rank
 * windows on its screen. A server of its own; platform staff import Boston as an organiser would.
 */
const STAFF = 'staff@example.org';
const BOSTON = path.resolve(import.meta.dirname, '../../../fixtures/boston-2017.csv');
const EVENT = '/events/demo-city-run';
const SHOTS = path.resolve(import.meta.dirname, '../../../../.tmp/e2e-results/big-table');

let server: RunningServer;
let token: string;
test.beforeAll(async () => {
  test.setTimeout(600_000);
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF });
  token = await verifiedAccount(server, STAFF, 'a long staff password');
  const imported = await fetch(
    `${server.url}/api/results/contexts/demo-city-run-10k/import/boston?race=boston&name=Boston%20Marathon%202017&date=2017-04-17&gun=2017-04-17T10:00:00-04:00`,
    {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${token}` },
      body: fs.readFileSync(BOSTON, 'utf8'),
    },
  );
  expect(imported.status).toBe(201);
});
test.afterAll(async () => server?.stop());

const TEXT = {
  en: { go: 'Go', value: 'Rank or bib number', kind: 'Go to', top: 'Back to top', bib: 'Bib' },
  fr: {
    go: 'Aller',
    value: 'Numéro de place ou de dossard',
    kind: 'Aller à',
    top: 'Haut du tableau',
    bib: 'Dossard',
  },
} as const;

/** The channels the page holds, from the subscribe and unsubscribe frames it sent. */
function channelsOf(page: Page) {
  const sent: { event: string; channel: string }[] = [];
  const received: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (frame) => {
      const message = JSON.parse(String(frame.payload)) as { event: string; data?: { channel?: string } };
      if (message.event === 'pusher:subscribe' || message.event === 'pusher:unsubscribe')
        sent.push({ event: message.event, channel: message.data?.channel ?? '' });
    });
    ws.on('framereceived', (frame) => {
      const message = JSON.parse(String(frame.payload)) as { event: string; channel?: string };
      if (message.event === 'results' && message.channel) received.push(message.channel);
    });
  });
  const held = () =>
    [
      ...sent.reduce((set, m) => {
        if (m.event === 'pusher:subscribe') set.add(m.channel);
        else set.delete(m.channel);
        return set;
      }, new Set<string>()),
    ].filter((c) => c.includes('-report-'));
  return { held, received };
}

for (const [viewport, size] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 900 }],
] as const) {
  for (const lng of ['en', 'fr'] as const) {
    // The jump may be asked for while the rest of the table is still coming (CI found it said "no
    // row" then): it waits for the rows and jumps when they arrive.
    test(`Boston on a ${viewport} (${lng}): jump to rank 20000 shows its row, back to top returns to rank 1`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(size);
      const t = TEXT[lng];
      const { held } = channelsOf(page);
      // Issue 28's page budget: the main thread's long tasks while the rest of the table loads
      // (noted, not asserted: timings on a shared machine are noise).
      await page.addInitScript(() => {
        const w = window as unknown as { longTasks: number[] };
        w.longTasks = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) w.longTasks.push(Math.round(entry.duration));
        }).observe({ type: 'longtask', buffered: true });
      });
      await page.goto(`${server.url}/?lng=${lng}#${EVENT}/reportlist/group/boston/report/LIVE1`);
      const table = page.getByTestId('report-table');
      await expect(table.locator('[aria-rowindex="2"]')).toBeVisible({ timeout: 30_000 });
      // The whole table is there (the rest loaded after the first rows).
      await expect(table).toHaveAttribute('aria-rowcount', '26411', { timeout: 30_000 });
      await expect.poll(held).toEqual(['results-demo-city-run-10k-report-boston-LIVE1-top']);
      const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
      test.info().annotations.push({ type: 'long tasks (ms)', description: JSON.stringify(longTasks) });
      console.log(`long tasks ${viewport} ${lng}: ${JSON.stringify(longTasks)}`);

      await page.getByRole('textbox', { name: t.value }).fill('20000');
      await page.getByRole('button', { name: t.go, exact: true }).click();
      const target = table.locator('[aria-current="true"]');
      await expect(target).toBeVisible();
      // Its rank cell (the first cell is the favourite star).
      await expect(target.getByRole('cell', { name: '20000', exact: true })).toBeVisible();
      // Issue 41: five-digit ranks and hours-long gaps fit their columns in the page's own font —
      // no number, time or gap on screen is cut (a name may be).
      const cut = await table
        .locator('[role=row][data-index] [role=cell]')
        .evaluateAll((cells) =>
          cells
            .filter((c) => /^[+\d:.]+$/.test(c.textContent ?? '') && c.scrollWidth > c.clientWidth)
            .map((c) => c.textContent),
        );
      expect(cut).toEqual([]);
      if (viewport === 'desktop')
        await expect(target.getByRole('cell', { name: /^\+\d:\d\d:\d\d$/ })).toBeVisible();
      // The sticky header stays on top of the scrolled rows.
      await expect(table.getByRole('columnheader').first()).toBeInViewport();
      // Rank 20000 is row 20,001 of the grid: window 666 (ranks 19,981–20,010) is held.
      await expect
        .poll(held, { timeout: 10_000 })
        .toContain('results-demo-city-run-10k-report-boston-LIVE1-w666');
      await page.screenshot({ path: `${SHOTS}/jump-${viewport}-${lng}.png` });

      // A bib too: the first row's bib, then back to the top, focus on the table.
      const back = page.getByRole('button', { name: t.top });
      await expect(back).toBeVisible();
      await back.click();
      await expect(table.locator('[aria-rowindex="2"]')).toBeInViewport();
      await expect(
        table.locator('[aria-rowindex="2"]').getByRole('cell', { name: '1', exact: true }).first(),
      ).toBeVisible();
      await expect(table).toBeFocused();
      await expect(back).toBeHidden();
      await expect
        .poll(held, { timeout: 10_000 })
        .toEqual(['results-demo-city-run-10k-report-boston-LIVE1-top']);
      await page.screenshot({ path: `${SHOTS}/top-${viewport}-${lng}.png` });
    });
  }
}

test('a jump made while the name search holds text clears it and lands on the row (issue 41)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/?lng=en#${EVENT}/reportlist/group/boston/report/LIVE1`);
  const table = page.getByTestId('report-table');
  await expect(table).toHaveAttribute('aria-rowcount', '26411', { timeout: 60_000 });
  const search = page.getByPlaceholder('Name or bib');
  await search.fill('smith');
  await expect(table).not.toHaveAttribute('aria-rowcount', '26411');
  await page.getByRole('textbox', { name: 'Rank or bib number' }).fill('20000');
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(search).toHaveValue('');
  await expect(table).toHaveAttribute('aria-rowcount', '26411');
  const target = table.locator('[aria-current="true"]');
  await expect(target.getByRole('cell', { name: '20000', exact: true })).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/jump-after-search-desktop-en.png` });
});

for (const lng of ['en', 'fr'] as const) {
  test(`a category list on a phone shows each runner's overall rank (issue 41, ${lng})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 390, height: 844 });
    const list = (await (await fetch(`${server.url}/api/results/demo-city-run/reportlist`)).json()) as {
      groups: { key: string; reports: { key: string }[] }[];
    };
    const category = list.groups
      .find((g) => g.key === 'boston')!
      .reports.find((r) => r.key.startsWith('CAT-F'))!;
    const url = `${server.url}/api/results/demo-city-run/groups/boston/reports/${category.key}?offset=0&limit=3`;
    const report = (await (await fetch(url)).json()) as {
      rows: unknown[][];
      columns: { FieldIdx: number; Title: { en: string } }[];
    };
    const overall = report.columns.find((c) => c.Title.en === 'Overall')!.FieldIdx;
    await page.goto(`${server.url}/?lng=${lng}#${EVENT}/reportlist/group/boston/report/${category.key}`);
    const table = page.getByTestId('report-table');
    const first = table.locator('[aria-rowindex="2"]');
    await expect(first).toBeVisible({ timeout: 30_000 });
    // Its own rank is 1; the overall rank is on the row itself, not behind its details button.
    const word = lng === 'en' ? 'Overall' : 'Pl. gén.';
    for (const [k, row] of report.rows.entries())
      await expect(table.locator(`[aria-rowindex="${k + 2}"] .rt-beneath`)).toContainText(
        `${word} ${String(row[overall])}`,
      );
    await expect(first.locator('.rt-beneath')).toBeInViewport();
    await page.screenshot({ path: `${SHOTS}/category-phone-${lng}.png` });
  });
}

test('a table scrolled to a runner holds the rank window on screen and receives its patches', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const { held, received } = channelsOf(page);
  // A runner without a time, far down the 10 km's table.
  const report = (await (
    await fetch(`${server.url}/api/results/demo-city-run/groups/city-10k/reports/LIVE1`)
  ).json()) as {
    rows: unknown[][];
    keyField: number;
    columns: { FieldIdx: number; Title: { en: string } }[];
  };
  const time = report.columns.find((c) => c.Title.en === 'Time')!.FieldIdx;
  const index = report.rows.findIndex((row, i) => i >= 400 && !row[time]);
  expect(index).toBeGreaterThan(0);
  const bib = String(report.rows[index]![report.keyField]);

  await page.goto(`${server.url}/?lng=en#${EVENT}/reportlist/group/city-10k/report/LIVE1`);
  const table = page.getByTestId('report-table');
  await expect(table.locator('[aria-rowindex="2"]')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Go to' }).selectOption('bib');
  await page.getByRole('textbox', { name: 'Rank or bib number' }).fill(bib);
  const go = page.getByRole('button', { name: 'Go', exact: true });
  await go.click();
  const row = table.locator(`[data-key="${bib}"]`);
  await expect(row).toBeVisible();
  // The window of the row where the page shows it now: the demo 10 km is live, and runners who had
  // no time when the report was read pass 2.5 km meanwhile, moving the row down by tens of places —
  // out of the screen, while the virtualizer still renders it (Playwright's "visible" is not "on
  // screen": the check failed its first attempt in two CI runs). The page holds the windows of its
  // screen, so the row is looked at on screen, and "Go" is pressed again when it has moved off.
  const onScreen = () =>
    row.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const y = r.top + r.height / 2;
      return y >= 0 && y <= innerHeight && el.contains(document.elementFromPoint(r.left + r.width / 2, y));
    });
  const windowOfRow = async () =>
    `results-demo-city-run-10k-report-city-10k-LIVE1-w${Math.floor((Number(await row.getAttribute('data-index')) || 0) / 30)}`;
  let window = '';
  await expect
    .poll(
      async () => {
        if ((await row.count()) === 0 || !(await onScreen())) {
          await go.click();
          return false;
        }
        window = await windowOfRow();
        return held().includes(window);
      },
      { timeout: 20_000, intervals: [250, 500, 1000] },
    )
    .toBe(true);
  expect(held().some((c) => c.endsWith('-top'))).toBe(false);
  // From here on (before, the page held the top window: a patch there, from an earlier test's
  // reads still being published, was the page's to receive).
  const since = received.length;

  // The runner finishes: his window gets a patch, and his row shows a time.
  const key = await deviceKey(server, token, 'demo-city-run-10k', 'finish (windows)', 'finish');
  expect(await ingest(server, key, [{ bib, time: Date.now() - 1000 }])).toBe(200);
  await expect
    .poll(() => received.filter((c) => c === window).length, { timeout: 15_000 })
    .toBeGreaterThan(0);
  expect(received.slice(since).some((c) => c.endsWith('-top'))).toBe(false);
  await page.screenshot({ path: `${SHOTS}/window-patch-desktop-en.png` });
});
