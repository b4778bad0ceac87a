/** The languages of every label (spec §1, §9). */
export const labelLanguages = ['en', 'fr'] as const;
export type LabelLng = (typeof labelLanguages)[number];

/** One text in each language. */
export type Bilingual = Record<LabelLng, string>;

/**
 * The same group of keys in each language, as one table: `{ DNF: { en: 'DNF', fr: 'Abandon' } }`.
 * A key missing in French falls back to the English text. Apart from `index.ts` so that a table of
 * a public page (`status-labels.ts`) imports only its own namespace's JSON.
 */
export function bilingual<K extends string>(
  en: Record<K, string>,
  fr: Partial<Record<K, string>>,
): Record<K, Bilingual> {
  const table = {} as Record<K, Bilingual>;
  for (const key of Object.keys(en) as K[]) table[key] = { en: en[key], fr: fr[key] ?? en[key] };
  return table;
}

/**
 * A text for a reader whose language we do not know, both languages side by side:
 * `Receipt / Reçu`; once when they are the same (`Total`).
 */
export function sideBySide(words: Bilingual): string {
  return words.en === words.fr ? words.en : `${words.en} / ${words.fr}`;
}
