import { expect, type Locator, type Page, test } from '@playwright/test';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 27 on rendered pages, phone (390 px) and desktop (1280 px), English and French: in the
 * women's list and a category list every gap is its time minus the list's first time, written one
 * way (`+0:21`); a category list shows the overall rank beside its own; a running time says where
 * it was taken.
 */
const REPORTS = '/events/demo-city-run/reportlist/group';
const GAP = { en: 'Gap', fr: 'Écart' } as const;
const TIME = { en: 'Time', fr: 'Temps' } as const;

let server: RunningServer;
let category = '';
test.beforeAll(async () => {
  test.setTimeout(180_000);
  // The demo's races replayed 100× faster: the 10 km is over within a minute or two.
  server = await startServer({ DEMO_SPEED: '100' });
  const list = (await (await fetch(`${server.url}/api/results/demo-city-run/reportlist`)).json()) as {
    groups: { key: string; reports: { key: string }[] }[];
  };
  const keys = list.groups.find((g) => g.key === 'city-10k')!.reports.map((r) => r.key);
  for (let tries = 0; tries < 150; tries++) {
    const women = (await (
      await fetch(`${server.url}/api/results/demo-city-run/groups/city-10k/reports/LIVE2`)
    ).json()) as { rows: unknown[][] };
    if (women.rows.filter((r) => /^\d+$/.test(String(r[2]))).length > 60) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  category = keys.find((k) => k.startsWith('CAT-F')) ?? keys.find((k) => k.startsWith('CAT-'))!;
});
test.afterAll(async () => server?.stop());

const seconds = (text: string) =>
  text
    .replace(/^[+]/, '')
    .split(':')
    .reduce((acc, part) => acc * 60 + Number(part), 0);

/** The header titles and the first rows' visible cells of the report table. */
async function grid(page: Page, rows = 12) {
  const table = page.getByTestId('report-table');
  await expect(table.locator('[aria-rowindex="2"]')).toBeVisible({ timeout: 20_000 });
  const heads = (await table.getByRole('columnheader').allInnerTexts()).map((h) => h.trim());
  const body: { cells: string[]; row: Locator }[] = [];
  for (let k = 2; k < rows + 2; k++) {
    const row = table.locator(`[role=row][aria-rowindex="${k}"]`);
    if (!(await row.count())) break;
    body.push({ row, cells: (await row.getByRole('cell').allInnerTexts()).map((c) => c.trim()) });
  }
  return { heads, body };
}

for (const lng of ['en', 'fr'] as const) {
  test(`desktop: gaps from the list's own leader, one format, ranks beside the category's (${lng})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const report of ['LIVE2', category]) {
      await page.goto(`${server.url}/?lng=${lng}#${REPORTS}/city-10k/report/${report}`);
      const { heads, body } = await grid(page);
      const time = heads.indexOf(TIME[lng]);
      const gap = heads.indexOf(GAP[lng]);
      expect(time).toBeGreaterThan(0);
      expect(gap).toBeGreaterThan(0);
      const leader = seconds(body[0]!.cells[time]!);
      // The list's first has no gap (not 12:15 behind the first man).
      expect(body[0]!.cells[gap]).toBe('');
      for (const { cells } of body.slice(1)) {
        const behind = seconds(cells[time]!) - leader;
        if (behind === 0) expect(cells[gap]).toBe('');
        else {
          expect(cells[gap]).toMatch(/^\+\d+:\d\d(:\d\d)?$/);
          expect(seconds(cells[gap]!)).toBe(behind);
        }
      }
      if (report === category) {
        // "Rank" is the category's; the overall rank is beside it, "Cat. rank" not repeated.
        const overall = lng === 'en' ? 'Overall' : 'Pl. gén.';
        expect(heads).toContain(overall);
        expect(heads).not.toContain(lng === 'en' ? 'Cat. rank' : 'Pl. cat.');
        const ranks = body.map(({ cells }) => cells[heads.indexOf(overall)]);
        expect(ranks.some((r, k) => r !== String(k + 1))).toBe(true);
      }
    }
    await page.screenshot({ path: `test-results/issue27-women-1280-${lng}.png` });
  });

  test(`phone: a row's gap (expanded) is from the list's first, running times name their point (${lng})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/?lng=${lng}#${REPORTS}/city-10k/report/LIVE2`);
    const { heads, body } = await grid(page, 3);
    const time = heads.indexOf(TIME[lng]);
    const leader = seconds(body[0]!.cells[time]!.split('\n')[0]!);
    const second = body[1]!;
    await second.row.getByRole('button', { expanded: false }).click();
    const details = page.getByTestId('report-table').locator('dl').first();
    const dd = details.locator('div').filter({ has: page.locator('dt', { hasText: GAP[lng] }) });
    const shown = (await dd.locator('dd').innerText()).trim();
    expect(shown).toMatch(/^\+\d+:\d\d$/);
    expect(seconds(shown)).toBe(seconds(second.cells[time]!.split('\n')[0]!) - leader);
    await page.screenshot({ path: `test-results/issue27-women-390-${lng}.png` });
    // The marathon is still running: a running time carries its point beneath it.
    await page.goto(`${server.url}/?lng=${lng}#${REPORTS}/city-marathon/report/LIVE1`);
    const table = page.getByTestId('report-table');
    await expect(table.locator('[aria-rowindex="2"]')).toBeVisible({ timeout: 20_000 });
    const at = table.locator('.rt-at').first();
    await expect(at).toBeVisible({ timeout: 30_000 });
    expect((await at.innerText()).trim()).toMatch(/km|Semi|Half/);
    await page.screenshot({ path: `test-results/issue27-marathon-390-${lng}.png` });
  });
}

