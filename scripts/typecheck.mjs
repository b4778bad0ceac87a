#!/usr/bin/env node
// `tsc --noEmit` over every workspace (and the browser journeys); exits non-zero on any error.
import { spawnSync } from 'node:child_process';

const projects = ['packages/domain', 'packages/contracts', 'apps/server', 'apps/web', 'apps/web/e2e'];
let failed = 0;
for (const project of projects) {
  const result = spawnSync('npx', ['tsc', '--noEmit', '-p', project], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    console.error(`typecheck failed: ${project}`);
  }
}
process.exit(failed ? 1 : 0);
