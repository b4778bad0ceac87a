import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, expect, type Page, test } from '@playwright/test';
import { registrationSettings, runner } from '../../server/src/modules/entries/test-helpers.ts';
import { post, verifiedAccount } from './api.ts';
import { chromiumPath } from './chromium.ts';
import { type RunningServer, startServer } from './server.ts';
import { writeQrVideo } from './y4m.ts';

/**
 * Issue 39, race-day pickup, on a 390 px phone: the volunteer (organisation role `pickup`, invited
 * like a timekeeper) scans an entry's QR with the camera (Chromium's fake capture fed a video made
 * here from the QR), gives the next free bib, binds the chip by scanning its printed code, takes
 * the unpaid balance, hands out the T-shirt; a chip another runner holds is refused; a late entry
 * paid on site gets a bib and is on the start list — in English and in French. Then two phones
 * offline hand out 100 runners (5 in both), reload offline, come back: each handout stored once,
 * 5 conflicts shown, each chip bound once.
 */
let server: RunningServer;
const EVENT = 'demo-city-run';
/** The demo organisation (seeded), the event's. */
const DEMO_ORG = '00000000-0000-4000-8000-000000000001';
const DB = 'demo-city-run-10k';
const RACE = 'city-10k';
const STAFF = 'pickup-organiser@example.org';
const VOLUNTEER = 'volunteer@example.org';
const PASSWORD = 'a long pickup password';
const SHOTS = path.resolve(import.meta.dirname, '../../../.tmp/pickup-shots');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const labels = (lng: 'en' | 'fr') =>
  JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, `../src/locales/${lng}/pickup.json`), 'utf8'));
let staffToken = '';
const codes: Record<string, string> = {};

async function api<T>(p: string): Promise<T> {
  const res = await fetch(`${server.url}${p}`, { headers: { authorization: `Bearer ${staffToken}` } });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
async function put(p: string, body: unknown) {
  const res = await fetch(`${server.url}${p}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${staffToken}` },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
}

/** A runner who enters online with a T-shirt and chooses to pay on site; their entry code. */
async function entrant(email: string, firstName: string, lastName: string): Promise<string> {
  const token = await verifiedAccount(server, email, PASSWORD, true);
  const order = await post<{ orderId: string; entries: { code: string }[] }>(
    server,
    `/api/entries/events/${EVENT}/orders`,
    {
      runners: [
        runner(1, { firstName, lastName, email, answers: {}, addOns: [{ key: 'tshirt-m', quantity: 1 }] }),
      ],
    },
    token,
  );
  await post(server, `/api/entries/orders/${order.orderId}/on-site`, {}, token);
  return order.entries[0]!.code;
}

test.beforeAll(async () => {
  test.setTimeout(Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000) + 90_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF, DEMO_REPLAY: 'false' });
  staffToken = await verifiedAccount(server, STAFF, PASSWORD, true);
  await put(`/api/entries/staff/events/${EVENT}/settings`, {
    ...registrationSettings({ places: 50, shirts: 10 }),
    questions: [],
  });
  await post(
    server,
    `/api/console/events/${EVENT}/participants/bibs`,
    { raceId: RACE, first: 9001, last: 9100 },
    staffToken,
  );
  codes.en = await entrant('zoe@example.org', 'Zoé', 'Pickup');
  codes.fr = await entrant('lea@example.org', 'Léa', 'Retrait');
  // The organiser grants the pickup role as they would a timekeeper's: an invitation, accepted.
  await post(
    server,
    `/api/console/organisations/${DEMO_ORG}/invitations`,
    { email: VOLUNTEER, role: 'pickup', lng: 'en' },
    staffToken,
  );
  // The development server prints the invitation's link (the mail is sent after the answer).
  let link: string | undefined;
  for (let k = 0; k < 100 && !link; k++) {
    const line = server.logs
      .join('')
      .split('\n')
      .filter((l) => l.includes('console/invitations/'))
      .at(-1);
    link = /console\/invitations\/([A-Za-z0-9_%-]+)/.exec(line ?? '')?.[1];
    if (!link) await new Promise((r) => setTimeout(r, 100));
  }
  if (!link) throw new Error(`no invitation link in the server log: ${server.logs.join('').slice(-2000)}`);
  const volunteerToken = await verifiedAccount(server, VOLUNTEER, PASSWORD, true);
  await post(server, `/api/console/invitations/${decodeURIComponent(link)}/accept`, {}, volunteerToken);
});
test.afterAll(async () => server?.stop());

