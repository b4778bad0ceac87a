import en from './locales/en/statuses.json' with { type: 'json' };
import fr from './locales/fr/statuses.json' with { type: 'json' };

/**
 * The runner's choice to hide their name (issue 40): every public view, export, feed, webhook and
 * search shows this instead of the name, with the runner's ranks unchanged. The server writes it
 * in English (a report, a feed or a stored snapshot is shared by readers of both languages); the
 * web shows it in the reader's language (`statuses:hiddenRunner`, the one label source).
 */
export const HIDDEN_RUNNER_NAME = 'Hidden runner';

/** Whether a name as a view shows it is the hidden runner's (whatever its case or spacing). */
export function isHiddenRunnerName(value: unknown): boolean {
  return typeof value === 'string' && value.trim().toLowerCase() === 'hidden runner';
}

/** The hidden runner's name in `lng` (`statuses:hiddenRunner`); any other name as it is. */
export function shownRunnerName(value: string, lng: 'en' | 'fr'): string {
  return isHiddenRunnerName(value) ? hiddenRunnerWords[lng] : value;
}

const hiddenRunnerWords = { en: en.hiddenRunner, fr: fr.hiddenRunner };
