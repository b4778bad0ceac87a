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

/** The wall-clock parts of an instant in a zone (the browser's when none). */
function wallClock(ms: number, timeZone?: string) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(ms);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    y: get('year'),
    m: get('month'),
    d: get('day'),
    h: get('hour') % 24,
    mi: get('minute'),
    s: get('second'),
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function zoneOffset(ms: number, timeZone?: string): number {
  const w = wallClock(ms, timeZone);
  return Date.UTC(w.y, w.m - 1, w.d, w.h, w.mi, w.s) - Math.floor(ms / 1000) * 1000;
}

/**
 * `hh:mm[:ss[.mmm]]` on the day of `dayOf` in the event's zone → epoch ms, or null. A time of
 * day is how a helper types a missed finish or a gun time.
 */
export function parseTimeOfDay(text: string, dayOf: number, timeZone?: string): number | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,3}))?)?$/.exec(text.trim());
  if (!m) return null;
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return null;
  const day = wallClock(dayOf, timeZone);
  const asUtc = Date.UTC(day.y, day.m - 1, day.d, h, mi, s, Number((m[4] ?? '0').padEnd(3, '0')));
  // The zone's offset at that moment (refined once: a DST change may lie between).
  const first = asUtc - zoneOffset(asUtc, timeZone);
  return asUtc - zoneOffset(first, timeZone);
}

/** A signed duration in ms as `+1.234 s` / `−12 ms`. */
export function formatDrift(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const sign = ms < 0 ? '−' : '+';
  const abs = Math.abs(ms);
  return abs < 1000 ? `${sign}${abs} ms` : `${sign}${(abs / 1000).toFixed(abs < 10_000 ? 3 : 1)} s`;
}