async function signIn(page: Page, lng: string) {
  await page.goto(`${server.url}/?lng=${lng}#/login`);
  await page.getByLabel('E-mail').fill(VOLUNTEER);
  await page.locator('input[type="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/#\/$/);
}

/** A phone whose camera shows `texts` as QR codes in turn. */
async function phoneWithCamera(texts: string[]): Promise<Browser> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pickup-cam-')), 'qr.y4m');
  writeQrVideo(file, texts);
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      ...ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${file}`,
    ],
  });
}

for (const lng of ['en', 'fr'] as const) {
  test(`a volunteer's phone (${lng}): scan, bib, chip scanned, a chip of another runner refused, paid, handed out; a late entry`, async () => {
    test.setTimeout(240_000);
    const t = labels(lng);
    const chip = `CHIP-${lng.toUpperCase()}-1`;
    const browser = await phoneWithCamera([codes[lng]!, chip]);
    const context = await browser.newContext({ ...PHONE, permissions: ['camera'] });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      // A runner of the demo holds a chip already (bound from the desk's side, as staff).
      const list = await api<{
        runners: { id: string; bib: string | null; firstName: string; lastName: string }[];
      }>(`/api/pickup/events/${EVENT}/list`);
      const holder = list.runners.find((r) => r.bib && /^\d+$/.test(r.bib))!;
      await post(
        server,
        `/api/pickup/events/${EVENT}/ops`,
        {
          ops: [
            {
              kind: 'chip',
              opId: `held-chip-${lng}`,
              at: new Date().toISOString(),
              participantId: holder.id,
              chip: `HELD-${lng}`,
            },
          ],
        },
        staffToken,
      );

      await signIn(page, lng);
      await page.goto(`${server.url}/?lng=${lng}#/pickup/${EVENT}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(t.title);
      await page.getByRole('button', { name: t.scan.start }).click();
      const name = lng === 'en' ? 'Zoé PICKUP' : 'Léa RETRAIT';
      await expect(page.getByRole('heading', { name })).toBeVisible({ timeout: 20_000 });
      await expect(page.getByTestId('pickup-bib')).toHaveText(t.card.noBib);
      await expect(page.getByTestId('pickup-addons')).toHaveText('T-shirt M ×1');
      await page.screenshot({ path: path.join(SHOTS, `card-scanned-${lng}.png`), fullPage: true });

      await page.getByRole('button', { name: t.card.nextBib }).click();
      await expect(page.getByTestId('pickup-bib')).toHaveText(new RegExp(`${t.card.bib} 90\\d\\d`));
      await page.getByRole('button', { name: t.card.scanChip }).click();
      await expect(page.getByTestId('pickup-chips')).toContainText(chip, { timeout: 20_000 });
      await page.getByRole('button', { name: t.scan.stop }).click();

      await page.getByLabel(t.card.chip).fill(`HELD-${lng}`);
      await page.getByRole('button', { name: t.card.bindChip }).click();
      const refused = page.getByRole('alert');
      await expect(refused).toContainText(`${holder.firstName} ${holder.lastName}`);
      await expect(refused).toContainText(holder.bib!);
      await expect(page.getByTestId('pickup-chips')).not.toContainText(`HELD-${lng}`);

      await page.getByRole('button', { name: t.card.paid }).click();
      await expect(page.getByRole('button', { name: t.card.paid })).toHaveCount(0);
      await page.getByRole('button', { name: t.card.handedOutButton }).click();
      await expect(page.getByText(VOLUNTEER)).toBeVisible();
      await expect(page.getByTestId('pickup-pending')).toHaveText(t.allSent);
      await page.screenshot({ path: path.join(SHOTS, `card-handed-out-${lng}.png`), fullPage: true });

      // The server has it all: bib, chip, payment, handout.
      const after = await api<{
        runners: {
          code: string | null;
          bib: string;
          chips: string[];
          unpaidCents: number;
          handedOut: unknown;
        }[];
      }>(`/api/pickup/events/${EVENT}/list`);
      const me = after.runners.find((r) => r.code === codes[lng])!;
      expect(me.bib).toMatch(/^90\d\d$/);
      expect(me.chips).toEqual([chip]);
      expect(me.unpaidCents).toBe(0);
      expect(me.handedOut).not.toBeNull();

      // A late entry on site: paid, a bib at once, on the start list.
      await page.getByRole('button', { name: t.card.close }).click();
      await page.getByRole('tab', { name: t.late.open }).click();
      const late = lng === 'en' ? ['Late', 'Comer'] : ['Tardif', 'Coureur'];
      await page.getByRole('textbox', { name: new RegExp(`^${t.late.firstName}`) }).fill(late[0]!);
      await page.getByRole('textbox', { name: new RegExp(`^${t.late.lastName}`) }).fill(late[1]!);
      await page.getByLabel(t.late.birthDate).fill('1984-04-04');
      await page.getByLabel(t.late.email).fill(`late-${lng}@example.org`);
      await page.getByRole('button', { name: t.late.submit }).click();
      const done = page.getByRole('status').filter({ hasText: `${late[0]} ${late[1]}` });
      await expect(done).toContainText(/90\d\d/);
      await page.screenshot({ path: path.join(SHOTS, `late-entry-${lng}.png`), fullPage: true });
      const bib = /90\d\d/.exec((await done.textContent()) ?? '')![0];
      const starters = await api<{ bib: string; name: string; raceId: string }[]>(
        `/api/raceday/contexts/${DB}/runners`,
      );
      expect(starters.find((s) => s.bib === bib && s.raceId === RACE)?.name).toContain(late[1]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
}

/** Hands a runner out on a phone: search the bib, bind a chip, Handed out, back to the list. */
async function handOut(page: Page, bib: string, t: ReturnType<typeof labels>) {
  await page.getByLabel(t.search.label).first().fill(bib);
  await page.getByRole('list', { name: t.search.label }).getByRole('button').first().click();
  await page.getByLabel(t.card.chip).fill(`PK-${bib}`);
  await page.getByRole('button', { name: t.card.bindChip }).click();
  await expect(page.getByTestId('pickup-chips')).toContainText(`PK-${bib}`);
  await page.getByRole('button', { name: t.card.handedOutButton }).click();
  await page.getByRole('button', { name: t.card.close }).click();
}

test('two phones offline hand out 100 runners, 5 in both: each stored once, 5 conflicts shown, each chip bound once', async ({
  browser,
}) => {
  test.setTimeout(900_000);
  const t = labels('en');
  const list = await api<{
    runners: { id: string; raceId: string; bib: string | null; handedOut: unknown }[];
  }>(`/api/pickup/events/${EVENT}/list`);
  const runners = list.runners
    .filter((r) => r.raceId === RACE && r.bib && /^\d+$/.test(r.bib) && Number(r.bib) < 9000 && !r.handedOut)
    .sort((a, b) => Number(a.bib) - Number(b.bib))
    .slice(0, 100);
  expect(runners).toHaveLength(100);
  const phones = await Promise.all([0, 1].map(() => browser.newContext(PHONE)));
  const pages = await Promise.all(phones.map((c) => c.newPage()));
  for (const page of pages) {
    await signIn(page, 'en');
    await page.goto(`${server.url}/?lng=en#/pickup/${EVENT}`);
    await expect(page.getByTestId('pickup-pending')).toHaveText(t.allSent);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.reload();
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
    await expect(page.getByTestId('pickup-pending')).toHaveText(t.allSent);
  }
  for (const c of phones) await c.setOffline(true);
  const [a, b] = pages as [Page, Page];
  const first = runners.slice(0, 53);
  const second = runners.slice(48);
  for (const r of first) await handOut(a, r.bib!, t);
  for (const r of second) await handOut(b, r.bib!, t);
  await expect(a.getByTestId('pickup-pending')).toHaveText(`${first.length * 2} actions not sent yet`);
  await expect(b.getByTestId('pickup-pending')).toHaveText(`${second.length * 2} actions not sent yet`);
  for (const page of pages) {
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(t.title);
    await expect(page.getByText(t.offline)).toBeVisible();
  }
  await expect(a.getByTestId('pickup-pending')).toHaveText(`${first.length * 2} actions not sent yet`);
  await a.getByLabel(t.search.label).first().fill(first[0]!.bib!);
  await expect(a.getByRole('list', { name: t.search.label })).toContainText('✓');
  await a.screenshot({ path: path.join(SHOTS, 'offline-phone-a.png'), fullPage: true });

  for (const c of phones) await c.setOffline(false);
  for (const page of pages) {
    await expect(page.getByTestId('pickup-pending')).toHaveText(t.allSent, { timeout: 60_000 });
    await expect(page.getByRole('region', { name: '5 conflicts to resolve' })).toBeVisible({
      timeout: 20_000,
    });
  }
  await b.screenshot({ path: path.join(SHOTS, 'conflicts-phone-b.png'), fullPage: true });

  const ids = new Set(runners.map((r) => r.id));
  const after = await api<{ runners: { id: string; chips: string[]; bib: string; handedOut: unknown }[] }>(
    `/api/pickup/events/${EVENT}/list`,
  );
  const ours = after.runners.filter((r) => ids.has(r.id));
  expect(ours.filter((r) => r.handedOut)).toHaveLength(100);
  for (const r of ours) expect(r.chips.filter((c) => c === `PK-${r.bib}`)).toHaveLength(1);
  const conflicts = await api<{ participantId: string; state: string }[]>(
    `/api/pickup/events/${EVENT}/conflicts`,
  );
  const open = conflicts.filter((c) => c.state === 'conflict');
  expect(open).toHaveLength(5);
  expect(new Set(open.map((c) => c.participantId))).toEqual(new Set(runners.slice(48, 53).map((r) => r.id)));
  for (const c of phones) await c.close();
});
