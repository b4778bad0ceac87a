import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { post, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 43, "nothing changes silently" for a STATUS change after "Publish as official": at the
 * desk (desktop, English) a DSQ for an official race is refused first, saying the race is
 * official, and changes nothing; ticked as a correction with a reason it goes in, the ranks move,
 * and the public report (phone, English and French) says "Corrected on …" / "Corrigé le …".
 */
let server: RunningServer;
const STAFF = 'organiser43s@example.org';
const PASSWORD = 'a long organiser password';
const DB = 'demo-city-run-10k';
const RACE = 'e2e-official-status';
const EVENT = 'demo-city-run';
const SHOTS = path.resolve(import.meta.dirname, '../../../.tmp/official-shots');
let token = '';

// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take a destructured first argument.
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000) + 60_000);
  server = await startServer({ PLATFORM_STAFF_EMAILS: STAFF, DEMO_REPLAY: 'false', SEED_BOSTON: 'false' });
  token = await verifiedAccount(server, STAFF, PASSWORD, true);
  fs.mkdirSync(SHOTS, { recursive: true });
});
test.afterAll(async () => server?.stop());

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'official-status-'));

/** The certificate PDF of a runner, saved; its text (pdftotext) and the verification link of its QR code. */
async function certificate(trackingKey: string, name: string) {
  const res = await fetch(`${server.url}/api/certificates/${trackingKey}?lng=en`);
  expect(res.status).toBe(200);
  const file = path.join(tmp, `${name}.pdf`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(
    /\s+/g,
    ' ',
  );
  execFileSync('pdftoppm', ['-r', '100', '-png', '-singlefile', file, path.join(tmp, name)]);
  const png = PNG.sync.read(fs.readFileSync(path.join(tmp, `${name}.png`)));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  return { text, verifyUrl: code?.data ?? '' };
}

async function card(bib: string) {
  const res = await fetch(`${server.url}/api/results/contexts/${DB}/participants/${bib}`);
  return (await res.json()) as {
    athlete: { trackingKey: string };
    status?: string;
    splits: { pointKey: string; rankOverall: number | null }[];
  };
}
const rankOf = async (bib: string) =>
  (await card(bib)).splits.find((s) => s.pointKey === 'finish')?.rankOverall ?? null;

test('a status change on official results is refused, then goes in only as a confirmed correction that spectators read', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const gun = Date.now() - 60 * 60_000;
  await post(
    server,
    `/api/results/contexts/${DB}/races`,
    {
      id: RACE,
      name: 'Status 10 km',
      date: new Date().toISOString().slice(0, 10),
      distanceM: 10_000,
      startType: 'mass',
      gunTimeMs: gun,
      points: [{ key: 'finish', name: 'Finish', distanceM: 10_000 }],
    },
    token,
  );
  await post(
    server,
    `/api/results/contexts/${DB}/races/${RACE}/participants`,
    {
      participants: [
        { bib: 'S1', firstName: 'Anna', lastName: 'Jacobs', gender: 'F' },
        { bib: 'S2', firstName: 'Bart', lastName: 'Claes', gender: 'M' },
        { bib: 'S3', firstName: 'Jan', lastName: 'Peeters', gender: 'M' },
      ],
    },
    token,
  );
  await post(
    server,
    `/api/results/contexts/${DB}/passings`,
    {
      passings: [
        { id: 's1', bib: 'S1', point: 'finish', time: gun + 38 * 60_000 },
        { id: 's2', bib: 'S2', point: 'finish', time: gun + 40 * 60_000 },
        { id: 's3', bib: 'S3', point: 'finish', time: gun + 42 * 60_000 },
      ],
    },
    token,
  );
  const published = await fetch(`${server.url}/api/console/races/${RACE}/publication`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ official: true, protestWindowMinutes: 0 }),
  });
  expect(published.status, await published.text()).toBe(200);
  expect(await rankOf('S3')).toBe(3);
  // Peeters' certificate as issued before the correction: third, no correction, a verification link.
  const key = (await card('S3')).athlete.trackingKey;
  const before = await certificate(key, 'before');
  expect(before.text).not.toMatch(/Corrected on/);
  expect(before.verifyUrl).toContain('/#/verify/');

  // The organiser at the desk, desktop, English.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const desk = await context.newPage();
  await desk.goto(`${server.url}/?lng=en#/login`);
  await desk.getByLabel('E-mail').fill(STAFF);
  await desk.locator('input[type="password"]').fill(PASSWORD);
  await desk.locator('button[type="submit"]').click();
  await expect(desk).toHaveURL(/#\/$/);
  await desk.goto(`${server.url}/?lng=en#/console/events/${EVENT}/raceday/desk?db=${DB}`);
  await expect(desk.getByTestId('official-banner')).toContainText('Status 10 km', { timeout: 20_000 });

  const form = desk.getByRole('heading', { name: 'Runner status' }).locator('..');
  await desk.getByTestId('status-bib').fill('S2');
  await expect(form).toContainText('Bart Claes', { timeout: 20_000 });
  await form.getByRole('combobox', { name: 'Status' }).click();
  await desk.getByRole('option', { name: 'Disqualified (DSQ)' }).click();
  await form.getByRole('textbox', { name: 'Reason', exact: true }).fill('cut the course');
  await form.getByRole('button', { name: 'Set status' }).click();
  // Refused, saying why; nothing changed.
  await expect(form).toContainText(
    'The results of Status 10 km are official: confirm the change as a correction with a reason.',
  );
  await form.scrollIntoViewIfNeeded();
  await desk.screenshot({ path: path.join(SHOTS, 'status-refused-desktop-en.png') });
  expect(await rankOf('S2')).toBe(2);
  expect(await rankOf('S3')).toBe(3);

  // Confirmed as a correction: it goes in, the ranks move.
  await form.getByLabel('Correct the official results (spectators see the reason)').check();
  await form.getByRole('button', { name: 'Set status' }).click();
  await expect(form.getByRole('status')).toContainText('Status saved; results updated.');
  await expect.poll(() => rankOf('S3'), { timeout: 10_000 }).toBe(2);
  await context.close();

  // The re-issued certificate names the correction; the old one's verification page says it was replaced.
  const after = await certificate(key, 'after');
  expect(after.text).toMatch(
    /Corrected on \d+ \w+ \d{4}, \d\d:\d\d CET: bib S2 Bart Claes.*Reason: cut the course/,
  );
  const verify = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await verify.goto(before.verifyUrl.replace('/#/', '/?lng=en#/'));
  await expect(verify.getByTestId('verify-replaced')).toContainText(
    /This certificate was replaced: the official results were corrected on .*, after it was issued\./,
    { timeout: 20_000 },
  );
  await verify.screenshot({ path: path.join(SHOTS, 'verify-replaced-phone-en.png') });
  await verify.context().close();

  // Spectators: the report says what was corrected, when and why (phone, both languages).
  for (const [lng, said] of [
    ['en', /Corrected on \d+ \w+ \d{4}, \d\d:\d\d CET: .*S2.*Reason: cut the course/],
    ['fr', /Corrigé le \d+ \S+ \d{4}, \d\d:\d\d UTC\+1 : .*S2.*Motif : cut the course/],
  ] as const) {
    const report = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await report.goto(`${server.url}/?lng=${lng}#/events/${EVENT}/reportlist/group/${RACE}/report/LIVE1`);
    const note = report.getByTestId('corrections');
    await expect(note).toContainText(said, { timeout: 20_000 });
    await note.scrollIntoViewIfNeeded();
    await report.screenshot({ path: path.join(SHOTS, `status-corrected-report-phone-${lng}.png`) });
    await report.context().close();
  }
});
