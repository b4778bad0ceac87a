/**
 * A report view and the progressive loader agree on when the rest of a big table may come
 * (issue 19: the first screenful, and Lighthouse's LCP, before the rest's parsing takes the main
 * thread): a view that will show the first page says so when it mounts (`expectFirstRows`) and
 * again once it has shown it (`firstRowsShown`), with its title and links; the loader waits for
 * that, then for the paint (`untilFirstRowsShown`). Pages that need the whole table only (no
 * view waiting) are not held back.
 */
const waiting = new Map<string, { shown: Promise<void>; resolve: () => void }>();

/** A view of `path` will show its first page: the rest waits until it has (or `give up`). */
export function expectFirstRows(path: string): () => void {
  if (!waiting.has(path)) {
    let resolve = () => {};
    const shown = new Promise<void>((r) => {
      resolve = r;
    });
    waiting.set(path, { shown, resolve });
  }
  // Unmounted before showing anything: nobody waits for it any more.
  return () => waiting.delete(path);
}

/** The view of `path` has rendered its first rows. */
export function firstRowsShown(path: string): void {
  waiting.get(path)?.resolve();
}

/**
 * Resolves once the next frame has been presented — two frames and 50 ms on, as a frame is presented
 * after its animation callbacks (or after 500 ms: a hidden page paints no frame).
 */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === 'function')
      requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)));
    setTimeout(resolve, 500);
  });
}

/** Waits until a view expecting `path` has shown its first rows (at most `timeoutMs`), then paints. */
export async function untilFirstRowsShown(path: string, timeoutMs = 2000): Promise<void> {
  const entry = waiting.get(path);
  if (entry) {
    await Promise.race([entry.shown, new Promise((r) => setTimeout(r, timeoutMs))]);
    waiting.delete(path);
  }
  await afterPaint();
}
