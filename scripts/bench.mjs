#!/usr/bin/env node
// `npm run bench`: runs every benchmark of the repository in turn; each prints its own table with
// a baseline measured in the same run, so numbers are quoted as ratios on this noisy machine.
// `npm run bench -- results` runs the benches whose path contains "results".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// Every `*.bench.ts` under a workspace's `bench/` folder, domain first (no list to keep in sync).
const benches = ['packages/domain/bench', 'packages/contracts/bench', 'apps/server/bench', 'apps/web/bench']
  .filter((dir) => fs.existsSync(path.join(root, dir)))
  .flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir))
      .filter((f) => /\.bench\.(ts|mjs)$/.test(f))
      .sort()
      .map((f) => `${dir}/${f}`),
  );
const filter = process.argv.slice(2);
let failed = 0;
// Only when named, each for its reason: the race-day spike needs nginx, PostgreSQL and Redis and
// takes minutes; Lighthouse builds, starts a server and runs Chromium 27 times (many minutes).
const onlyWhenNamed = {
  'apps/server/bench/cluster.bench.ts': 'needs PostgreSQL and Redis',
  'apps/server/bench/failover.bench.ts': 'needs PostgreSQL and Redis',
  'apps/web/bench/lighthouse.bench.mjs': 'builds, starts a server and runs Lighthouse 27 times',
  'apps/server/bench/cold-start.bench.ts':
    'imports Boston once, then restarts a server several times (minutes)',
  'apps/web/bench/first-rows-restart.bench.mjs':
    'needs a build; seeds Boston once, then restarts a server 16 times with a browser (minutes)',
};
for (const bench of benches) {
  if (filter.length && !filter.some((f) => bench.includes(f))) continue;
  if (!filter.length && bench in onlyWhenNamed) {
    const name = path.basename(bench).replace(/\.bench\.(ts|mjs)$/, '');
    console.log(`\n## ${bench}: skipped (${onlyWhenNamed[bench]}; npm run bench -- ${name})`);
    continue;
  }
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
