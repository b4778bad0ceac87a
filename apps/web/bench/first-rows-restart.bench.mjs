#!/usr/bin/env node
// `npm run bench -- first-rows-restart` (issue 41, only when named: scripts/bench.mjs): the Boston
// table's first rows in a browser when the navigation is the server's first after a restart. The
// compiled server (`npm run build` first, as `npm start`) is started on a data directory where the
// demo and Boston are seeded (prepared once under .tmp, BENCH_FIRST_ROWS_DATA_DIR to reuse one),
// stopped, then restarted BENCH_RESTARTS times (default 4) per configuration; each time, once
// `/api/ready` answers (a load balancer sends spectators then), a fresh browser context opens
// Boston's overall table: navigation → row 1's rank, name and finish time visible in the viewport
// (the boot script's pre-paint or React, as lighthouse.bench.mjs measures it). Baselines in the same
// run: the same navigation again on the warm server (a second spectator), and a restart with
// snapshots off (RESULTS_SNAPSHOTS=false: the state built on the first request). Desktop
// 1280 × 900 and phone 390 × 844, unthrottled. Target (issue 41): ≤ 1 s after a restart.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { formatDuration } from '../../../packages/domain/src/time-format.ts';
import { columnRoles } from '../src/features/results/components/column-layout.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const bundle = path.join(root, 'apps/server/dist/server.mjs');
if (!fs.existsSync(bundle) || !fs.existsSync(path.join(root, 'apps/web/dist/index.html')))
  throw new Error('build first: npm run build');
const restarts = Number(process.env.BENCH_RESTARTS ?? 4);
const dataDir = process.env.BENCH_FIRST_ROWS_DATA_DIR ?? path.join(root, '.tmp/first-rows-data');
const PAGE = '/?lng=en#/events/boston-2017/reportlist/group/boston-2017/report/LIVE1';
const TABLE = '/api/results/boston-2017/groups/boston-2017/reports/LIVE1';

function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the compiled server; resolves once `/api/ready` answers (or `until` holds, for the seed). */
async function start(env, until, build = { bundle }) {
  const port = await freePort();
  const logs = [];
  const child = spawn(process.execPath, [build.bundle], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      // Development mode: production refuses the default secrets; this is a local measurement.
      NODE_ENV: 'development',
      ...(build.web ? { WEB_DIST: build.web } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => logs.push(String(d)));
  child.stderr.on('data', (d) => logs.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 900_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${logs.join('')}`);
    try {
      if ((await fetch(`${url}/api/ready`)).ok && (!until || until(logs.join('')))) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`server not ready:\n${logs.join('')}`);
    await new Promise((r) => setTimeout(r, until ? 500 : 20));
  }
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return { url, stop };
}

// The data directory: the demo and Boston seeded, Boston's snapshot stored (its first warm-up).
if (!fs.existsSync(path.join(dataDir, 'prepared'))) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  console.log('preparing the data directory (demo and Boston imported, minutes on a loaded machine)…');
  const server = await start({}, (logs) => /"built":1[^}]*finished results warmed/.test(logs));
  await server.stop();
  fs.writeFileSync(path.join(dataDir, 'prepared'), '');
}

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});

/** Navigation → row 1's rank, name and time visible (ms), in a fresh context (no HTTP cache). */
async function firstRows(url, viewport, expected) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${url}${PAGE}`, { waitUntil: 'commit' });
  const shown = await page.waitForFunction(
    (want) => {
      for (const row of document.querySelectorAll(
        '#pre-paint .rt-row, #root [role=row][aria-rowindex="2"]',
      )) {
        const r = row.getBoundingClientRect();
        const cells = [...row.querySelectorAll('.rt-cell')].map((c) => c.textContent ?? '');
        const visible = r.top >= 0 && r.bottom <= innerHeight && r.width > 0 && row.checkVisibility();
        if (visible && want.every((w) => cells.some((c) => c.includes(w)))) return performance.now();
        break;
      }
      return false;
    },
    expected,
    { polling: 'raf', timeout: 60_000 },
  );
  const ms = Math.round(await shown.jsonValue());
  // Where the time went (Chromium's performance entries, ms since navigation): the HTML, the boot
  // script, the configuration, the first rows' request, the pre-paint script and the entry.
  const steps = await page.evaluate(() => {
    const [nav] = performance.getEntriesByType('navigation');
    const res = performance.getEntriesByType('resource');
    const find = (test) => res.find((e) => test(new URL(e.name).pathname + new URL(e.name).search));
    const span = (e) => (e ? [Math.round(e.startTime), Math.round(e.responseEnd)] : null);
    return {
      html: nav ? [0, Math.round(nav.responseEnd)] : null,
      boot: span(find((u) => u.startsWith('/boot.js'))),
      env: span(find((u) => u.startsWith('/api/env-config'))),
      rows: span(find((u) => u.includes('/reports/') && u.includes('limit=100'))),
      event: span(find((u) => /^\/api\/events\/[^/?]+$/.test(u))),
      list: span(find((u) => u.endsWith('/reportlist'))),
      paint: span(find((u) => /\/assets\/pre-paint-(en|fr)-/.test(u))),
    };
  });
  await context.close();
  return { ms, steps };
}

/** Row 1's rank, name and finish time as the API gives them. */
async function expectedRow(url) {
  const head = await (await fetch(`${url}${TABLE}?offset=0&limit=1`)).json();
  const roles = columnRoles(head.columns);
  const cell = (role) => head.rows[0][head.columns[roles.indexOf(role)].FieldIdx];
  return [String(cell('rank')), String(cell('name')), formatDuration(Number(cell('time')))];
}

const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
};
const results = [];
const loadBefore = os.loadavg()[0];
// BENCH_FIRST_ROWS_BASELINE=false leaves out the snapshots-off baseline (minutes on a loaded machine).
// BENCH_FIRST_ROWS_BASE_BUILD=dir: another build (a copy of `apps/server/dist` and `apps/web/dist`
// under dir/apps/…, e.g. main's before a change) measured beside this one, taking turns.
const baseBuild = process.env.BENCH_FIRST_ROWS_BASE_BUILD;
const configurations = [
  ['snapshots off (baseline)', { RESULTS_SNAPSHOTS: 'false' }, undefined],
  ...(baseBuild
    ? [
        [
          'snapshots on, base build',
          {},
          {
            bundle: path.join(baseBuild, 'apps/server/dist/server.mjs'),
            web: path.join(baseBuild, 'apps/web/dist'),
          },
        ],
      ]
    : []),
  ['snapshots on', {}, undefined],
].filter(
  ([name]) => process.env.BENCH_FIRST_ROWS_BASELINE !== 'false' || name !== 'snapshots off (baseline)',
);
for (const [name] of configurations)
  for (const shape of Object.keys(VIEWPORTS))
    results.push({ name, shape, cold: [], warm: [], coldSteps: [], warmSteps: [] });
