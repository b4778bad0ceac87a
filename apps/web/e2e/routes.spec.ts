import { chromium, type Page } from '@playwright/test';
import { fullChromiumPath, LAUNCH_ARGS } from './chromium.ts';
import { expect, test } from './fixtures.ts';

type Layout = 'default' | 'generic' | 'blank';

/** Open routes of spec §2 (sample parameters) with their layout: each renders a heading, never a crash. */
const open: [string, Layout][] = [
  ['/', 'default'],
  ['/test', 'default'],
  ['/live/clm/demo-city-run-10k/LIVE1', 'default'],
  ['/misc/crac/demo', 'default'],
  ['/firstrow/demo-city-run-10k', 'default'],
  ['/firstrow/demo-city-run-10k/race/city-10k', 'default'],
  ['/results/demo-city-run/reportlist', 'default'],
  ['/results/demo-city-run/reportlist/group/city-10k/report/LIVE1', 'default'],
  ['/results/demo-city-run/reportlist/table/city-10k/report/LIVE1', 'default'],
  ['/results/demo-city-run/youtube', 'default'],
  ['/events/demo-city-run/home', 'default'],
  ['/events/demo-city-run/tracking', 'default'],
  ['/events/demo-city-run/tracking/abc', 'default'],
  ['/events/demo-city-run/cms/demo-city-run-10k', 'default'],
  ['/events/demo-city-run/cms/demo-city-run-10k/about', 'default'],
  ['/events/demo-city-run/ctx/demo-city-run-10k/cms', 'default'],
  ['/events/demo-city-run/ctx/demo-city-run-10k/cms/about', 'default'],
  ['/events/demo-city-run/ctx/demo-city-run-10k/contacts/main', 'default'],
  ['/events/demo-city-run/ctx/demo-city-run-10k/generic/live/home/LIVE1', 'default'],
  ['/events/demo-city-run/ctx/demo-city-run-10k/generic/live/stats/LIVE1', 'default'],
  ['/events/demo-city-run/ctx/demo-city-run-10k/generic/live/scroller/LIVE1/20/10', 'default'],
  ['/events/demo-city-run/ctx/demo-city-run-10k/generic/live/detail/101', 'default'],
  ['/events/demo-city-run/ctx/demo-city-run-10k/generic/live/objectdetail/tok', 'default'],
  ['/events/demo-city-run/ctx/demo-city-run-10k/generic/live/streaming', 'default'],
  ['/events/demo-city-run/contact', 'default'],
  ['/events/demo-city-run/favorites', 'default'],
  ['/events/demo-city-run/map', 'default'],
  ['/events/demo-city-run/reportlist', 'default'],
  ['/events/demo-city-run/reportlist/group/city-10k/report/LIVE1', 'default'],
  ['/events/demo-city-run/reportlist/table/city-10k/report/LIVE1', 'default'],
  ['/genericTracking/abc', 'generic'],
  ['/tracking/abc', 'generic'],
  ['/photobox', 'generic'],
  ['/genericTracking', 'blank'],
  ['/tracking', 'blank'],
  ['/photobox/1', 'blank'],
  ['/login', 'blank'],
  ['/auth/register', 'blank'],
  ['/auth/forgot-password', 'blank'],
  ['/auth/forgot-mailsent', 'blank'],
  ['/auth/reset-password/code1234567', 'blank'],
  ['/auth/action?mode=unknown', 'blank'],
  ['/auth/message/verify-email', 'blank'],
  ['/no/such/page', 'blank'],
];

/** Routes marked requireAuth in spec §2 (and every child): an anonymous visitor lands on login. */
const protectedRoutes = [
  '/authentication/basicprofile',
  '/auth/basic-profile',
  '/confirmation/home',
  '/confirmation/document/7',
  '/confirmation/document/7/edit',
  '/confirmation/document/7/home',
  '/confirmation/document/7/import',
  '/confirmation/document/7/report',
  '/confirmation/event/3',
  '/deposit/demo',
  '/deposit/demo/12/collect',
  '/deposit/demo/12/message',
  '/deposit/demo/12/overview',
  '/deposit/demo/12/paymentok',
  '/deposit/demo/12d',
  '/payment/home',
];

/** Which layout the page shows: the drawer is the default layout's, the compact header the generic one's. */
async function layoutOf(page: Page): Promise<Layout> {
  if (await page.getByTestId('nav-drawer').count()) return 'default';
  if (await page.getByTestId('app-title').count()) return 'generic';
  return 'blank';
}

test('every open route renders its heading in its layout, without errors', async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const [path, layout] of open) {
    await page.goto(`/?lng=en#${path}`);
    if (path.includes('/table/')) {
      // The bare table variant (for embedding) has no heading: it renders content, not an error.
      await expect(page.locator('#main'), path).not.toBeEmpty({ timeout: 15_000 });
      await expect(page.getByRole('heading', { name: /could not be shown|Page not found/ })).toHaveCount(0);
    } else {
      await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible({ timeout: 15_000 });
    }
    // The default layout's drawer loads beside the page: the layout is the one it settles in.
    await expect.poll(() => layoutOf(page), { message: path, timeout: 10_000 }).toBe(layout);
  }
  // Client-side navigation between the same routes (no reload) renders them too.
  await page.goto('/?lng=en#/');
  for (const [path] of open.slice(0, 8)) {
    await page.evaluate((p) => {
      window.location.hash = `#${p}`;
    }, path);
    await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
  }
  expect(consoleErrors.filter((e) => !e.includes('status of 404'))).toEqual([]);
});

