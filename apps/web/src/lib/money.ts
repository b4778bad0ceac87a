/** Cents as money in the interface language (`25,00 €` in French, `€25.00` in English). */
import { dateTimeFormat, numberFormat } from './intl.ts';
export function formatMoney(cents: number, currency: string, lng: string): string {
  return numberFormat(lng === 'fr' ? 'fr-BE' : 'en-GB', { style: 'currency', currency }).format(cents / 100);
}

/** A date-time in the interface language, short. */
export function formatDateTime(iso: string, lng: string): string {
  return dateTimeFormat(lng === 'fr' ? 'fr-BE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}
