import type { EventDetail, ReportList, ReportTable } from '@tempora/contracts';
import { buildReportPrePaint } from './report-pre-paint.ts';
import { runPrePaint } from './run-pre-paint.ts';
import type { PrePaintStrings } from './strings.ts';

/** The texts of the script's language (one script per language), put in by the build (apps/web/build/boot-script.ts). */
declare const PRE_PAINT_STRINGS: PrePaintStrings;
/** The address of the icons' sprite (icons.ts), put in by the build. */
declare const PRE_PAINT_SPRITE: string;

/**
 * The report's pre-paint script (issue 19: the first screenful before React), loaded by the boot
 * script on a report page only: once the early answers (the report's first rows, its event and
 * report list, the environment's blob host) are in, it draws the report's first screenful
 * (report-pre-paint.ts) over the page until React's page replaces it (run-pre-paint.ts).
 */
runPrePaint<[ReportTable, EventDetail, ReportList, string], { eventId: string }>(
  ([table, event, list, blobUrlBase], paint) =>
    buildReportPrePaint(document, {
      table,
      event,
      list,
      lng: paint.lng,
      strings: PRE_PAINT_STRINGS,
      width: document.documentElement.clientWidth || window.innerWidth,
      height: window.innerHeight,
      favorites: storedFavorites(paint.eventId),
      blobUrlBase,
      sprite: PRE_PAINT_SPRITE,
      pinned: localStorage.getItem('drawerPinned') === 'true',
      logo: '/favicon.svg',
    }),
);

/** The event's favourite row keys (use-favorites.ts), none when unreadable. */
function storedFavorites(eventId: string): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(`favorites:${eventId}`) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.map(String) : []);
  } catch {
    return new Set();
  }
}
