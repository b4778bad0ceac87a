import { type RefObject, startTransition, useLayoutEffect, useState } from 'react';

/**
 * The width of an element (px), followed as it resizes; `initial` until the browser's first layout
 * of it. The width comes from the element's resize entries, delivered after a layout the browser
 * does anyway: reading it when the element mounts (`clientWidth` in a layout effect) forced the
 * page's first layout inside React's commit, a 200 ms task on a throttled phone (issue 28) — so
 * `initial` should be a good estimate (`pageTableWidth`), which makes the entry a no-op.
 */
export function useWidth(ref: RefObject<HTMLElement | null>, initial: number | (() => number)): number {
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    // Layout is clean when the entries come: clientWidth (without border and scroll bar) costs nothing.
    // As a transition: outside an event, a state change re-renders in one blocking task.
    const observer = new ResizeObserver(() => {
      const width = element.clientWidth;
      if (width) startTransition(() => setWidth(width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
