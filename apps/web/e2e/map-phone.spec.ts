import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page, test } from '@playwright/test';
import { deviceKey, ingest, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 27, the course map on a 390 px phone: opened from the marathon it shows the marathon (it
 * showed the 10 km) without a 404 in the console (the followed bibs of another race were asked
 * for in the wrong context); tapping a pack spreads its runners on the map around its place (a
 * runner's tap opens their details; the list stays for packs of more than 8); a followed runner is
 * drawn with their name, not a clipped bib.
 */
const PHONE = { width: 390, height: 844 };
const STAFF = 'staff@example.org';
const MARATHON = 'demo-city-run-marathon';
const PACK = ['5001', '5002', '5003', '5004'];

test.use({ hasTouch: true });

let server: RunningServer;
let followed: { firstName: string; lastName: string };
test.beforeAll(async () => {
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF });
  const token = await verifiedAccount(server, STAFF, 'a long staff password');
  const key = await deviceKey(server, token, MARATHON, '5 km mat', '5k');
  // A pack of four passes 5 km together: on the map they are one marker.
  const now = Date.now();
  expect(
    await ingest(
      server,
      key,
      PACK.map((bib, i) => ({ bib, time: now - 2000 + i * 200 })),
    ),
  ).toBe(200);
  const card = await (await fetch(`${server.url}/api/results/contexts/${MARATHON}/participants/5001`)).json();
  followed = card.athlete;
});
test.afterAll(async () => server?.stop());

/** Follows 5001 (marathon) and 101 (10 km: another context) as the one follow list stores them. */
async function follow(page: Page) {
  await page.addInitScript(() =>
    localStorage.setItem('favorites:demo-city-run', JSON.stringify(['5001', '101'])),
  );
}

test('from the marathon on a phone: the marathon, no 404, a tapped pack lists its runners, the followed runner by name', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await follow(page);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const missing: string[] = [];
  page.on('response', (r) => r.status() === 404 && missing.push(r.url()));

  await page.goto(`${server.url}/?lng=en#/events/demo-city-run/reportlist/group/city-marathon/report/LIVE1`);
  await page.getByRole('button', { name: 'Views', exact: true }).click();
  await page.getByRole('link', { name: 'Course map' }).click();
  await expect(page).toHaveURL(/\/map\?race=city-marathon$/);
  await expect(page.getByRole('group', { name: /Course of Marathon/ })).toBeVisible();
  await expect(page.getByRole('combobox')).toHaveValue('city-marathon');

  // The followed runner is drawn with their name beside the marker.
  const name = `${followed.firstName.slice(0, 1)}. ${followed.lastName}`;
  await expect(page.getByTestId('map-followed-name')).toContainText(name, { timeout: 15_000 });

  // The pack is one marker, a button: tapping it spreads its four runners on the map, each a
  // marker of its own, none covering another, all inside the drawing.
  const pack = page.getByRole('button', { name: /^×4 .*: 4 runners,/ });
  await expect(pack).toBeVisible();
  await expect(pack).toHaveAttribute('aria-expanded', 'false');
  await pack.tap();
  const spread = page.getByTestId('map-spread');
  const runners = spread.getByTestId('map-athlete');
  await expect(runners).toHaveCount(4);
  await expectApart(page);
  await expect(page.getByTestId('map-panel')).toHaveCount(0);
  // A spread runner's tap shows their bib and last point, and links to their card.
  const mine = spread.getByRole('button', {
    name: /^5001 /,
  });
  await mine.tap();
  const panel = page.getByRole('region', { name: '1 runner here' });
  await expect(panel).toContainText(/Bib 5001 · [\d:]+ · 5 km/);
  await expect(
    panel.getByRole('link', { name: `★ ${followed.firstName} ${followed.lastName}` }),
  ).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('map-phone-en-390.png'), fullPage: true });
  // Keyboard: the button at the pack's place gathers it again.
  await spread.getByRole('button', { name: 'Gather the 4 runners again' }).focus();
  await page.keyboard.press('Enter');
  await expect(spread).toHaveCount(0);
  await expect(panel).toHaveCount(0);
  await expect(pack).toBeVisible();

  expect(missing).toEqual([]);
  expect(errors).toEqual([]);

  // The card link leads to the runner's card.
  await pack.tap();
  await page
    .getByTestId('map-spread')
    .getByRole('button', { name: /^5001 / })
    .tap();
  await page
    .getByTestId('map-panel')
    .getByRole('link', { name: new RegExp(followed.lastName) })
    .click();
  await expect(page).toHaveURL(/\/events\/demo-city-run\/tracking\//);
});

