import type { Millis } from './time-format.ts';

// Race-day only (devices' clock offsets): apart from time-format.ts, whose formatters every
// spectator page loads first (issue 41: the report page's JavaScript budget).
const pad = (n: number) => String(n).padStart(2, '0');

/** The largest clock offset a device may have: a day either way (the devices module's bound). */
export const MAX_CLOCK_OFFSET_MS = 86_400_000;

/**
 * A device's clock offset as the race-day form shows it (issue 29: it was typed in milliseconds,
 * `-7200000`): always signed and always `h:mm:ss`, milliseconds only when there are some,
 * `+0:00:00`, `-2:00:00`, `+0:00:01.250`.
 */
export function formatClockOffset(ms: Millis): string {
  const abs = Math.abs(Math.trunc(ms));
  const totalSeconds = Math.floor(abs / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const rest = abs % 1000;
  const fraction = rest ? `.${String(rest).padStart(3, '0')}` : '';
  return `${ms < 0 ? '-' : '+'}${h}:${pad(Math.floor((totalSeconds % 3600) / 60))}:${pad(totalSeconds % 60)}${fraction}`;
}

/**
 * A typed clock offset → ms, or null when it is not one: an optional sign (`+`, `-` or `−`),
 * hours, minutes and optionally seconds with up to three decimals (`.` or `,`): `-2:00:00`,
 * `+0:00:01.25`, `-1:30`; a day at most either way.
 */
export function parseClockOffset(text: string): Millis | null {
  const m = /^([+\-\u2212])?\s*(\d{1,2}):([0-5]\d)(?::([0-5]\d)(?:[.,](\d{1,3}))?)?$/.exec(text.trim());
  if (!m) return null;
  const abs =
    Number(m[2]) * 3_600_000 +
    Number(m[3]) * 60_000 +
    Number(m[4] ?? 0) * 1000 +
    Number((m[5] ?? '').padEnd(3, '0'));
  if (abs > MAX_CLOCK_OFFSET_MS) return null;
  return m[1] && m[1] !== '+' && abs ? -abs : abs;
}
