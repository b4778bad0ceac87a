import { countryTimeZones } from '../date-format.ts';

/**
 * Average pace in milliseconds per kilometre over `distanceM` metres, or null when either is not
 * a positive number (a start mat at 0 m has no pace).
 */
export function paceMsPerKm(durationMs: number, distanceM: number): number | null {
  if (!(durationMs > 0) || !(distanceM > 0)) return null;
  return (durationMs * 1000) / distanceM;
}

/** Average speed in km/h over `distanceM` metres, or null when either is not positive. */
export function speedKmh(durationMs: number, distanceM: number): number | null {
  if (!(durationMs > 0) || !(distanceM > 0)) return null;
  return distanceM / 1000 / (durationMs / 3_600_000);
}

/**
 * Formats a pace as `m:ss` per km (e.g. `4:57`), or `h:mm:ss` for a walk slower than an hour a
 * km; blank when missing. Seconds are truncated like every timing value (formatDuration), and a
 * pace keeps its minutes even under one (`0:45` for a cyclist) as a pace column reads m:ss.
 */
export function formatPace(msPerKm: number | null | undefined): string {
  if (msPerKm === null || msPerKm === undefined || !Number.isFinite(msPerKm) || msPerKm <= 0) return '';
  const totalSeconds = Math.floor(msPerKm / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = String(totalSeconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Metres in a statute mile. */
const MILE_M = 1609.344;

/** How a race's pace is read where it is run: per kilometre, or per mile in the United States. */
export type PaceUnit = 'km' | 'mi';

/**
 * The pace unit of an event from its time zone (issue 43: a US race's runners read min/mile):
 * miles for the United States' zones, kilometres everywhere else and when the zone is unknown.
 */
export function paceUnitOf(timeZone: string | null | undefined): PaceUnit {
  return timeZone && countryTimeZones('US').includes(timeZone) ? 'mi' : 'km';
}

/** A pace per kilometre written in `unit` (`4:57` per km is `7:58` per mile). */
export function formatPaceIn(msPerKm: number | null | undefined, unit: PaceUnit): string {
  if (msPerKm === null || msPerKm === undefined) return '';
  return formatPace(unit === 'mi' ? (msPerKm * MILE_M) / 1000 : msPerKm);
}

/**
 * A race's distance as its event reads it, in the page language's number format: `42.195 km`,
 * `10 km`, `42,195 km`; `26.2 mi` for a US race (issue 43: one wording for every race).
 */
export function formatDistance(distanceM: number, unit: PaceUnit, lng = 'en'): string {
  const locale = lng.startsWith('fr') ? 'fr-BE' : 'en-GB';
  const value = unit === 'mi' ? distanceM / MILE_M : distanceM / 1000;
  const digits = unit === 'mi' ? 1 : 3;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${unit}`;
}

/**
 * Whether a race's name already says its distance (issue 43: no "10 km · 10 km" chip). Loose: a
 * length with a unit anywhere in the name ("10 km", "10K", "10 k", "21,1 km", "5 mi", "5 miles",
 * "800 m"), or "Marathon" (42.195 km) / "Half marathon", "Semi-marathon" (21.0975 km), in English
 * or French, within 2 % of the race's distance — so a "10 km" label in either language or either
 * unit matches, and a "Marathon relay" of 10 km does not.
 */
export function nameSaysDistance(name: string, distanceM: number): boolean {
  if (!(distanceM > 0)) return false;
  const text = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const said: number[] = [];
  if (/\b(half|semi)[\s-]*marathon\b/.test(text)) said.push(21_097.5);
  else if (/(^|[^a-z-])marathon\b/.test(text) && !/\bultra[\s-]*marathon\b/.test(text)) said.push(42_195);
  const perUnit: Record<string, number> = {
    km: 1000,
    k: 1000,
    mi: MILE_M,
    mile: MILE_M,
    miles: MILE_M,
    m: 1,
  };
  for (const m of text.matchAll(/(\d+(?:[.,]\d+)?)\s*(km|k|miles|mile|mi|m)\b/g)) {
    const value = Number((m[1] ?? '').replace(',', '.'));
    const factor = perUnit[m[2] ?? ''];
    if (factor && Number.isFinite(value)) said.push(value * factor);
  }
  return said.some((d) => Math.abs(d - distanceM) <= distanceM * 0.02);
}