// The configurations take turns (restart k of each, then k + 1): the machine's load drifts.
for (let k = 0; k < restarts; k++) {
  for (const [shape, viewport] of Object.entries(VIEWPORTS)) {
    for (const [name, env, build] of configurations) {
      const r = results.find((x) => x.name === name && x.shape === shape);
      const server = await start(env, undefined, build);
      // The row is read from the page itself after the measure: an API call first would warm it.
      const expected = ['1', 'KIRUI Geoffrey', '2:09:37'];
      const c = await firstRows(server.url, viewport, expected);
      r.cold.push(c.ms);
      r.coldSteps.push(c.steps);
      if (k === 0) {
        const actual = await expectedRow(server.url);
        if (actual.join() !== expected.join()) throw new Error(`row 1 is ${actual.join(', ')}`);
      }
      const w = await firstRows(server.url, viewport, expected);
      r.warm.push(w.ms);
      r.warmSteps.push(w.steps);
      await server.stop();
    }
  }
}
await browser.close();
const loadAfter = os.loadavg()[0];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `\nBoston overall table (26,410 rows): navigation → row 1 visible, first navigation after a restart (ready) vs the next one; ${restarts} restarts each, unthrottled, load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} on ${os.availableParallelism()} cores. Target ≤ 1 s.\n`,
);
console.log('| server | viewport | after a restart: median (each) | warm server: median (each) |');
console.log('|---|---|---:|---:|');
for (const r of results)
  console.log(
    `| ${r.name} | ${r.shape} | ${median(r.cold)} ms (${r.cold.join(', ')}) | ${median(r.warm)} ms (${r.warm.join(', ')}) |`,
  );

// The breakdown: each step's median start → end (ms after navigation), after a restart and warm.
const STEPS = ['html', 'boot', 'env', 'rows', 'event', 'list', 'paint'];
const spanOf = (all, step) => {
  const got = all.map((s) => s[step]).filter(Boolean);
  return got.length ? `${median(got.map((g) => g[0]))}–${median(got.map((g) => g[1]))}` : '–';
};
console.log(
  `\nWhere the time goes (median start–end, ms after navigation; rows = the first 100 rows' request):\n`,
);
console.log(`| server | viewport | when | ${STEPS.join(' | ')} | row 1 visible |`);
console.log(`|---|---|---|${STEPS.map(() => '---:').join('|')}|---:|`);
for (const r of results)
  for (const [when, all, ms] of [
    ['restart', r.coldSteps, r.cold],
    ['warm', r.warmSteps, r.warm],
  ])
    console.log(
      `| ${r.name} | ${r.shape} | ${when} | ${STEPS.map((s) => spanOf(all, s)).join(' | ')} | ${median(ms)} |`,
    );
