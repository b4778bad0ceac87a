import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, expect, type Page, test } from '@playwright/test';
import { registrationSettings, runner } from '../../server/src/modules/entries/test-helpers.ts';
import { post, verifiedAccount } from './api.ts';
import { chromiumPath, LAUNCH_ARGS } from './chromium.ts';
import { type RunningServer, startServer } from './server.ts';
import { type CameraCode, writeQrVideo } from './y4m.ts';

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
  // Sign-ins from one address are limited to 10 a window (AUTH_RATE_LIMIT); this file signs the
  // staff and volunteers in more often than that, in the browser and through the API (CI: the
  // dashboard journey's sign-in answered 429 "retry in 704 s" and passed on its retry's new server).
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF, DEMO_REPLAY: 'false', AUTH_RATE_LIMIT: '1000' });
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

/**
 * No text cut on the page (issue 39 at 390 px in French: "Espèc…" in the payment select, "Numéro
 * de doss…" in a field's label): no label, select, button, tab, chip, heading or cell whose text
 * is wider than its box (a table that scrolls sideways is not cut).
 */
async function expectNothingCut(page: Page) {
  const cut = await page.evaluate(() =>
    [
      ...document.querySelectorAll(
        'main label, main .MuiSelect-select, main button, main [role="tab"], main .MuiChip-label, main h1, main h2, main h3, main td, main th',
      ),
    ]
      .filter((e) => e.scrollWidth > e.clientWidth + 1 && (e as HTMLElement).offsetParent !== null)
      .map((e) => `${e.tagName} ${e.textContent}`),
  );
  expect(cut).toEqual([]);
}