/** The spread markers' discs (radius 16–19 in the drawing) do not overlap and stay inside it. */
async function expectApart(page: Page) {
  const boxes = await page
    .getByTestId('map-spread')
    .getByTestId('map-athlete')
    .evaluateAll((gs) =>
      gs.map((g) => {
        const disc = g.querySelectorAll('circle')[1]!.getBoundingClientRect();
        return { x: disc.x + disc.width / 2, y: disc.y + disc.height / 2, r: disc.width / 2 };
      }),
    );
  const svg = await page.getByRole('group', { name: /Course of|Parcours/ }).boundingBox();
  for (const [i, a] of boxes.entries()) {
    expect(a.x - a.r).toBeGreaterThanOrEqual(svg!.x - 1);
    expect(a.x + a.r).toBeLessThanOrEqual(svg!.x + svg!.width + 1);
    for (const b of boxes.slice(i + 1)) expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(a.r + b.r);
  }
}

test('in French at 390 px and in both languages at 1280 px the pack opens on the map and names its runners', async ({
  page,
}) => {
  await follow(page);
  for (const [lng, width, pack, here, bib, gather] of [
    ['fr', 390, /^×4 .* : 4 athlètes,/, '1 athlète ici', 'Dossard 5001', 'Regrouper les 4 athlètes'],
    ['en', 1280, /^×4 .*: 4 runners,/, '1 runner here', 'Bib 5001', 'Gather the 4 runners again'],
    ['fr', 1280, /^×4 .* : 4 athlètes,/, '1 athlète ici', 'Dossard 5001', 'Regrouper les 4 athlètes'],
  ] as const) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${server.url}/?lng=${lng}#/events/demo-city-run/map?race=city-marathon`);
    await expect(page.getByTestId('map-followed-name')).toContainText(followed.lastName, { timeout: 15_000 });
    await page.getByRole('button', { name: pack }).click();
    await expect(page.getByTestId('map-spread').getByTestId('map-athlete')).toHaveCount(4);
    await expectApart(page);
    await page
      .getByTestId('map-spread')
      .getByRole('button', { name: new RegExp(`^5001 .*: ${followed.firstName}`) })
      .click();
    await expect(page.getByRole('region', { name: here })).toContainText(bib);
    await page.screenshot({ path: test.info().outputPath(`map-phone-${lng}-${width}.png`), fullPage: true });
    await page.getByRole('button', { name: gather }).click();
    await expect(page.getByTestId('map-spread')).toHaveCount(0);
  }
});

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

for (const lng of ['fr', 'en'] as const) {
  test(`every marker's accessible name starts with what it shows (issue 41: axe label-content-name-mismatch, ${lng})`, async ({
    browser,
  }) => {
    // axe's script is injected into the page: CSP bypassed for it (a11y.spec.ts does the same).
    const context = await browser.newContext({ viewport: PHONE, bypassCSP: true, hasTouch: true });
    const page = await context.newPage();
    await follow(page);
    await page.goto(`${server.url}/?lng=${lng}#/events/demo-city-run/map?race=city-marathon`);
    await expect(page.getByTestId('map-followed-name')).toContainText(followed.lastName, { timeout: 15_000 });
    const markers = await page.getByTestId('map-athlete').evaluateAll((gs) =>
      gs.map((g) => ({
        label: g.getAttribute('aria-label') ?? '',
        shown: g.textContent ?? '',
      })),
    );
    expect(markers.length).toBeGreaterThan(0);
    for (const m of markers) expect(m.label.startsWith(m.shown), `${m.label} / ${m.shown}`).toBe(true);
    await page.addScriptTag({ content: axeSource });
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run(c: unknown, o: unknown): Promise<{ violations: { id: string; nodes: { html: string }[] }[] }>;
          };
        }
      ).axe;
      const result = await axe.run(document, {
        runOnly: { type: 'rule', values: ['label-content-name-mismatch'] },
      });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`);
    });
    expect(violations).toEqual([]);
    await context.close();
  });
}
