/**
 * The one place the web makes `Intl` formatters (issue 28: a phone's main thread). Building an
 * `Intl.DateTimeFormat` or `NumberFormat` costs far more than using one (event cards made one per
 * card per render: ~40 ms of the event home's start on a throttled phone), so each language and
 * options pair is built once and kept. Options objects are keyed by their JSON: pass literals.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/** A kept `Intl.DateTimeFormat` for `lng` and `options`. */
export function dateTimeFormat(lng: string | undefined, options: Intl.DateTimeFormatOptions = {}) {
  const key = `${lng ?? ''}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lng, options);
    dateFormats.set(key, format);
  }
  return format;
}

/** A kept `Intl.NumberFormat` for `lng` and `options`. */
export function numberFormat(lng: string | undefined, options: Intl.NumberFormatOptions = {}) {
  const key = `${lng ?? ''}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lng, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** Digit group separators of the product's languages, as `Intl.NumberFormat` writes them. */
const GROUP: Record<string, string> = { en: ',', fr: '\u202f' };

/**
 * A count as `Intl.NumberFormat(lng)` writes it ("26,410", "26 410"), without `Intl` for whole
 * numbers in the product's languages: the first `NumberFormat` or `DateTimeFormat` a page makes
 * loads ICU's data, 20–65 ms of the main thread in one piece (issue 28: measured in Chromium; ×4
 * on Lighthouse's phone), and a report page's first screen formats only its row count. Anything
 * else goes to `Intl`.
 */
export function formatCount(value: number, lng: string | undefined): string {
  const separator = GROUP[(lng ?? '').slice(0, 2)];
  if (separator === undefined || !Number.isSafeInteger(value)) return numberFormat(lng).format(value);
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  return value < 0 ? `-${digits}` : digits;
}
