import { useEffect } from 'react';

/**
 * The boot script's picture of a report page or a tracking card (issue 19: the first screenful
 * before React; `src/pre-paint/`), shown over the page until React's own is on screen.
 * `endPrePaint` takes it away — and stops it from being drawn if its data comes later — once the
 * report's first rows (or the card) are shown, its load failed, or the user went to another page.
 */
export function endPrePaint(): void {
  if (typeof window === 'undefined') return;
  const state = (window as unknown as { __temporaBoot?: { prePaintEnded?: boolean } }).__temporaBoot;
  if (state) state.prePaintEnded = true;
  document.getElementById('pre-paint')?.remove();
}

/**
 * Ends the boot script's picture of the page (above) once the page's own content is painted
 * beneath it (two frames: laid out at its width, then presented), or at once when it failed.
 */
export function useEndPrePaint(shown: boolean, failed: boolean): void {
  useEffect(() => {
    if (failed) return endPrePaint();
    if (!shown) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(endPrePaint);
    });
    return () => cancelAnimationFrame(frame);
  }, [shown, failed]);
}

/**
 * The hash path the boot script's picture is of (undefined: none drawn or asked for). The app
 * ends a picture of another page than the one it opens on (app.tsx).
 */
export function prePaintPath(): string | undefined {
  if (typeof window === 'undefined') return undefined;
  return (window as unknown as { __temporaBoot?: { paint?: { path?: string } } }).__temporaBoot?.paint?.path;
}
