/** Milliseconds, the unit of every time in the domain (product.md "Passing": ms, UTC). */
export type Millis = number & { readonly __unit?: 'ms' };

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Formats a duration for a time cell (spec §5): blank when zero, `s` under a minute, `m:ss` under
 * an hour, else `h:mm:ss`. `decimals` (0–3, from a column's Settings) adds tenths to thousandths,
 * truncated, as timing results are never rounded up.
 */
export function formatDuration(ms: Millis | null | undefined, decimals = 0): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms === 0) return '';
  const negative = ms < 0;
  const abs = Math.abs(ms);
  const d = Math.max(0, Math.min(3, Math.trunc(decimals)));
  const totalSeconds = Math.floor(abs / 1000);
  const fraction =
    d > 0
      ? `.${String(Math.floor(abs % 1000))
          .padStart(3, '0')
          .slice(0, d)}`
      : '';
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const body = h > 0 ? `${h}:${pad(m)}:${pad(s)}` : m > 0 ? `${m}:${pad(s)}` : `${s}`;
  return `${negative ? '-' : ''}${body}${fraction}`;
}

/** A time as a time cell shows it: truncated to whole seconds (or to `decimals` digits). */
export function shownMs(ms: Millis, decimals = 0): Millis {
  const unit = 10 ** (3 - Math.max(0, Math.min(3, Math.trunc(decimals))));
  return Math.sign(ms) * Math.floor(Math.abs(ms) / unit) * unit;
}

/** The gap between two times as they are shown: the difference of their shown values. */
export function shownGap(ms: Millis, leaderMs: Millis, decimals = 0): Millis {
  return shownMs(ms, decimals) - shownMs(leaderMs, decimals);
}

/**
 * A gap as text, the one way every view, export and feed writes it (issue 27, product.md "Gaps"):
 * always signed and always with minutes, `+0:21`, `+1:05`, `+1:02:05` (a bare `21` reads as a
 * rank, `+21 s` was a second format); tenths to thousandths where a column asks, with a decimal
 * comma in French (`+0:08,3`). Blank when null or zero: the list's leader has no gap.
 */
export function formatGap(ms: Millis | null | undefined, lng = 'en', decimals = 0): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms === 0) return '';
  const abs = Math.abs(ms);
  // formatDuration writes `21` under a minute: the gap keeps its minutes (`0:21`).
  const short = abs < 60_000;
  const digits = formatDuration(short ? abs + 3_600_000 : abs, decimals);
  const body = short ? `0:${digits.slice(digits.indexOf(':') + 4)}` : digits;
  const text = lng.startsWith('fr') ? body.replace('.', ',') : body;
  return `${ms < 0 ? '\u2212' : '+'}${text}`;
}

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

const clocks = new Map<string, Intl.DateTimeFormat>();

/**
 * A time of day as every spectator view shows it (issue 19): `HH:mm:ss` on a 24-hour clock in
 * the event's time zone (never the browser's), the same in both languages and in the report
 * tables' time-of-day cells. Blank for null; the runtime's zone only when the event has none.
 */
export function formatTimeOfDay(ms: Millis | null | undefined, timeZone?: string | null): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const key = timeZone ?? '';
  let format = clocks.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    });
    clocks.set(key, format);
  }
  return format.format(ms);
}

/**
 * A predicted finish's interval (issue 27, `Prediction.finishRange`), as `3:31–3:38`: to the
 * minute from an hour on (low down, high up, so the interval shown holds the one computed),
 * `m:ss` below. Empty when either end is missing.
 */
export function formatRange(lowMs: Millis | null | undefined, highMs: Millis | null | undefined): string {
  if (!(lowMs && highMs && lowMs > 0 && highMs >= lowMs)) return '';
  if (highMs < 3_600_000)
    return `${formatDuration(Math.floor(lowMs / 1000) * 1000)}–${formatDuration(Math.ceil(highMs / 1000) * 1000)}`;
  const hm = (minutes: number) => `${Math.floor(minutes / 60)}:${pad(minutes % 60)}`;
  return `${hm(Math.floor(lowMs / 60_000))}–${hm(Math.ceil(highMs / 60_000))}`;
}
