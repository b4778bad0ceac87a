import fs from 'node:fs';
import path from 'node:path';

/**
 * The repository's root: the nearest directory above this file holding `apps/web` and
 * `fixtures`. Found by walking up rather than by a fixed `../..`, so that the same code works from
 * `src/` under tsx and from the compiled bundle in `apps/server/dist/` (issue 20: no TypeScript
 * transpiler at run time in production).
 */
export const repoRoot: string = (() => {
  for (let dir = import.meta.dirname; ; ) {
    if (fs.existsSync(path.join(dir, 'fixtures')) && fs.existsSync(path.join(dir, 'apps', 'web'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(import.meta.dirname, '../../..');
    dir = parent;
  }
})();
