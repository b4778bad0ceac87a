import { formatDateTime, formatDateTimeInZone } from '@tempora/domain';
import type { ResultCorrection } from './corrections.ts';
import { shownRunnerName } from './hidden-runner.ts';
import en from './locales/en/corrections.json' with { type: 'json' };
import statusesEn from './locales/en/statuses.json' with { type: 'json' };
import fr from './locales/fr/corrections.json' with { type: 'json' };
import statusesFr from './locales/fr/statuses.json' with { type: 'json' };
import { interpolate } from './locales/index.ts';

const words = { en, fr };
const statusWords: Record<'en' | 'fr', Record<string, string>> = { en: statusesEn.long, fr: statusesFr.long };

/**
 * What a correction changed, in words (issue 43): "bib 4 Karel Van den Broeck, a time at Finish
 * added (23:38:28 CET)". The words are the `corrections` namespace of the one label source; times of
 * day in the event's zone. The page, the card, the certificate and the feed all say it this way.
 */
export function correctionWhat(c: ResultCorrection, lng: 'en' | 'fr', timeZone?: string | null): string {
  const w = words[lng];
  const runner = c.bib
    ? interpolate(w.runner, { bib: c.bib, name: shownRunnerName(c.name ?? '', lng) }).trim()
    : '';
  const point = c.point ? (lng === 'fr' && c.point.nameFr ? c.point.nameFr : c.point.name) : '';
  const key =
    c.kind === 'imported'
      ? c.count === 1
        ? 'imported_one'
        : 'imported_other'
      : (c.kind as keyof typeof w.kinds);
  return interpolate(w.kinds[key as keyof typeof w.kinds], {
    runner,
    point,
    // The read's time of day in the event's zone, named (issue 43): `23:38:28 CET`.
    time: formatDateTime(c.timeMs, timeZone, lng, { date: false, seconds: true }),
    status: c.status ? (statusWords[lng][c.status] ?? c.status) : '',
    count: c.count ?? 0,
  });
}

/**
 * A correction as one line: "Corrected on 4 Dec 2026, 23:50 CET: bib 4 …, a time at Finish added
 * (23:38:28 CET). Reason: missed by the mat" — the date and time in the event's zone, in the language's
 * format, the zone named (`formatDateTimeInZone`).
 */
export function correctionText(c: ResultCorrection, lng: 'en' | 'fr', timeZone?: string | null): string {
  return interpolate(words[lng].line, {
    at: formatDateTimeInZone(c.atMs, lng, timeZone),
    what: correctionWhat(c, lng, timeZone),
    reason: c.reason,
  });
}

/** The heading above a race's corrections ("Corrections since the results were made official"). */
export function correctionsTitle(lng: 'en' | 'fr'): string {
  return words[lng].title;
}
