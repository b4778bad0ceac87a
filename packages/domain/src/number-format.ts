const counts = new Map<string, Intl.NumberFormat>();

/**
 * A count as the reader's language writes it (issue 27): `26,410` in English, `26 410` in French
 * (a narrow no-break space), whole numbers only. Blank for null.
 */
export function formatCount(n: number | null | undefined, lng = 'en'): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '';
  const locale = lng.startsWith('fr') ? 'fr-BE' : 'en-GB';
  let format = counts.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    counts.set(locale, format);
  }
  return format.format(n);
}
