/**
 * What every vendor protocol turns into: a read of a chip (or bib) at a point, in UTC epoch ms,
 * with an id stable across re-sends when the protocol numbers its reads (else the results
 * service derives one from chip@point@time, so a re-sent read is one passing all the same).
 */
export interface VendorRead {
  id?: string;
  chip?: string;
  bib?: string;
  /** Timing point key; null when the device's own point applies. */
  pointKey: string | null;
  /** The device clock's reading as if it were UTC (clock offset not applied yet). */
  deviceTimeMs: number;
  battery?: number;
}

export type Parsed<T> = ({ ok: true } & T) | { ok: false; reason: string };

/** Chips and bibs: 1–64 visible characters. */
export const TOKEN = /^[^\s\p{Cc}]{1,64}$/u;

/** `hh:mm:ss[.f…]` → ms since midnight, or null. */
export function timeOfDayMs(text: string): number | null {
  const m = /^(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d{1,6}))?$/.exec(text.trim());
  if (!m) return null;
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (h > 23 || mi > 59 || s > 59) return null;
  const ms = Math.round(Number(`0.${m[4] ?? '0'}`) * 1000);
  return ((h * 60 + mi) * 60 + s) * 1000 + ms;
}

/** Midnight (as UTC) of a calendar date, or null when it is no real date. */
export function dayMs(year: number, month: number, day: number): number | null {
  if (year < 1970 || year > 2200 || month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return Date.UTC(year, month - 1, day);
}

/** Midnight of the device's current day: the server's clock seen through the device's offset. */
export function deviceToday(nowMs: number, clockOffsetMs: number): number {
  const t = nowMs - clockOffsetMs;
  return t - (((t % 86_400_000) + 86_400_000) % 86_400_000);
}

/**
 * A time of day without a date, on the device's day. A read more than 12 h after the device's
 * current time belongs to the day before (a read from 23:59 arriving after midnight).
 */
export function onDeviceDay(timeOfDay: number, nowMs: number, clockOffsetMs: number): number {
  const today = deviceToday(nowMs, clockOffsetMs);
  const t = today + timeOfDay;
  return t - (nowMs - clockOffsetMs) > 12 * 3_600_000 ? t - 86_400_000 : t;
}
