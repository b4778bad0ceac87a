import fs from 'node:fs';

/** Debian's old headless shell (package chromium-headless-shell). */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/** Debian's Chromium (package chromium). */
const CHROMIUM = '/usr/bin/chromium';

/**
 * The browser the journeys run in: CHROMIUM_PATH when set, else Debian's headless shell when it is
 * installed — what Playwright itself runs for headless Chromium (`chromium-headless-shell`) —, else
 * Debian's Chromium (apt-get install -y chromium). The same engine and version; a new context and
 * its first page cost the shell ~1.3 s of CPU instead of ~3.7 s in the full browser's headless mode
 * (measured 2026-12-05 on the demo's home page, the same server, 3 contexts each), and the report
 * page 2.4 s instead of 4.8 s: each of the ~160 journeys opens at least one.
 */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM;
}

/**
 * Debian's full Chromium (CHROMIUM_PATH overrides), for what the headless shell lacks: it reports
 * a notification permission granted to the context as `denied` (`Notification.permission`), so the
 * journeys that turn notifications or web push on run in this one.
 */
export function fullChromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? CHROMIUM;
}

/** The switches every journey's browser is launched with. */
export const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function chromiumInstalled(): boolean {
  return fs.existsSync(chromiumPath());
}
