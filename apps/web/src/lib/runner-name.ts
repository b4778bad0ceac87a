import { shownRunnerName } from '@tempora/contracts';
import i18next from 'i18next';

/**
 * A runner's name as a public view shows it: the hidden runner's (issue 40, written once by the
 * server for both languages) in the page's language, any other name as it is.
 */
export function runnerName(name: string | { firstName: string; lastName: string }): string {
  const text = typeof name === 'string' ? name : `${name.firstName} ${name.lastName}`.trim();
  return shownRunnerName(text, i18next.language === 'en' ? 'en' : 'fr');
}
