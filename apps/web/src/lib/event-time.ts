import { formatDateTimeInZone } from '@tempora/domain';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Dates and times of an event as the page states them (issue 43): in the event's zone and the
 * page language's format, the zone named (`4 Dec 2026, 23:47 CET`, `4 déc. 2026, 23:47 UTC+1`):
 * the publish dialog, the "Corrected on …" notes. One formatter for every page
 * (`formatDateTimeInZone`, packages/domain), following the language the reader switches to.
 */
export function useEventDateTime(timeZone: string | null | undefined) {
  const { i18n } = useTranslation();
  const lng = i18n.language;
  return useCallback(
    (ms: number | null | undefined, options: { seconds?: boolean } = {}) =>
      formatDateTimeInZone(ms, lng, timeZone, options),
    [lng, timeZone],
  );
}
