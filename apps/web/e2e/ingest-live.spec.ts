import { expect, test } from '@playwright/test';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 6: a passing posted to the ingest API appears in an open browser's table, moving the
 * runner's rank, within a second. A server of its own with a platform staff account, which
 * creates a race and a timing device through the organiser API as an organiser would.
 */
let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer({ PLATFORM_STAFF_EMAILS: 'staff@example.org', SEED_BOSTON: 'false' });
});
test.afterAll(async () => server?.stop());

async function call<T>(path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

test('a posted passing reaches the open table and moves the runner’s rank within a second', async ({
  page,
}) => {
  const email = 'staff@example.org';
  const password = 'a long staff password';
  await call('/api/auth/sign-up', { email, password, lng: 'en' });
  const outbox = (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as {
    to: string;
    text: string;
  }[];
  const code = /oobCode=([\w-]+)/.exec(outbox.find((m) => m.to === email)!.text)![1];
  await call('/api/auth/verify-email', { code });
  const { idToken } = await call<{ idToken: string }>('/api/auth/sign-in', { email, password });
  const gun = Date.now() - 20 * 60_000;
  await call(
    '/api/results/contexts/demo-city-run-10k/races',
    {
      id: 'e2e-1k',
      name: 'E2E 1 km',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 1000,
      startType: 'mass',
      gunTimeMs: gun,
      points: [{ key: 'finish', name: 'Finish', distanceM: 1000 }],
    },
    idToken,
  );
  await call(
    '/api/results/contexts/demo-city-run-10k/races/e2e-1k/participants',
    {
      participants: ['E1', 'E2', 'E3'].map((bib, k) => ({
        bib,
        firstName: `Runner${k}`,
        lastName: 'Test',
        gender: 'F',
      })),
    },
    idToken,
  );
  const { key } = await call<{ key: string }>(
    '/api/results/contexts/demo-city-run-10k/devices',
    { name: 'finish', pointKey: 'finish' },
    idToken,
  );
  const ingest = (passings: unknown[]) =>
    fetch(`${server.url}/api/ingest/passings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-key': key },
      body: JSON.stringify({ passings }),
    });
  await ingest([
    { bib: 'E1', time: gun + 300_000 },
    { bib: 'E2', time: gun + 330_000 },
  ]);

  await page.goto(`${server.url}/?lng=en#/events/demo-city-run/reportlist/group/e2e-1k/report/LIVE1`);
  const table = page.getByTestId('report-table');
  const firstRow = table.locator('[role=row][aria-rowindex="2"]');
  await expect(firstRow).toHaveAttribute('data-key', 'E1');

  const posted = Date.now();
  expect((await ingest([{ bib: 'E3', time: gun + 240_000 }])).status).toBe(200);
  await expect(firstRow).toHaveAttribute('data-key', 'E3', { timeout: 5_000 });
  const elapsed = Date.now() - posted;
  console.log(`passing posted → visible in the table: ${elapsed} ms`);
  await expect(table.locator('[role=row][data-key="E1"]')).toContainText('2');
});