for (const [lng, separator] of [
  ['en', ','],
  ['fr', '\u202f'],
] as const) {
  test(`statistics write counts the reader's way: 1${separator}200 (${lng})`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(
      `${server.url}/?lng=${lng}#/events/demo-city-run/ctx/demo-city-run-10k/generic/live/stats/city-10k`,
    );
    const registered = page.getByRole('table').first().getByRole('row').first().getByRole('cell').last();
    await expect(registered).toHaveText(`1${separator}200`, { timeout: 20_000 });
    await page.screenshot({ path: `test-results/issue27-stats-1280-${lng}.png`, fullPage: true });
  });
}

test('titles do not repeat, breadcrumbs keep the event, leaders link to their cards, no dead-end tiles', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/?lng=en#${REPORTS}/city-10k/report/LIVE1`);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Demo City Run · 10 km · Overall', { timeout: 20_000 });
  const crumbs = page.getByRole('navigation', { name: /breadcrumb/i });
  await expect(crumbs.getByRole('link', { name: 'Demo City Run' })).toHaveAttribute(
    'href',
    /#\/events\/demo-city-run\/home$/,
  );
  await page.goto(`${server.url}/?lng=en#/firstrow/demo-city-run-10k/race/city-10k`);
  const leader = page.getByRole('table').first().getByRole('link').first();
  await expect(leader).toBeVisible({ timeout: 20_000 });
  await leader.click();
  await expect(page.getByTestId('athlete-card')).toBeVisible({ timeout: 20_000 });
  // The demo has no photos: no Photos tile; its race chip does not say "10 km · 10 km".
  await page.goto(`${server.url}/?lng=en#/events/demo-city-run/home`);
  const tiles = page.getByRole('navigation', { name: 'Quick links' });
  await expect(tiles.getByRole('link', { name: 'Results' })).toBeVisible({ timeout: 20_000 });
  await expect(tiles.getByRole('link', { name: 'Photos' })).toHaveCount(0);
  await expect(page.getByText('10 km · 10 km')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/issue27-event-home-1280-en.png', fullPage: true });
  // The home search finds the event by its race and by its place in French.
  for (const q of ['marathon', 'bruxelles']) {
    await page.goto(`${server.url}/?lng=fr#/`);
    await page.getByLabel('Rechercher un événement').fill(q);
    await expect(page.getByRole('heading', { name: 'Demo City Run' })).toBeVisible({ timeout: 10_000 });
  }
});

for (const [lng, width] of [
  ['en', 390],
  ['fr', 1280],
] as const) {
  test(`a runner on course: the "On course" chip reads at AA, the category's own gap (${lng}, ${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const hits = (await (
      await fetch(`${server.url}/api/results/contexts/demo-city-run-marathon/participants?q=a`)
    ).json()) as { trackingKey: string; status: string }[];
    const runner = hits.find((h) => h.status === 'onCourse') ?? hits[0]!;
    await page.goto(`${server.url}/?lng=${lng}#/tracking/${runner.trackingKey}`);
    const card = page.getByTestId('athlete-card');
    await expect(card).toBeVisible({ timeout: 20_000 });
    if (runner.status === 'onCourse') {
      const chip = card.locator('.MuiChip-root').first();
      const ratio = await chip.evaluate((el) => {
        const rgb = (c: string) =>
          c
            .match(/\d+(\.\d+)?/g)!
            .slice(0, 3)
            .map(Number);
        const lum = (c: string) => {
          const [r, g, b] = rgb(c).map((v) => {
            const s = v / 255;
            return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
        };
        const style = getComputedStyle(el);
        const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
        return (a! + 0.05) / (b! + 0.05);
      });
      expect(ratio).toBeGreaterThanOrEqual(4.5);
    }
    await page.screenshot({ path: `test-results/issue27-card-${width}-${lng}.png`, fullPage: true });
  });
}
