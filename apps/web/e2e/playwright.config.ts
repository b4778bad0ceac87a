import { defineConfig } from '@playwright/test';
import { chromiumPath, LAUNCH_ARGS } from './chromium.ts';

/**
 * Browser journeys in Debian's Chromium (never a downloaded browser): each worker starts its own
 * server on a free port with a fresh data directory (see fixtures.ts).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // One migrated, empty data directory the journeys' servers start from (server.ts prepareTemplate).
  globalSetup: './global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two files at a time (E2E_WORKERS). Three kept both cores busy but did not shorten CI beside
  // other work (load ~12: journeys 1,359 s, the raceday journey out of its 60 s twice); four, at a
  // load of 13-20, outlasted a server's plugin timeout (now 120 s, app.ts). The journeys are
  // CPU-bound: sampled over a whole CI run, Chromium 1,465 s, servers 571 s, runner 221 s of CPU
  // (npm test prints 1,115: processes that leave its tree are not counted), i.e. ≥ 1,100 s on two
  // cores however they are scheduled. 21 min one at a time, 17.4 min two at a time (2026-11-27).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // One retry in CI, reported as flaky (never hidden: the JSON report counts them): the final
  // run of 2026-11-26 had the console journey's sign-up submit once without effect (passed in the
  // two runs before, on the same code); the cause is not found yet (see the closing note).
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: '../../../.tmp/e2e-results',
  use: {
    browserName: 'chromium',
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: LAUNCH_ARGS,
    },
  },
});
