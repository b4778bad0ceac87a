import { expect, test } from './fixtures.ts';

test('the app shell renders at / without console errors', async ({ page, consoleErrors }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['cache-control']).toBe('no-cache');
  // Issue 8: scripts from this origin only; frames from YouTube's embed hosts only.
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain('frame-src https://www.youtube-nocookie.com https://www.youtube.com;');
  expect(csp).toContain("object-src 'none'");
  await expect(page.getByTestId('app-title')).toHaveText('Tempora');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('hashed assets are served pre-compressed and immutable', async ({ page, request }) => {
  await page.goto('/');
  const src = await page.locator('script[type="module"]').first().getAttribute('src');
  expect(src).toMatch(/^\/assets\/.+\.js$/);
  const res = await request.get(src!, { headers: { 'accept-encoding': 'br, gzip' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-encoding']).toBe('br');
  expect(res.headers()['cache-control']).toContain('immutable');
});
