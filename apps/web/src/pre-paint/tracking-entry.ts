import type { AthleteCard } from '@tempora/contracts';
import { buildTrackingPrePaint, type TrackingPrePaintStrings } from './tracking-pre-paint.ts';

/** The texts of the script's language (one script per language), put in by the build (apps/web/build/boot-script.ts). */
declare const PRE_PAINT_STRINGS: TrackingPrePaintStrings;
/** The address of the icons' sprite (icons.ts), put in by the build. */
declare const PRE_PAINT_SPRITE: string;

/** What the boot script leaves for the pre-paint (`window.__temporaBoot`). */
interface BootPaint {
  paint?: { data: Promise<[AthleteCard, string]>; lng: 'en' | 'fr' };
  /** Set by the app once its page is on screen (lib/pre-paint.ts): too late to paint. */
  prePaintEnded?: boolean;
  /** Asks for the app's JavaScript: held back until the picture is on screen (boot-script.ts). */
  start?: () => void;
}

/**
 * The tracking card's pre-paint script (issue 19), loaded by the boot script on `/#/tracking/{key}`
 * only — a script of its own, apart from the report's: the tracking page's first JavaScript has
 * about 1 KB left under the 200 KB budget. Once the card's early answer is in, it draws the first
 * screen (tracking-pre-paint.ts) over the page until React's card replaces it, then lets the app
 * start. A failure leaves the page to React, as before.
 */
const state = (window as unknown as { __temporaBoot?: BootPaint }).__temporaBoot;
const paint = state?.paint;
if (paint) {
  paint.data.then(
    ([card]) => {
      if (state.prePaintEnded || document.getElementById('pre-paint')) return state.start?.();
      try {
        document.body.append(
          buildTrackingPrePaint(document, {
            card,
            lng: paint.lng,
            strings: PRE_PAINT_STRINGS,
            sprite: PRE_PAINT_SPRITE,
            logo: '/favicon.svg',
            following: followed(card.athlete.trackingKey),
          }),
        );
      } catch {
        // An answer of another shape: the page is React's alone, as before.
      }
      // The app's JavaScript once the picture is presented (a frame, then a task: after the paint).
      requestAnimationFrame(() => setTimeout(() => state.start?.(), 0));
    },
    () => state.start?.(),
  );
}

/** The athlete is among those followed (followed.ts's `followed` list), false when unreadable. */
function followed(trackingKey: string): boolean {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem('followed') ?? '[]');
    return Array.isArray(stored) && stored.slice(0, 12).includes(trackingKey);
  } catch {
    return false;
  }
}
