import { test as base, expect } from '@playwright/test';
import { type RunningServer, startServer } from './server.ts';

/**
 * `server`: one real server per worker (fresh data directory); `baseURL` points at it.
 * `consoleErrors`: every console error and page error of the test's page, to assert none.
 */
export const test = base.extend<{ consoleErrors: string[] }, { server: RunningServer }>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument.
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    // A server's start (migrations, demo seed) may take long on a loaded machine: its own time.
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await use(errors);
  },
});

export { expect };
