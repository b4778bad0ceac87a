import type { Millis } from './time-format.ts';

/**
 * Dates and times of day said, not guessed (issue 43): one formatter for every page, in the
 * event's time zone and the page language's format, naming the zone where a reader may be
 * elsewhere — `4 Dec 2026, 23:47 CET` / `4 déc. 2026, 23:47 UTC+1`, `12:09:37 EDT`. English is
 * written the British way (day month year, 24-hour clock): the product's audience is European
 * first, and `12/4/26, 11:47 PM` read as April to most of it.
 */

/** The product's languages and the locale each is written in. */
const LOCALES: Record<string, string> = { en: 'en-GB', fr: 'fr-BE' };

const localeOf = (lng: string | undefined) => LOCALES[(lng ?? 'en').slice(0, 2)] ?? 'en-GB';

const kept = new Map<string, Intl.DateTimeFormat>();

function format(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = kept.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    kept.set(key, f);
  }
  return f;
}

const zoneOption = (timeZone: string | null | undefined) => (timeZone ? { timeZone } : {});

function shortZone(locale: string, ms: number, timeZone: string | null | undefined): string {
  const part = format(locale, { timeZoneName: 'short', ...zoneOption(timeZone) })
    .formatToParts(ms)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? '';
}

/**
 * The zone's short name at an instant, as a reader of `lng` knows it: `CET`, `CEST`, `EDT`,
 * `UTC` in English (British names, American ones for American zones, else `UTC+5:30`);
 * `UTC+1`, `UTC−4` in French (ICU's French names).
 */
export function zoneLabel(ms: Millis, timeZone: string | null | undefined, lng = 'en'): string {
  const locale = localeOf(lng);
  const name = shortZone(locale, ms, timeZone);
  if (locale !== 'en-GB' || !/^GMT[+\-−]/.test(name)) return name === 'GMT' && !timeZone ? 'UTC' : name;
  // British English names only European zones; American English names its own (EDT, PST).
  const american = shortZone('en-US', ms, timeZone);
  return /^GMT[+\-−]/.test(american) ? name.replace('GMT', 'UTC') : american;
}

/** What `formatDateTime` writes: the date, the time of day (with seconds), the zone. */
export interface DateTimeParts {
  date?: boolean;
  time?: boolean;
  seconds?: boolean;
  /** Name the zone (default: whenever a time of day is written). */
  zone?: boolean;
}

/**
 * An instant as a reader of `lng` reads it, in `timeZone` (the event's; the runtime's when
 * null): `4 Dec 2026, 23:47 CET`, `4 déc. 2026, 23:47 UTC+1`; `{ date: false, seconds: true }`
 * gives `23:38:28 CET`, `{ time: false }` gives `4 Dec 2026`. Blank for null.
 */
export function formatDateTime(
  ms: Millis | null | undefined,
  timeZone: string | null | undefined,
  lng = 'en',
  parts: DateTimeParts = {},
): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const { date = true, time = true, seconds = false } = parts;
  const zone = parts.zone ?? time;
  const locale = localeOf(lng);
  const out: string[] = [];
  if (date)
    out.push(
      format(locale, { day: 'numeric', month: 'short', year: 'numeric', ...zoneOption(timeZone) }).format(ms),
    );
  if (time) {
    const clock = format(locale, {
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
      hourCycle: 'h23',
      ...zoneOption(timeZone),
    }).format(ms);
    out.push(zone ? `${clock} ${zoneLabel(ms, timeZone, lng)}` : clock);
  } else if (zone) out.push(zoneLabel(ms, timeZone, lng));
  return out.join(date && time ? ', ' : ' ');
}

/**
 * A calendar day (`YYYY-MM-DD`, as races and events store theirs) in the page language's format:
 * `17 Apr 2017`, `17 avr. 2017`. A day has no zone: it is read at noon UTC so no zone moves it.
 */
export function formatDay(day: string | null | undefined, lng = 'en'): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}/.test(day)) return day ?? '';
  return format(localeOf(lng), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    Date.parse(`${day.slice(0, 10)}T12:00:00Z`),
  );
}

/**
 * The time zones of a country (ISO 3166-1 alpha-2), as the runtime's CLDR data lists them
 * (`BE` → `['Europe/Brussels']`, `US` → 29 zones); empty when it knows none. An event's zone
 * defaults to its organisation's country's when that has only one (issue 43).
 */
export function countryTimeZones(country: string | null | undefined): string[] {
  if (!country || !/^[A-Za-z]{2}$/.test(country)) return [];
  try {
    const locale = new Intl.Locale(`und-${country.toUpperCase()}`) as Intl.Locale & {
      getTimeZones?: () => string[];
      timeZones?: string[];
    };
    return locale.getTimeZones?.() ?? locale.timeZones ?? [];
  } catch {
    return [];
  }
}
