/**
 * Race-day times: stored in UTC (epoch ms), shown in the event's time zone — the browser's
 * until events carry one (the console's event settings) — with milliseconds for timekeepers.
 */
export function formatClock(ms: number | null | undefined, timeZone?: string, withMs = true): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  return new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
    ...(withMs ? { fractionalSecondDigits: 3 } : {}),
    ...(timeZone ? { timeZone } : {}),
  } as Intl.DateTimeFormatOptions).format(ms);
}

/** The zone times are shown in. */
export function displayZone(timeZone?: string): string {
  return timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * `hh:mm[:ss[.mmm]]` on the day of `dayOf` (local to the browser) → epoch ms, or null. A time of
 * day is how a helper types a missed finish or a gun time.
 */
export function parseTimeOfDay(text: string, dayOf: number): number | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,3}))?)?$/.exec(text.trim());
  if (!m) return null;
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return null;
  const d = new Date(dayOf);
  d.setHours(h, mi, s, Number((m[4] ?? '0').padEnd(3, '0')));
  return d.getTime();
}

/** A signed duration in ms as `+1.234 s` / `−12 ms`. */
export function formatDrift(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const sign = ms < 0 ? '−' : '+';
  const abs = Math.abs(ms);
  return abs < 1000 ? `${sign}${abs} ms` : `${sign}${(abs / 1000).toFixed(abs < 10_000 ? 3 : 1)} s`;
}
