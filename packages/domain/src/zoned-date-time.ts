import { formatDateTime } from './date-format.ts';
import type { Millis } from './time-format.ts';

/**
 * A date and time as every page states it to a reader who may be elsewhere (issue 43: "dates and
 * times in the event's zone and the page language's format", never the browser's zone nor the US
 * order): day, short month, year, a 24-hour clock, and the zone named as the language names it —
 * `4 Dec 2026, 23:47 CET`, `4 déc. 2026, 23:47 UTC+1`, `4 Dec 2026, 17:47 EST`. The one formatter
 * (`formatDateTime`, date-format.ts) with its date and time; blank for null; the runtime's zone
 * only when none is given.
 */
export function formatDateTimeInZone(
  ms: Millis | null | undefined,
  lng: string,
  timeZone?: string | null,
  options: { seconds?: boolean } = {},
): string {
  return formatDateTime(ms, timeZone, lng, { seconds: options.seconds ?? false });
}
