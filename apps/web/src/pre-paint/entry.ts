import type { EventDetail, ReportList, ReportTable } from '@tempora/contracts';
import { buildReportPrePaint } from './report-pre-paint.ts';
import type { PrePaintStrings } from './strings.ts';

/** The texts of the script's language (one script per language), put in by the build (apps/web/build/boot-script.ts). */
declare const PRE_PAINT_STRINGS: PrePaintStrings;
/** The address of the icons' sprite (icons.ts), put in by the build. */
declare const PRE_PAINT_SPRITE: string;

/** What the boot script leaves for the pre-paint (`window.__temporaBoot`). */
interface BootPaint {
  paint?: {
    /** The report's first rows, its event and its report list, and the environment's blob host. */
    data: Promise<[ReportTable, EventDetail, ReportList, string]>;
    lng: 'en' | 'fr';
    eventId: string;
  };
  /** Set by the app once its page is on screen (lib/pre-paint.ts): too late to paint. */
  prePaintEnded?: boolean;
  /** Asks for the app's JavaScript: held back until the picture is on screen (boot-script.ts). */
  start?: () => void;
}

/**
 * The pre-paint script (issue 19: the first screenful before React), loaded by the boot script on
 * a report page only and run beside the entry: once the boot script's early answers are in, it
 * draws the report's first screenful (report-pre-paint.ts) over the page, where it stays until
 * React's page replaces it. A failure leaves the page to React, as before.
 */
const state = (window as unknown as { __temporaBoot?: BootPaint }).__temporaBoot;
const paint = state?.paint;
if (paint) {
  paint.data.then(
    ([table, event, list, blobUrlBase]) => {
      if (state.prePaintEnded || document.getElementById('pre-paint')) return state.start?.();
      try {
        document.body.append(
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
      } catch {
        // Storage refused, an answer of another shape: the page is React's alone, as before.
      }
      // The app's JavaScript once the picture is presented (a frame, then a task: after the paint).
      requestAnimationFrame(() => setTimeout(() => state.start?.(), 0));
    },
    () => state.start?.(),
  );
}

/** The event's favourite row keys (use-favorites.ts), none when unreadable. */
function storedFavorites(eventId: string): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(`favorites:${eventId}`) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.map(String) : []);
  } catch {
    return new Set();
  }
}
