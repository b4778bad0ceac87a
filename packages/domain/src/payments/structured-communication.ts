/**
 * Belgian structured communication ("gestructureerde mededeling" / "communication structurée",
 * OGM-VCS): 12 digits shown as `+++XXX/XXXX/XXXXX+++`. The first 10 digits are free; the last 2
 * are the first 10 taken as a number modulo 97, written as 97 when the remainder is 0 (Febelfin,
 * "Standard for the structured communication"). Banks refuse a transfer whose check fails.
 */

/** 12 digits, check included, without separators. */
export type StructuredDigits = string & { readonly __brand: 'StructuredDigits' };

/** The two check digits of a 10-digit base. */
export function structuredCheck(base: string): string {
  if (!/^\d{10}$/.test(base)) throw new RangeError('the base of a structured communication is 10 digits');
  // 10 digits stay below 2^53: exact in a double.
  const remainder = Number(base) % 97;
  return String(remainder === 0 ? 97 : remainder).padStart(2, '0');
}

/** The structured communication of a 10-digit base (e.g. an order number padded with zeros). */
export function structuredFromBase(base: string): StructuredDigits {
  return `${base}${structuredCheck(base)}` as StructuredDigits;
}

/** The structured communication of a non-negative integer below 10^10 (an order's number). */
export function structuredFromNumber(n: number): StructuredDigits {
  if (!Number.isSafeInteger(n) || n < 0 || n >= 1e10) throw new RangeError('0 ≤ n < 10^10');
  return structuredFromBase(String(n).padStart(10, '0'));
}

/**
 * The 12 digits of a structured communication written in any usual way (`+++123/4567/89002+++`,
 * `***…***`, spaces, slashes, or the bare digits), or null when it is not one or its check fails.
 */
export function parseStructured(text: string): StructuredDigits | null {
  const trimmed = text.trim();
  const bare = trimmed.replace(/^(\+\+\+|\*\*\*)|(\+\+\+|\*\*\*)$/g, '').replace(/[\s/.-]/g, '');
  if (!/^\d{12}$/.test(bare)) return null;
  return isValidStructured(bare) ? (bare as StructuredDigits) : null;
}

/** Whether 12 digits carry a correct mod-97 check. */
export function isValidStructured(digits: string): boolean {
  return /^\d{12}$/.test(digits) && structuredCheck(digits.slice(0, 10)) === digits.slice(10);
}

/** `+++XXX/XXXX/XXXXX+++` as printed on invoices and typed in banking apps. */
export function formatStructured(digits: StructuredDigits | string): string {
  return `+++${digits.slice(0, 3)}/${digits.slice(3, 7)}/${digits.slice(7, 12)}+++`;
}
