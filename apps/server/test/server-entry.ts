import fs from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Newest modification time (ms) of the files under `dir` (0 when it does not exist). */
function newestUnder(dir: string): number {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * The arguments that start the real server process in the tests that spawn one (process,
 * security-process, log-output): the compiled bundle `npm start` runs (`apps/server/dist/server.mjs`,
 * which `npm test` builds before Vitest) when it is newer than every source it is built from —
 * each start otherwise transpiles the whole server with tsx, seconds of CPU a spawn on CI's two
 * cores —, else the TypeScript sources (`sources`: `TEST_SERVER=ts` forces them). The e2e
 * journeys start theirs with it too (apps/web/e2e/server.ts, `E2E_SERVER=ts`).
 */
export function serverArgs(sources = process.env.TEST_SERVER === 'ts'): string[] {
  const bundle = path.join(repoRoot, 'apps/server/dist/server.mjs');
  if (!sources && fs.existsSync(bundle)) {
    const built = fs.statSync(bundle).mtimeMs;
    const newest = ['apps/server/src', 'packages/domain/src', 'packages/contracts/src'].map((d) =>
      newestUnder(path.join(repoRoot, d)),
    );
    if (newest.every((t) => t <= built)) return [bundle];
  }
  return ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/server.ts')];
}
