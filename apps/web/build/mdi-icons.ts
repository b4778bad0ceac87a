import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/**
 * `@mdi/js` is one 7,000-export module: every icon any page uses lands in the one shared chunk
 * that holds it — the entry (issue 19: 15 KB of icon paths in every public page's first download).
 * This plugin turns `import { mdiX, mdiY as z } from '@mdi/js'` in the app's sources into
 * `const mdiX = "<path>"`: each icon goes with the modules that draw it, without a chunk (and a
 * request) of its own.
 */
export function mdiIcons(): Plugin {
  let paths: Map<string, string> | null = null;
  const iconPaths = () => {
    if (!paths) {
      const file = createRequire(import.meta.url).resolve('@mdi/js/mdi.js');
      paths = new Map();
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/export var (mdi\w+) = ("[^"]*");/g))
        paths.set(m[1]!, m[2]!);
    }
    return paths;
  };
  return {
    name: 'tempora-mdi-icons',
    enforce: 'pre',
    transform(code, id) {
      if (id.includes('node_modules') || !/\.[jt]sx?$/.test(id) || !code.includes('@mdi/js')) return null;
      const out = code.replace(/import\s*\{([^}]*)\}\s*from\s*['"]@mdi\/js['"];?/g, (_all, names: string) =>
        names
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean)
          .map((n) => {
            const [name, alias] = n.split(/\s+as\s+/).map((part) => part.trim()) as [string, string?];
            const path = iconPaths().get(name);
            if (path === undefined) this.error(`@mdi/js has no icon ${name}`);
            return `const ${alias ?? name} = ${path};`;
          })
          .join('\n'),
      );
      return out === code ? null : { code: out, map: null };
    },
  };
}
