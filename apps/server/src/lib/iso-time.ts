/** ISO string of a timestamp from either driver (PGlite hands back strings, pg Dates). */
export function iso(v: string | Date | null | undefined): string | null {
  return v === null || v === undefined ? null : new Date(v).toISOString();
}
