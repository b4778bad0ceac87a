import { type RefObject, useLayoutEffect, useState } from 'react';

/** The width of an element (px), followed as it resizes; `initial` before the first layout. */
export function useWidth(ref: RefObject<HTMLElement | null>, initial: number): number {
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth || initial);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth || initial));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, initial]);
  return width;
}
