import type { Millis } from './time-format.ts';

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * A date and time as every page states it to a reader who may be elsewhere (issue 43: "dates and
 * times in the event's zone and the page language's format", never the browser's zone nor the US
 * order): day, short month, year, a 24-hour clock, and the zone named as the language names it —
 * `4 Dec 2026, 23:47 CET`, `4 déc. 2026, 23:47 UTC+1`. English reads the British order (the
 * product's English is not American: 12/4/26 was read as 12 April). Blank for null; the runtime's
 * zone only when none is given. Formatters are kept per language and zone (building one costs
 * far more than using it).
 */
export function formatDateTimeInZone(
  ms: Millis | null | undefined,
  lng: string,
  timeZone?: string | null,
  options: { seconds?: boolean } = {},
): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const language = lng.startsWith('fr') ? 'fr' : 'en-GB';
  const key = `${language}|${timeZone ?? ''}|${options.seconds ? 's' : ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      ...(options.seconds ? { second: '2-digit' } : {}),
      hourCycle: 'h23',
      timeZoneName: 'short',
      ...(timeZone ? { timeZone } : {}),
    });
    formats.set(key, format);
  }
  return format.format(ms);
}