test('protected routes send an anonymous visitor to login', async ({ page }) => {
  for (const path of protectedRoutes) {
    await page.goto('/?lng=en#/');
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`/?lng=en#${path}`);
    await expect(page, path).toHaveURL(/#\/login$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    // The intended route is remembered (auth pages themselves never are a destination).
    const remembered = await page.evaluate(() => sessionStorage.getItem('intendedRoute'));
    expect(remembered, path).toBe(path.startsWith('/auth/') ? null : path);
  }
});

test('an unknown route shows the not-found page with a way home', async ({ page }) => {
  await page.goto('/?lng=en#/no/such/page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await page.getByRole('link', { name: 'Back to the home page' }).click();
  await expect(page).toHaveURL(/#\/$/);
  await expect(page.getByTestId('nav-drawer')).toBeAttached();
});

test('/results/{eventId} redirects its empty child to reportlist', async ({ page }) => {
  await page.goto('/#/results/demo-city-run');
  await expect(page).toHaveURL(/#\/results\/demo-city-run\/reportlist$/);
});

test('deep links survive a reload', async ({ page }) => {
  await page.goto('/?lng=en#/events/demo-city-run/map');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Course map');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Course map');
});

test('language: URL beats stored beats browser; the choice is stored lowercased and persists', async ({
  page,
}) => {
  // Browser language (Playwright's default en-US) when nothing else says otherwise.
  await page.goto('/#/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  // Stored beats browser.
  await page.evaluate(() => localStorage.setItem('lng', 'fr'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connexion');
  // URL beats stored, any case.
  await page.goto('/?lng=EN#/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  // Switching in the top bar stores it lowercased and persists across reloads.
  await page.goto('/#/events/demo-city-run/map');
  await page.getByRole('button', { name: /Language|Langue/ }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Course map');
  expect(await page.evaluate(() => localStorage.getItem('lng'))).toBe('en');
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Carte du parcours');
  expect(await page.evaluate(() => localStorage.getItem('lng'))).toBe('fr');
  await page.goto('/#/events/demo-city-run/map');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Carte du parcours');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
});

test('scrolls to the top after navigation, or smoothly to a hash target', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 500 });
  await page.goto('/?lng=en#/auth/register');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // A long page: scroll down, then navigate: the new page starts at the top.
  await page.evaluate(() => {
    document.body.style.minHeight = '3000px';
    window.scrollTo(0, 1500);
  });
  await page.evaluate(() => {
    window.location.hash = '#/auth/forgot-password';
  });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Forgotten password');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  // A second hash names an element to scroll to.
  await page.evaluate(() => {
    window.location.hash = '#/auth/register#main';
  });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create an account');
});

test('the drawer: rail at desktop, expands when pinned (remembered), temporary on phones', async ({
  server,
}) => {
  // Debian's full Chromium (chromium.ts): in the headless shell the rail stayed collapsed after the
  // pin's click (Playwright's hover, then click); the cause is not found yet.
  const browser = await chromium.launch({ executablePath: fullChromiumPath(), args: LAUNCH_ARGS });
  try {
    const page = await (await browser.newContext({ baseURL: server.url })).newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/?lng=en#/events/demo-city-run/map');
    const paper = page.locator('.MuiDrawer-paper');
    await expect.poll(async () => (await paper.boundingBox())?.width).toBe(56);
    await paper.hover();
    await expect.poll(async () => (await paper.boundingBox())?.width).toBe(300);
    await page.getByRole('button', { name: 'Pin the menu' }).click();
    await page.mouse.move(1000, 500);
    await expect.poll(async () => (await paper.boundingBox())?.width).toBe(300);
    await page.reload();
    await expect.poll(async () => (await paper.boundingBox())?.width).toBe(300);
    await page.getByRole('button', { name: 'Unpin the menu' }).click();
    await page.mouse.move(1000, 500);
    await expect.poll(async () => (await paper.boundingBox())?.width).toBe(56);
    // No Confirmation entry for a visitor (spec §2: only for the confirmation account).
    await expect(page.getByRole('link', { name: 'Confirmation' })).toHaveCount(0);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByTestId('drawer-title')).toBeHidden();
    await page.getByRole('button', { name: 'Open the menu' }).click();
    await expect(page.getByTestId('drawer-title')).toBeVisible();
    await page.getByRole('link', { name: 'Athlete tracking' }).click();
    await expect(page).toHaveURL(/#\/tracking$/);
    await page.goBack();
    await expect(page.getByTestId('drawer-title')).toBeHidden();
  } finally {
    await browser.close();
  }
});
