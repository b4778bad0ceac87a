import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 7: with a map key the course map draws raster tiles under the course. The tile host is on
 * the internet, which this machine cannot reach: the browser's requests to it are answered here
 * with a real PNG, and the test checks what was asked for.
 */
let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer({ MAP_KEY: 'test-map-key' });
});
test.afterAll(async () => server?.stop());

test('with a map key the course map lays Web Mercator tiles under the course', async ({ page }) => {
  const png = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#cfe3d0' } })
    .png()
    .toBuffer();
  const asked: string[] = [];
  await page.route('https://api.maptiler.com/**', (route) => {
    asked.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'image/png', body: png });
  });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${server.url}/?lng=en#/events/demo-city-run/map`);
  await expect(page.getByRole('img', { name: /Course of 10 km/ })).toBeVisible();
  const tiles = page.getByTestId('map-tile');
  await expect(tiles.first()).toBeAttached();
  expect(await tiles.count()).toBeGreaterThanOrEqual(4);
  await expect.poll(() => asked.length).toBeGreaterThanOrEqual(4);
  expect(asked.every((u) => /\/256\/14\/\d+\/\d+\.png\?key=test-map-key$/.test(u))).toBe(true);
  expect(errors).toEqual([]);
});
