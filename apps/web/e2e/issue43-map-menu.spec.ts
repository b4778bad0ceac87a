import { expect, test } from '@playwright/test';
import { verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 43: on a phone (390 px) the course map's attribution (Leaflet's control, z-index 1000) is
 * not drawn over the race page's sticky section menu: scrolled so the attribution passes under
 * the menu, the point where they overlap belongs to the menu, and its link is clickable there.
 */
let server: RunningServer;
const STAFF = 'organiser43m@example.org';
const PASSWORD = 'a long organiser password';

// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take a destructured first argument.
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000) + 60_000);
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF, DEMO_REPLAY: 'false', SEED_BOSTON: 'false' });
  await verifiedAccount(server, STAFF, PASSWORD, true);
});
test.afterAll(async () => server?.stop());

test('phone: the map attribution passes under the race page section menu, which stays clickable', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await page.goto(`${server.url}/?lng=en#/login`);
  await page.getByLabel('E-mail').fill(STAFF);
  await page.locator('input[type="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/#\/$/);
  await page.goto(`${server.url}/?lng=en#/console/events/demo-city-run/races/city-10k`);
  const nav = page.getByRole('navigation', { name: 'Sections of the race' });
  await expect(nav).toBeVisible({ timeout: 20_000 });
  const attribution = page.locator('.leaflet-control-attribution');
  await attribution.scrollIntoViewIfNeeded({ timeout: 20_000 });
  await expect(attribution).toBeVisible();
  // Scroll so the attribution's middle sits at the middle of the sticky menu.
  const navBox = (await nav.boundingBox())!;
  let box = (await attribution.boundingBox())!;
  await page.mouse.wheel(0, box.y + box.height / 2 - (navBox.y + navBox.height / 2));
  await expect
    .poll(async () => {
      const b = (await attribution.boundingBox())!;
      const n = (await nav.boundingBox())!;
      return Math.abs(b.y + b.height / 2 - (n.y + n.height / 2)) < n.height / 2;
    })
    .toBe(true);
  box = (await attribution.boundingBox())!;
  const menu = (await nav.boundingBox())!;
  // They overlap on the screen…
  const x = Math.max(box.x, menu.x) + 2;
  const y = Math.max(box.y, menu.y) + 2;
  expect(x).toBeLessThan(Math.min(box.x + box.width, menu.x + menu.width));
  expect(y).toBeLessThan(Math.min(box.y + box.height, menu.y + menu.height));
  // …and the point is the menu's, not the attribution's.
  const onTop = await page.evaluate(
    ([px, py]) => {
      const el = document.elementFromPoint(px!, py!);
      return {
        inMenu: !!el?.closest('nav'),
        inAttribution: !!el?.closest('.leaflet-control-attribution'),
      };
    },
    [x, y],
  );
  expect(onTop).toEqual({ inMenu: true, inAttribution: false });
  // Every link of the menu is the topmost element at its centre, and clicking one follows it.
  const links = nav.getByRole('link');
  for (let i = 0; i < (await links.count()); i++) {
    const link = links.nth(i);
    const b = await link.boundingBox();
    if (!b || b.x + b.width / 2 > 390 || b.x + b.width / 2 < 0) continue;
    const hit = await page.evaluate(
      ([px, py]) => !!document.elementFromPoint(px!, py!)?.closest('nav'),
      [b.x + b.width / 2, b.y + b.height / 2],
    );
    expect(hit).toBe(true);
  }
  await page.screenshot({ path: '.tmp/official-shots/map-under-menu-phone-en.png' });
  const first = links.first();
  const target = (await first.getAttribute('href')) ?? '';
  await first.click();
  await expect(page).toHaveURL(new RegExp(`${target.split('#').at(-1)}$`));
});
