#!/usr/bin/env node
// `npm test`: every check of the project, in order — lint, typecheck, unit + API (Vitest, on PGlite,
// and on PostgreSQL/Redis when TEST_DATABASE_URL/TEST_REDIS_URL are set), the web build and its
// JavaScript budget, then the
// browser journeys in Debian's Chromium (Playwright). Ends with one line: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const totals = { passed: 0, failed: 0 };
const only = process.argv.slice(2); // e.g. `npm test -- vitest` to run one step

function step(name, fn) {
  if (only.length && !only.includes(name)) return;
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const { passed, failed } = fn();
  totals.passed += passed;
  totals.failed += failed;
  console.log(
    `=== ${name}: ${passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s) ===`,
  );
}

function run(cmd, args, env = {}) {
  return spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
}

const check = (cmd, args) => () =>
  run(cmd, args) === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };

step('lint', check('npx', ['biome', 'check', '.']));
step('typecheck', check('node', ['scripts/typecheck.mjs']));

// Issue 19: each public page's initial JavaScript within 200 KB gzip (scripts/bundle-budget.mjs
// reads the build's Vite manifest).
// One build for the budget, the server processes Vitest starts (apps/server/test/server-entry.ts:
// the bundle rather than transpiling the sources at each start) and the browser journeys (it took
// two minutes a time in CI).
let built = false;
function build() {
  if (!built) built = run('npm', ['run', 'build']) === 0;
  return built;
}

step('budget', () => {
  if (!build()) return { passed: 0, failed: 1 };
  return run('node', ['scripts/bundle-budget.mjs']) === 0
    ? { passed: 1, failed: 0 }
    : { passed: 0, failed: 1 };
});

step('vitest', () => {
  const out = path.join(tmp, 'vitest.json');
  fs.rmSync(out, { force: true });
  run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  if (!fs.existsSync(out)) return { passed: 0, failed: 1 };
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  // A file that fails without a failing test counts as a failure: it failed to load, or a hook
  // (`beforeAll`) failed and its tests did not run (`results/snapshots.test.ts` once: reported
  // "1 failed" by Vitest, and 0 here).
  const brokenFiles = report.testResults.filter(
    (f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'),
  ).length;
  return { passed: report.numPassedTests, failed: report.numFailedTests + brokenFiles };
});

step('e2e', () => {
  if (!fs.existsSync(chromium)) {
    console.error(
      `Chromium is not installed at ${chromium}. Install Debian's Chromium with:\n\n    sudo apt-get install -y chromium\n\n(or set CHROMIUM_PATH). Browser tests never download a browser.`,
    );
    return { passed: 0, failed: 1 };
  }
  if (!build()) return { passed: 0, failed: 1 };
  const out = path.join(tmp, 'playwright.json');
  fs.rmSync(out, { force: true });
  run('npx', ['playwright', 'test', '-c', 'apps/web/e2e/playwright.config.ts', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  });
  if (!fs.existsSync(out)) return { passed: 0, failed: 1 };
  const stats = JSON.parse(fs.readFileSync(out, 'utf8')).stats;
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected + (stats.errors?.length ?? 0) };
});

fs.writeFileSync(path.join(tmp, 'summary.txt'), `${totals.passed} passed, ${totals.failed} failed\n`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed ? 1 : 0);
