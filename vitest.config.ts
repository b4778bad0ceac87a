import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * One Vitest run over every workspace (npm test). Browser journeys are Playwright's (apps/web/e2e).
 * Tests that need PostgreSQL or Redis read TEST_DATABASE_URL / TEST_REDIS_URL (set by .ci/run).
 */
export default defineConfig({
  test: {
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
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          // Forms typed into on jsdom (MUI, a 400-zone picker) take seconds on a shared 2-core CI
          // machine; 5 s timed out there while the same tests take under 1 s on a quiet one.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
