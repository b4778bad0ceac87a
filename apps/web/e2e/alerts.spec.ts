import { expect, test } from '@playwright/test';
import { pushReceiver } from '../../server/test/push-receiver.ts';
import { deviceKey, ingest, post, verifiedAccount } from './api.ts';
import { fullChromiumPath, LAUNCH_ARGS } from './chromium.ts';
import { type RunningServer, startServer } from './server.ts';

// Issue 40, alerts for followers: the page's own subscribe flow on a phone — permission asked,
// service worker registered, the browser's push manager asked with the server's VAPID key — up to
// the browser's call, which the test answers with a subscription made with its own keys whose
// endpoint is a local push service; a read then reaches it as an encrypted message (RFC 8291).
const PASSWORD = 'correct horse battery 40';
let server: RunningServer;
// The page asks for the notification permission: Debian's full Chromium (chromium.ts).
test.use({ launchOptions: { executablePath: fullChromiumPath(), args: LAUNCH_ARGS } });
let push: Awaited<ReturnType<typeof pushReceiver>>;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  push = await pushReceiver();
  // The local push service is on loopback: the egress policy lets it through here only.
  server = await startServer({ SEED_DEMO: 'false', WEBHOOK_ALLOW_PRIVATE: 'true' });
});
test.afterAll(async () => {
  await server?.stop();
  await push?.close();
});

for (const lng of ['en', 'fr'] as const) {
  test(`a follower asks for alerts by web push on a phone and gets the passing (${lng})`, async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const token = await verifiedAccount(server, `org-alerts-${lng}@example.test`, PASSWORD, true);
    const org = await post<{ id: string }>(
      server,
      '/api/console/organisations',
      { name: `Alerts ${lng}`, country: 'BE', contactEmail: `org-alerts-${lng}@example.test` },
      token,
    );
    const eventId = `alerts-${lng}`;
    const db = `${eventId}-ctx`;
    const raceId = `${eventId}-10k`;
    const today = new Date().toISOString().slice(0, 10);
    await post(
      server,
      `/api/console/organisations/${org.id}/events`,
      {
        id: eventId,
        name: `Alerts run ${lng}`,
        startDate: today,
        endDate: today,
        timeZone: 'Europe/Brussels',
        visibility: 'public',
        status: 'live',
      },
      token,
    );
    await post(server, `/api/console/events/${eventId}/contexts`, { db, name: '10 km' }, token);
    const gun = Date.now() - 30 * 60_000;
    await post(
      server,
      `/api/results/contexts/${db}/races`,
      {
        id: raceId,
        name: '10 km',
        date: today,
        distanceM: 10_000,
        startType: 'mass',
        gunTimeMs: gun,
        points: [
          { key: '5k', name: '5 km', nameFr: '5 km', distanceM: 5000 },
          { key: 'finish', name: 'Finish', nameFr: 'Arrivée', distanceM: 10_000 },
        ],
      },
      token,
    );
    await post(
      server,
      `/api/results/contexts/${db}/races/${raceId}/participants`,
      {
        participants: [{ bib: '7', firstName: 'Léa', lastName: 'Martin', gender: 'F', age: 31 }],
      },
      token,
    );
    const card = (await (await fetch(`${server.url}/api/results/contexts/${db}/participants/7`)).json()) as {
      athlete: { trackingKey: string };
    };
    const tracking = card.athlete;
    const { publicKey } = (await (await fetch(`${server.url}/api/alerts/vapid`)).json()) as {
      publicKey: string;
    };

    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await context.grantPermissions(['notifications'], { origin: server.url });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The browser's call: recorded, and answered with the test's subscription (no vendor push
    // service is reachable here).
    const subscription = push.subscription(`/push/${lng}`);
    await page.addInitScript((sub) => {
      const w = window as unknown as { __pushCalls: unknown[] };
      w.__pushCalls = [];
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        const key = options?.applicationServerKey as Uint8Array;
        w.__pushCalls.push({
          userVisibleOnly: options?.userVisibleOnly,
          key: btoa(String.fromCharCode(...key)),
        });
        return { toJSON: () => sub } as unknown as PushSubscription;
      };
    }, subscription);
    await page.goto(`${server.url}/?lng=${lng}#/events/${eventId}/tracking/${tracking.trackingKey}`);
    await page.getByRole('button', { name: lng === 'en' ? 'Alerts' : 'Alertes' }).click();
    const dialog = page.getByRole('dialog');
    await expect(
      dialog.getByRole('checkbox', {
        name: lng === 'en' ? 'Web push on this device' : 'Notifications sur cet appareil',
      }),
    ).toBeChecked();
    await dialog
      .getByRole('button', { name: lng === 'en' ? 'Ask for alerts' : 'Demander les alertes' })
      .click();
    await expect(page.getByTestId('alerts-done')).toBeVisible({ timeout: 30_000 });

    // The service worker is registered, and the push manager was asked with the server's key.
    const worker = await page.evaluate(
      async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL ?? '',
    );
    expect(worker).toMatch(/\/alerts-sw\.js$/);
    const calls = await page.evaluate(
      () => (window as unknown as { __pushCalls: { userVisibleOnly: boolean; key: string }[] }).__pushCalls,
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]!.userVisibleOnly).toBe(true);
    expect(Buffer.from(calls[0]!.key, 'base64').toString('base64url')).toBe(publicKey);

    // A read at 5 km: one encrypted message, in the follower's language.
    const key = await deviceKey(server, token, db, '5k', '5k');
    const before = push.received.length;
    expect(await ingest(server, key, [{ bib: '7', time: gun + 24 * 60_000 }])).toBe(200);
    await expect.poll(() => push.received.length, { timeout: 20_000 }).toBe(before + 1);
    const message = push.received.at(-1)!;
    expect(message.vapidValid).toBe(true);
    expect((message.payload as { title: string }).title).toBe(
      lng === 'en' ? 'Léa Martin: 5 km in 24:00' : 'Léa Martin : 5 km en 24:00',
    );
    // The same read again (a transport retrying): no second message.
    expect(await ingest(server, key, [{ bib: '7', time: gun + 24 * 60_000 }])).toBe(200);
    await page.waitForTimeout(2_000);
    expect(push.received.length).toBe(before + 1);
    expect(push.errors).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
}
