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
