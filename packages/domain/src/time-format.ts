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
