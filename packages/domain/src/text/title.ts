import { foldText } from '../search/athlete-search.ts';

/**
 * A page title from its parts (event · race · report), joined by ` · `, without repeating itself
 * (issue 27: "Boston Marathon 2017 · Boston Marathon 2017 · Overall", "10 km · 10 km"): a blank
 * part, or one whose words all appear in a part before it ("Marathon" after "Boston Marathon
 * 2017"), is left out. Accent- and case-blind (`foldText`).
 */
export function joinTitle(parts: readonly (string | null | undefined)[]): string {
  const kept: string[] = [];
  const seen: string[][] = [];
  for (const part of parts) {
    const text = part?.trim();
    if (!text) continue;
    const words = foldText(text).split(/\s+/);
    if (seen.some((earlier) => words.every((w) => earlier.includes(w)))) continue;
    kept.push(text);
    seen.push(words);
  }
  return kept.join(' · ');
}
