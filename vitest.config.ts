import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

const webRoot = path.join(import.meta.dirname, 'apps/web');

/** The web tests that mock modules (`vi.mock`), relative to apps/web. */
const webMocking = fs
  .readdirSync(path.join(webRoot, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.test\.tsx?$/.test(f))
  .map((f) => `src/${f}`)
  .filter((f) => /\bvi\.(do)?[mM]ock\(/.test(fs.readFileSync(path.join(webRoot, f), 'utf8')))
  .sort();

/** What both web projects share. */
const web = {
  root: './apps/web',
  include: ['src/**/*.test.{ts,tsx}'],
  environment: 'jsdom',
  setupFiles: ['./src/test/setup.ts'],
  // Forms typed into on jsdom (MUI, a 400-zone picker) take seconds on a shared 2-core CI
  // machine; 5 s timed out there while the same tests take under 1 s on a quiet one.
  testTimeout: 20_000,
} as const;

/**
 * One Vitest run over every workspace (npm test). Browser journeys are Playwright's (apps/web/e2e).
 * Tests that need PostgreSQL or Redis read TEST_DATABASE_URL / TEST_REDIS_URL (set by .ci/run).
 */
export default defineConfig({
  test: {
    // Vitest's default on a 2-core machine is one worker (cores − 1): the files then run one after
    // another while most of them wait on servers, child processes and PostgreSQL. Three at a time
    // overlap those waits (CI's whole run must stay under 20 min). VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(3, availableParallelism()),
    projects: [
      {
        test: {
          name: 'domain',
          root: './packages/domain',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          // Property runs and the Boston golden test are CPU-heavy; a shared CI machine is slow.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'contracts',
          root: './packages/contracts',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: './apps/server',
          // One module graph per worker, not per file: importing the server (Fastify, PGlite, every
          // module) cost ~5 s of CPU per file, 150 files — half of the whole run's CPU. Each test
          // builds its own app and database (a closed app's PGlite emptied for the next one,
          // test/helpers.ts), so nothing is shared but the code
          // (VITEST_ISOLATE=true isolates again, to hunt a test that leaks state).
          isolate: process.env.VITEST_ISOLATE === 'true',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          // Three files at a time on two cores: a test that takes 10 s alone may take 30 s here.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          ...web,
          name: 'web',
          exclude: [...configDefaults.exclude, ...webMocking],
          // One module graph and one jsdom per worker, not per file: creating them was most of the
          // web suite's CPU (70 files: 248 s isolated, 53 s shared). The setup file resets what a
          // file may leave behind (storage, URL, language); VITEST_ISOLATE=true isolates again.
          isolate: process.env.VITEST_ISOLATE === 'true',
        },
      },
      // The files that replace modules (vi.mock): a mocked module is only replaced for a file that
      // imports it first, so these keep a module graph of their own.
      ...(webMocking.length
        ? [{ plugins: [react()], test: { ...web, name: 'web-mocks', include: webMocking } }]
        : []),
    ],
  },
});
