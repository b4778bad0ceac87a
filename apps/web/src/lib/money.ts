import { type DateTimeParts, formatDateTime as formatInstant } from '@tempora/domain';
import { numberFormat } from './intl.ts';

/** Cents as money in the interface language (`25,00 €` in French, `€25.00` in English). */
export function formatMoney(cents: number, currency: string, lng: string): string {
  return numberFormat(lng === 'fr' ? 'fr-BE' : 'en-GB', { style: 'currency', currency }).format(cents / 100);
}

/**
 * A date-time in the interface language with its zone named (`4 Dec 2026, 23:47 CET`): the
 * domain's one formatter (issue 43), in `timeZone` (an event's) or else the browser's.
 */
export function formatDateTime(
  iso: string,
  lng: string,
  timeZone?: string | null,
  parts?: DateTimeParts,
): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '' : formatInstant(ms, timeZone, lng, parts);
}
