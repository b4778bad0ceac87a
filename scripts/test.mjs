#!/usr/bin/env node
// `npm test`: every check of the project, in order — lint, typecheck and the build (with its
// JavaScript budget) side by side, then unit + API (Vitest, on PGlite, and on PostgreSQL/Redis when
// TEST_DATABASE_URL/TEST_REDIS_URL are set), then the browser journeys in Debian's Chromium
// (Playwright). Each step prints its wall time and the CPU its processes used (user + system, the
// whole process tree), so CI's log says where a run's time goes. Ends with one line:
// `N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
// The journeys' browser (apps/web/e2e/chromium.ts): Debian's headless shell, else its Chromium.
const chromium =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => fs.existsSync(p)) ??
  '/usr/bin/chromium-headless-shell';
const totals = { passed: 0, failed: 0 };
const only = process.argv.slice(2); // e.g. `npm test -- vitest` to run one step
const wanted = (name) => !only.length || only.includes(name);

/** CPU seconds (user + system) of this process's waited-for descendants so far (Linux). */
function childrenCpu() {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in clock ticks
  } catch {
    return Number.NaN;
  }
}

/** The machine's load averages (1, 5, 15 min): a step's times mean little without them (shared machine). */
const loadText = () => {
  const [one, five, fifteen] = os.loadavg().map((l) => l.toFixed(1));
  return `load ${one} ${five} ${fifteen}`;
};

function report(name, { passed, failed }, started, cpu) {
  totals.passed += passed;
  totals.failed += failed;
  const wall = ((Date.now() - started) / 1000).toFixed(1);
  const cpuText = Number.isNaN(cpu) ? '' : `, CPU ${cpu.toFixed(0)} s`;
  console.log(`=== ${name}: ${passed} passed, ${failed} failed (${wall} s${cpuText}, ${loadText()}) ===`);
}

function step(name, fn) {
  if (!wanted(name)) return;
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const cpu = childrenCpu();
  report(name, fn(), started, childrenCpu() - cpu);
}

function run(cmd, args, env = {}) {
  return spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
}

/** Runs a command with its output kept, to be printed whole when it ends (steps side by side). */
function runQuiet(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: process.env });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', (error) => resolve({ status: 1, output: String(error) }));
    child.on('close', (status) => resolve({ status: status ?? 1, output: Buffer.concat(out).toString() }));
  });
}

const outcome = (status) => (status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });

// Lint, typecheck and the build side by side: each alone leaves a core idle part of the time
// (lint 12 s, typecheck 5 projects 108 s, build 17 s one after another at a load of 9; CPU 7, 46
// and 10 s). One build serves the budget (issue 19: each public page's initial JavaScript within
// 200 KB gzip, read from the Vite manifest by scripts/bundle-budget.mjs), the server processes
// Vitest starts (apps/server/test/server-entry.ts: the bundle rather than transpiling the sources
// at each start) and the browser journeys.
let built = false;
/** The journeys' migrated data directory, made beside Vitest once the build is done (below). */
let templateJob = null;
{
  const started = Date.now();
  const cpu = childrenCpu();
  const jobs = [];
  if (wanted('lint')) jobs.push(['lint', runQuiet('npx', ['biome', 'check', '.'])]);
  if (wanted('typecheck')) jobs.push(['typecheck', runQuiet('node', ['scripts/typecheck.mjs'])]);
  if (wanted('budget') || wanted('vitest') || wanted('e2e'))
    jobs.push([
      'budget',
      runQuiet('npm', ['run', 'build']).then(async (b) => {
        built = b.status === 0;
        // The journeys' global setup would otherwise start a server on an empty directory (initdb
        // and ~100 migrations) before any journey, a minute or more of wall time on a loaded
        // 2-core machine with little else running; made here, it overlaps Vitest (its CPU is
        // counted in whichever step it ends in).
        if (built && wanted('e2e'))
          templateJob = runQuiet('node', ['--import', 'tsx', 'apps/web/e2e/prepare-template.ts']);
        if (!built || !wanted('budget')) return { ...b, status: built ? 0 : 1, skip: !wanted('budget') };
        const budget = await runQuiet('node', ['scripts/bundle-budget.mjs']);
        return { status: budget.status, output: b.output + budget.output };
      }),
    ]);
  const results = await Promise.all(jobs.map(([, job]) => job));
  jobs.forEach(([name], i) => {
    const r = results[i];
    if (r.skip) return;
    console.log(`\n=== ${name} ===`);
    process.stdout.write(r.output);
    const res = outcome(r.status);
    totals.passed += res.passed;
    totals.failed += res.failed;
    console.log(`=== ${name}: ${res.passed} passed, ${res.failed} failed ===`);
  });
  if (jobs.length)
    console.log(
      `=== lint, typecheck, build side by side: ${((Date.now() - started) / 1000).toFixed(1)} s, CPU ${(childrenCpu() - cpu).toFixed(0)} s, ${loadText()} ===`,
    );
}

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

// The data directory made beside Vitest (apps/web/e2e/prepare-template.ts prints its path last);
// when it failed, the journeys' global setup makes one as before.
let template;
if (templateJob) {
  const made = await templateJob;
  const dir = made.output.trim().split('\n').at(-1);
  if (made.status === 0 && dir && fs.existsSync(path.join(dir, 'pglite'))) template = dir;
  else console.log(`\nThe journeys' data directory could not be made beforehand:\n${made.output}`);
}

step('e2e', () => {
  if (!fs.existsSync(chromium)) {
    console.error(
      `Chromium is not installed at ${chromium}. Install Debian's headless shell with:\n\n    sudo apt-get install -y chromium-headless-shell\n\n(or chromium, or set CHROMIUM_PATH). Browser tests never download a browser.`,
    );
    return { passed: 0, failed: 1 };
  }
  if (!built) return { passed: 0, failed: 1 };
  const out = path.join(tmp, 'playwright.json');
  fs.rmSync(out, { force: true });
  run('npx', ['playwright', 'test', '-c', 'apps/web/e2e/playwright.config.ts', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    ...(template ? { TEMPORA_E2E_TEMPLATE_DIR: template } : {}),
  });
  if (!fs.existsSync(out)) return { passed: 0, failed: 1 };
  const stats = JSON.parse(fs.readFileSync(out, 'utf8')).stats;
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected + (stats.errors?.length ?? 0) };
});

if (template) fs.rmSync(template, { recursive: true, force: true });

console.log(`\nCPU of the whole run (user + system): ${childrenCpu().toFixed(0)} s (${loadText()})`);
fs.writeFileSync(path.join(tmp, 'summary.txt'), `${totals.passed} passed, ${totals.failed} failed\n`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed ? 1 : 0);
