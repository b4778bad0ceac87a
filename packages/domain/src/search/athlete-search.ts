/**
 * Athlete search rules shared by the server (participants search) and the web (merging the
 * results of several contexts): accents and case ignored ("muller" finds Müller), hits ranked by
 * relevance, then by bib in numeric order (issue 19: not 1061, 120, 1285 as text).
 */

/**
 * Letters that Unicode does not decompose into a base letter and a mark, with the Latin letters a
 * person types for them on a keyboard without them (Ødegaard → odegaard, Łukasiewicz →
 * lukasiewicz, Đức → duc, Straße → strasse, Æsir → aesir, Œuvre → oeuvre).
 */
const UNDECOMPOSED: Record<string, string> = {
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  ı: 'i',
  ŀ: 'l',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
  ŧ: 't',
  ŋ: 'n',
  ĸ: 'k',
};
const UNDECOMPOSED_RE = new RegExp(`[${Object.keys(UNDECOMPOSED).join('')}]`, 'g');

/**
 * The one accent and case fold of the product (issue 29: search, imports, exports and SQL
 * agree): lower case, canonical decomposition without its combining marks, then the letters NFD
 * leaves whole ("Müller" → "muller", "Şahin" → "sahin", "Nguyễn" → "nguyen", "Ødegaard" →
 * "odegaard"). Pure and idempotent; the server stores it in indexed `*_folded` columns so SQL
 * compares what JavaScript computes.
 */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(UNDECOMPOSED_RE, (c) => UNDECOMPOSED[c] ?? c);
}

const DIGITS = /^\d+$/;

/**
 * Bibs in natural order: numbers by value (662 before 3829), numbers before other bibs, others
 * by their text with their digit runs compared as numbers ("F3" before "F12").
 */
export function compareBibs(a: string, b: string): number {
  const an = DIGITS.test(a);
  const bn = DIGITS.test(b);
  if (an && bn) return Number(a) - Number(b) || a.length - b.length;
  if (an !== bn) return an ? -1 : 1;
  const pa = a.split(/(\d+)/);
  const pb = b.split(/(\d+)/);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x === y) continue;
    if (i % 2 === 1) return Number(x) - Number(y) || x.length - y.length;
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

/** What a search looks at in an athlete. */
export interface Searchable {
  bib: string;
  firstName: string;
  lastName: string;
}

/**
 * How well `query` matches an athlete, higher is better; 0 when it does not match. An exact bib
 * first, then the whole name, the last name, a name starting with the query, a bib starting with
 * it, and a name containing it.
 */
export function matchScore(query: string, athlete: Searchable): number {
  const q = foldText(query.trim()).replace(/\s+/g, ' ');
  if (!q) return 0;
  const bib = foldText(athlete.bib);
  if (bib === q) return 100;
  const first = foldText(athlete.firstName.trim());
  const last = foldText(athlete.lastName.trim());
  const full = `${first} ${last}`;
  const reversed = `${last} ${first}`;
  if (full === q || reversed === q) return 90;
  if (last === q) return 80;
  if (first === q) return 75;
  if (last.startsWith(q) || reversed.startsWith(q)) return 70;
  if (first.startsWith(q) || full.startsWith(q)) return 60;
  const words = full.split(/[\s-]+/);
  if (words.some((w) => w.startsWith(q))) return 55;
  if (DIGITS.test(q) && bib.startsWith(q)) return 50;
  if (full.includes(q) || reversed.includes(q)) return 30;
  return 0;
}

/** Hits in search order: relevance, then bib (numeric), then name. */
export function compareHits<T extends { score: number; bib: string; name?: string }>(a: T, b: T): number {
  return b.score - a.score || compareBibs(a.bib, b.bib) || (a.name ?? '').localeCompare(b.name ?? '');
}
