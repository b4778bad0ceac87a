import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { deviceKey, ingest, verifiedAccount } from './api.ts';
import { type RunningServer, startServer } from './server.ts';

/**
 * Issue 16: an organiser designs the finisher certificate; a spectator downloads their runner's
 * certificate from the tracking card and opens the verification page its QR code names.
 */
let server: RunningServer;
const ORGANISER = 'organiser@example.org';
const PASSWORD = 'a long organiser password';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-e2e-cert-'));

// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks take a destructured first argument.
test.beforeAll(async ({}, info) => {
  // A loaded machine starts the server slowly (server.ts: E2E_READY_TIMEOUT_MS).
  info.setTimeout(Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000) + 30_000);
  server = await startServer({ PLATFORM_STAFF_EMAILS: ORGANISER, DEMO_REPLAY: 'false' });
});
test.afterAll(async () => server?.stop());

/** The QR code of a PDF's first page (rendered by poppler's pdftoppm, read by jsQR). */
function qrOf(pdf: string): string {
  execFileSync('pdftoppm', ['-r', '100', '-png', '-singlefile', pdf, path.join(tmp, 'page')]);
  const png = PNG.sync.read(fs.readFileSync(path.join(tmp, 'page.png')));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('no QR code on the certificate');
  return code.data;
}

test('organiser designs the certificate; a finisher’s spectator downloads it and verifies it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const token = await verifiedAccount(server, ORGANISER, PASSWORD, true);
  // A runner of the demo 10 km finishes.
  const start = await (
    await fetch(`${server.url}/api/results/demo-city-run/groups/city-10k/reports/START`)
  ).json();
  const [bib, , , name] = start.rows[0] as string[];
  const trackingKey = String(start.rows[0][7]).split('/').pop()!;
  const key = await deviceKey(server, token, 'demo-city-run-10k', 'finish mat', 'finish');
  expect(await ingest(server, key, [{ bib, time: Date.now() - 60_000 }])).toBe(200);

  const organiser = await (await browser.newContext()).newPage();
  await organiser.goto(`${server.url}/?lng=en#/login`);
  await organiser.getByLabel('E-mail').fill(ORGANISER);
  await organiser.getByLabel('Password').fill(PASSWORD);
  await organiser.getByRole('button', { name: 'Sign in' }).click();
  await expect(organiser).toHaveURL(/#\/$/);
  await organiser.goto(`${server.url}/?lng=en#/console/events/demo-city-run/certificate`);
  await expect(organiser.getByRole('heading', { name: 'Finisher certificate' })).toBeVisible();
  await organiser.getByRole('button', { name: /Free text/ }).click();
  await organiser.getByLabel('Text (English)').fill('Congratulations, finisher!');
  await organiser.getByLabel('Text (French)').fill('Bravo, finisher !');
  await expect(organiser.getByTestId('certificate-canvas')).toContainText('Congratulations, finisher!');
  await organiser.getByRole('button', { name: 'Save' }).click();
  await expect(organiser.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  const spectator = await (await browser.newContext()).newPage();
  await spectator.goto(`${server.url}/?lng=en#/tracking/${trackingKey}`);
  await expect(spectator.getByTestId('athlete-card')).toContainText('Finished');
  const [download] = await Promise.all([
    spectator.waitForEvent('download'),
    spectator.getByRole('link', { name: 'Finisher certificate (PDF)' }).click(),
  ]);
  const file = path.join(tmp, 'certificate.pdf');
  await download.saveAs(file);
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  expect(text).toContain('Congratulations, finisher!');
  const verifyUrl = qrOf(file);
  expect(verifyUrl).toContain('/#/verify/');

  await spectator.goto(verifyUrl.replace('/#/', '/?lng=en#/'));
  await expect(spectator.getByTestId('verify-valid')).toContainText('Genuine certificate');
  const surname = String(name).split(' ')[0]!;
  await expect(spectator.getByRole('table')).toContainText(new RegExp(surname, 'i'));
  await expect(spectator.getByRole('table')).toContainText('Finished');

  const forged = verifyUrl.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')).replace('/#/', '/?lng=en#/');
  await spectator.goto(forged);
  await expect(spectator.getByTestId('verify-invalid')).toContainText('This certificate is not genuine');
});
