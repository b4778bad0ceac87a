import { createRequire } from 'node:module';

const requireFromHere = createRequire(import.meta.url);

/**
 * A package loaded at its first use instead of at the server's start (its CommonJS entry, read
 * synchronously, so sync callers stay sync). The server's start loaded pdfkit, sharp, exifr,
 * fast-xml-parser and web-push for routes a spectator never calls: 1.2–1.3 s of CPU of a ~10 s
 * start (measured 2026-12-05, load ~10), paid by every node started during a race and by every
 * server the test journeys start. Types come from `import type` at the call site.
 */
export function lazyRequire<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireFromHere(name) as T;
    return loaded;
  };
}
