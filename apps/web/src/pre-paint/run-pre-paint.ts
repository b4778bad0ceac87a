import type { UiVariant } from '../lib/branding-variants.ts';
import { applyLook } from './looks.ts';

/** What the boot script leaves for a pre-paint script (`window.__temporaBoot`). */
interface BootPaint<T> {
  /** The page's early answers (boot-script.ts), its language, its look (`ui`) and its hash path. */
  paint?: { data: Promise<T>; lng: 'en' | 'fr'; ui?: UiVariant; path?: string };
  /** Set by the app once its page is on screen (lib/pre-paint.ts): too late to paint. */
  prePaintEnded?: boolean;
  /** Asks for the app's JavaScript: held back until the picture is on screen (boot-script.ts). */
  start?: () => void;
}

/**
 * The part the pre-paint scripts share (report, tracking card; issue 19): once the boot script's
 * early answers are in, `draw` builds the first screen, which goes over the page until React's
 * replaces it; then the app's JavaScript is asked for. Too late (the app is on screen), a failed
 * answer or a failure to draw (storage refused, an answer of another shape) leaves the page to
 * React, as before.
 */
export function runPrePaint<T, P extends object = object>(
  draw: (data: T, paint: P & { lng: 'en' | 'fr' }) => HTMLElement,
): void {
  const state = (window as unknown as { __temporaBoot?: BootPaint<T> }).__temporaBoot;
  const paint = state?.paint as
    | (P & { data: Promise<T>; lng: 'en' | 'fr'; ui?: UiVariant; path?: string })
    | undefined;
  if (!state || !paint) return;
  paint.data.then(
    (data) => {
      // Too late, already drawn, or the reader has gone to another page meanwhile (a link, an
      // address typed): the picture would lie over that page.
      const now = window.location.hash.slice(1).split(/[?#]/)[0] || '/';
      if (state.prePaintEnded || document.getElementById('pre-paint') || (paint.path && paint.path !== now))
        return state.start?.();
      try {
        const root = draw(data, paint);
        applyLook(root, paint.ui === 'cr' ? 'cr' : 'acn');
        document.body.append(root);
      } catch {
        // The page is React's alone, as before.
      }
      // The app's JavaScript once the picture is presented (a frame, then a task: after the paint).
      requestAnimationFrame(() => setTimeout(() => state.start?.(), 0));
    },
    () => state.start?.(),
  );
}
