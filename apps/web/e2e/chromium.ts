import fs from 'node:fs';

/** Debian's Chromium (apt-get install -y chromium); CHROMIUM_PATH overrides. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

export function chromiumInstalled(): boolean {
  return fs.existsSync(chromiumPath());
}
