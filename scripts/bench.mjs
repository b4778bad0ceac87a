#!/usr/bin/env node
// `npm run bench`: runs every benchmark of the repository in turn; each prints its own table with
// a baseline measured in the same run, so numbers are quoted as ratios on this noisy machine.
// `npm run bench -- results` runs the benches whose path contains "results".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const benches = [
  'packages/domain/bench/results.bench.ts',
  'packages/domain/bench/prediction.bench.ts',
  'apps/server/bench/results.bench.ts',
  'apps/server/bench/ingest.bench.ts',
  'apps/server/bench/realtime.bench.ts',
  'apps/server/bench/identity.bench.ts',
  'apps/web/bench/lighthouse.bench.mjs',
];
const filter = process.argv.slice(2);
let failed = 0;
for (const bench of benches) {
  if (filter.length && !filter.some((f) => bench.includes(f))) continue;
  if (!fs.existsSync(path.join(root, bench))) continue;
  console.log(`\n## ${bench}\n`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', bench], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'silent' },
  });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
