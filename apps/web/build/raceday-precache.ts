import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/**
 * The race-day service worker's precache list (issue 26: the offline desk died when a lazy chunk
 * it had never fetched — the update banner's — was asked for offline). Writes
 * `raceday-precache.json` beside the build: every script and style the app can load from its
 * entry, following static and dynamic imports (what the Vite manifest lists), and a version
 * (their hash) so the worker fetches a new build's files once.
 */
export function racedayPrecache(): Plugin {
  return {
    name: 'tempora-raceday-precache',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle)
          .filter((o) => o.type === 'chunk')
          .map((c) => [c.fileName, c]),
      );
      const files = new Set<string>();
      const visit = (name: string) => {
        if (files.has(name)) return;
        const chunk = chunks.get(name);
        if (!chunk) return;
        files.add(name);
        for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
        for (const next of [...chunk.imports, ...chunk.dynamicImports]) visit(next);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
      const list = [...files].sort().map((f) => `/${f}`);
      const version = createHash('sha256').update(list.join('\n')).digest('hex').slice(0, 16);
      this.emitFile({
        type: 'asset',
        fileName: 'raceday-precache.json',
        source: `${JSON.stringify({ version, files: list })}\n`,
      });
    },
  };
}
