import { isHiddenRunnerName, shownRunnerName } from './hidden-runner.ts';
import en from './locales/en/statuses.json' with { type: 'json' };
import fr from './locales/fr/statuses.json' with { type: 'json' };
import type { ColumnDef } from './results.ts';

// Apart from results.ts (whose zod schemas would follow these into every public page's bundle).

/**
 * What a result status code (packages/domain `ResultStatus`, and a participant's `registered`)
 * reads as, in each language (`long`): report cells, exports and printed lists show these, never
 * the code. Short forms, as result lists print them (a rank column holds them for runners without
 * a rank); `short`: the forms a narrow column shows (a rank column on screen is ~6 characters
 * wide), as French and English result lists abbreviate them, the full label beside it for screen
 * readers. The words are the `statuses` namespace (`locales/{en,fr}/statuses.json`, issue 30: one
 * label source), imported alone and read as they are: the report page's pre-paint carries this file.
 */
const statusWords: Record<'en' | 'fr', { long: Record<string, string>; short: Record<string, string> }> = {
  en,
  fr,
};

/**
 * A cell's text once its column's `Settings.Labels` is applied: a status code becomes its label
 * in `lng` (its short form when `short`), the hidden runner's name its words in `lng`; anything
 * else (a rank, a blank) is left as it is.
 */
export function labelledCell(
  column: Pick<ColumnDef, 'Settings'>,
  value: unknown,
  lng: 'en' | 'fr',
  short = false,
): unknown {
  if (typeof value !== 'string') return value;
  // The hidden runner's name (issue 40) is written once for both languages, like a status code.
  if (isHiddenRunnerName(value)) return shownRunnerName(value, lng);
  if (column.Settings.Labels === 'points') {
    // A row holds one name for both languages: the column carries the French ones (issue 19).
    const names = column.Settings.Names;
    return lng === 'fr' && names && Object.hasOwn(names, value) ? names[value] : value;
  }
  if (column.Settings.Labels !== 'status') return value;
  const words = statusWords[lng];
  if (short && Object.hasOwn(words.short, value)) return words.short[value];
  return Object.hasOwn(words.long, value) ? words.long[value] : value;
}
