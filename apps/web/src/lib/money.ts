/** Cents as money in the interface language (`25,00 €` in French, `€25.00` in English). */
export function formatMoney(cents: number, currency: string, lng: string): string {
  return new Intl.NumberFormat(lng === 'fr' ? 'fr-BE' : 'en-GB', { style: 'currency', currency }).format(
    cents / 100,
  );
}

/** A date-time in the interface language, short. */
export function formatDateTime(iso: string, lng: string): string {
  return new Intl.DateTimeFormat(lng === 'fr' ? 'fr-BE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}