async function signIn(page: Page, lng: string, email = VOLUNTEER) {
  await page.goto(`${server.url}/?lng=${lng}#/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.locator('input[type="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/#\/$/);
}

/** A phone whose camera shows `codes` in turn (a text as a QR code, or a printed 1D barcode). */
async function phoneWithCamera(codes: CameraCode[]): Promise<Browser> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pickup-cam-')), 'qr.y4m');
  writeQrVideo(file, codes);
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      ...LAUNCH_ARGS,
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
    // The chip's printed barcode: Code 128 on one phone, Code 39 on the other.
    const browser = await phoneWithCamera([
      codes[lng]!,
      { bcid: lng === 'en' ? 'code128' : 'code39', text: chip },
    ]);
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
      // This Chromium has no BarcodeDetector: the page's own decoders read the camera.
      expect(await page.evaluate(() => 'BarcodeDetector' in window)).toBe(false);
      await expectNothingCut(page);
      await page.getByRole('button', { name: t.scan.start }).click();
      const name = lng === 'en' ? 'Zoé PICKUP' : 'Léa RETRAIT';
      await expect(page.getByRole('heading', { name })).toBeVisible({ timeout: 20_000 });
      await expect(page.getByTestId('pickup-bib')).toHaveText(t.card.noBib);
      await expect(page.getByTestId('pickup-addons')).toHaveText('T-shirt M ×1');
      await page.screenshot({ path: path.join(SHOTS, `card-scanned-${lng}.png`), fullPage: true });
      await expectNothingCut(page);

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
      await expectNothingCut(page);
      const late = lng === 'en' ? ['Late', 'Comer'] : ['Tardif', 'Coureur'];
      await page.getByRole('textbox', { name: new RegExp(`^${t.late.firstName}`) }).fill(late[0]!);
      await page.getByRole('textbox', { name: new RegExp(`^${t.late.lastName}`) }).fill(late[1]!);
      // Typed day first in the page's language (issue 38), not Chromium's date picker.
      await page.getByLabel(t.late.birthDate).pressSequentially('04041984');
      await expect(page.getByLabel(t.late.birthDate)).toHaveValue('04/04/1984');
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
  // The two volunteers work at once, as on race day (each phone offline on its own).
  await Promise.all([
    (async () => {
      for (const r of first) await handOut(a, r.bib!, t);
    })(),
    (async () => {
      for (const r of second) await handOut(b, r.bib!, t);
    })(),
  ]);
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

type Dashboard = {
  races: { raceId: string; name: string; runners: number; pickedUp: number }[];
  perHour: { hour: string; count: number; races: { raceId: string; count: number }[] }[];
  addOns: {
    key: string;
    name: string;
    stock: number | null;
    handedOut: number;
    onSite: number | null;
    toHandOut: number;
  }[];
  collected: { method: 'cash' | 'card'; cents: number; count: number }[];
  unpaid: { cents: number; runners: number };
  notPickedUp: { name: string }[];
  notPickedUpCount: number;
};

test('the organiser’s dashboard: T-shirts left on the tables, per race and per hour, unpaid collected by method, not picked up; a conflict resolved (390 and 1280 px, en and fr)', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const before = await api<Dashboard>(`/api/pickup/events/${EVENT}/dashboard`);
  // Three runners with a T-shirt, all to pay on site: Ana pays cash, Bob by card, both are handed
  // out (Bob twice, by two tables: a conflict); Cléo has neither paid nor picked up.
  const names = [
    ['Ana', 'Dashboard'],
    ['Bob', 'Dashboard'],
    ['Cléo', 'Dashboard'],
  ] as const;
  const entered: string[] = [];
  for (const [k, [first, last]] of names.entries())
    entered.push(await entrant(`dash-${k}@example.org`, first, last));
  const list = await api<{ runners: { id: string; code: string | null; unpaidCents: number }[] }>(
    `/api/pickup/events/${EVENT}/list`,
  );
  const [ana, bob] = entered.map((code) => list.runners.find((r) => r.code === code)!);
  const now = new Date().toISOString();
  const op = (o: Record<string, unknown>) => ({ at: now, device: 'table-1', ...o });
  await post(
    server,
    `/api/pickup/events/${EVENT}/ops`,
    {
      ops: [
        op({
          kind: 'pay',
          opId: 'dash-pay-ana',
          participantId: ana!.id,
          method: 'cash',
          amountCents: ana!.unpaidCents,
        }),
        op({ kind: 'handout', opId: 'dash-hand-ana', participantId: ana!.id, items: ['bib', 'tshirt-m'] }),
        op({
          kind: 'pay',
          opId: 'dash-pay-bob',
          participantId: bob!.id,
          method: 'card',
          amountCents: bob!.unpaidCents,
        }),
        op({ kind: 'handout', opId: 'dash-hand-bob', participantId: bob!.id, items: ['bib', 'tshirt-m'] }),
        op({
          kind: 'handout',
          opId: 'dash-hand-bob-2',
          participantId: bob!.id,
          items: ['bib'],
          device: 'table-2',
        }),
      ],
    },
    staffToken,
  );
  const after = await api<Dashboard>(`/api/pickup/events/${EVENT}/dashboard`);
  const shirt = (d: Dashboard) => d.addOns.find((a) => a.key === 'tshirt-m')!;
  const paid = (d: Dashboard, m: 'cash' | 'card') =>
    d.collected.find((c) => c.method === m) ?? { cents: 0, count: 0 };
  // What the server counts: two more shirts handed out, two fewer on the tables; the money by method.
  expect(shirt(after).handedOut).toBe(shirt(before).handedOut + 2);
  expect(shirt(after).onSite).toBe(shirt(after).stock! - shirt(after).handedOut);
  expect(paid(after, 'cash').cents - paid(before, 'cash').cents).toBe(ana!.unpaidCents);
  expect(paid(after, 'card').cents - paid(before, 'card').cents).toBe(bob!.unpaidCents);
  expect(after.unpaid.runners).toBe(before.unpaid.runners + 1);
  expect(after.notPickedUpCount).toBe(before.notPickedUpCount + 1);
  const ten = (d: Dashboard) => d.races.find((r) => r.raceId === RACE)!;
  expect(ten(after).pickedUp).toBe(ten(before).pickedUp + 2);
  const hour = after.perHour.at(-1)!;
  expect(hour.races.find((r) => r.raceId === RACE)!.count).toBeGreaterThanOrEqual(2);

  // One sign-in (sign-ins are rate limited), then each language at each width.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signIn(page, 'fr', STAFF);
  for (const lng of ['fr', 'en'] as const) {
    const t = labels(lng);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto(`${server.url}/?lng=${lng}#/console/events/${EVENT}/pickup`);
      await page.reload();
      const shirts = page.getByRole('table', { name: t.dashboard.addOns });
      const row = shirts.getByRole('row').filter({ hasText: 'T-shirt M' });
      await expect(row).toBeVisible({ timeout: 20_000 });
      const s = shirt(after);
      // On the phone: name, left on the tables, to hand out, spare; wider: the stock and handed out too.
      await expect(row.getByRole('cell')).toHaveText([
        'T-shirt M',
        ...(width === 390 ? [] : [String(s.stock), String(s.handedOut)]),
        String(s.onSite),
        String(s.toHandOut),
        String(s.onSite! - s.toHandOut),
      ]);
      // Nothing to scroll sideways on the phone but the list of runners.
      expect(await shirts.evaluate((e) => e.parentElement!.scrollWidth <= e.parentElement!.clientWidth)).toBe(
        true,
      );
      const races = page.getByRole('table', { name: t.dashboard.races });
      await expect(
        races
          .getByRole('row')
          .filter({ hasText: ten(after).name })
          .first(),
      ).toContainText(String(ten(after).pickedUp));
      const hours = page.getByRole('table', { name: t.dashboard.perHour });
      await expect(hours.getByRole('row').last()).toContainText(hour.hour.slice(11));
      await expect(hours.getByRole('row').last()).toContainText(String(hour.count));
      const collected = page.getByRole('table', { name: t.dashboard.collected });
      await expect(collected.getByRole('row').filter({ hasText: t.card.cash })).toBeVisible();
      await expect(collected.getByRole('row').filter({ hasText: t.card.card })).toBeVisible();
      await expect(page.getByTestId('pickup-still-owed')).toContainText(String(after.unpaid.runners));
      const waiting = page.getByRole('region', {
        name: t.dashboard.notPickedUp_other.replace('{{count}}', String(after.notPickedUpCount)),
      });
      await expect(waiting.first()).toBeVisible();
      await expectNothingCut(page);

      const conflicts = page.getByRole('region', { name: /conflit|conflict/ });
      if (lng === 'fr' && width === 390) {
        await expect(conflicts).toContainText('Bob Dashboard');
        await page.screenshot({
          path: path.join(SHOTS, `dashboard-conflict-${lng}-${width}.png`),
          fullPage: true,
        });
        // Table 2's handout is the one that happened: keep it, table 1's is undone.
        await page
          .getByRole('button', { name: t.conflicts.keepLabel.second.replace('{{name}}', 'Bob Dashboard') })
          .click();
        const resolved = page.getByRole('list', { name: /conflits? résolus?/ });
        await page
          .getByText(/conflits? résolus?/)
          .first()
          .click();
        await expect(resolved).toContainText(`Résolu par ${STAFF}`);
        const stored = await api<
          { participantId: string; state: string; resolution: string; resolvedBy: string }[]
        >(`/api/pickup/events/${EVENT}/conflicts`);
        expect(stored.find((c) => c.participantId === bob!.id)).toMatchObject({
          state: 'resolved',
          resolution: 'second',
          resolvedBy: STAFF,
        });
        const runners = await api<{ runners: { id: string; handedOut: { by: string } | null }[] }>(
          `/api/pickup/events/${EVENT}/list`,
        );
        expect(runners.runners.find((r) => r.id === bob!.id)!.handedOut).not.toBeNull();
      }
      await page.screenshot({ path: path.join(SHOTS, `dashboard-${lng}-${width}.png`), fullPage: true });
    }
  }
  expect(errors).toEqual([]);
  await context.close();
});
