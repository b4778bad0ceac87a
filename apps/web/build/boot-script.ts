import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync, transformSync } from 'esbuild';
import type { Plugin } from 'vite';
import { contentPrePaintStrings } from '../src/pre-paint/content-pre-paint.ts';
import { followedPrePaintStrings } from '../src/pre-paint/followed-pre-paint.ts';
import { prePaintSprite } from '../src/pre-paint/icons.ts';
import { prePaintStrings } from '../src/pre-paint/strings.ts';
import { trackingPrePaintStrings } from '../src/pre-paint/tracking-pre-paint.ts';

/**
 * Pages the boot script knows (issue 19: the start-up chain): a hash path pattern, the route
 * module whose chunks it preloads, and the API calls its first render makes (paths under a base
 * of the environment, from the pattern's groups, already encoded). Other pages are preloaded by
 * the entry (`preloadRoute`), as before.
 */
const PAGES: {
  pattern: RegExp;
  module: string;
  api?: [string, string][];
  /** Drawn before React (src/pre-paint/): which picture, and when (group 2 of the pattern, if any, is `group`). */
  paint?: 'report' | 'tracking' | 'content' | 'followed';
  /**
   * False: the page's chunks are not listed (the entry's `preloadRoute` asks for them when it
   * starts). Every page's list is in the boot script every page loads: the home pages, drawn
   * before React, gain little from theirs, the report page's budget pays for them.
   */
  preload?: false;
}[] = [
  {
    pattern: /^\/(?:events|results)\/([^/]+)\/reportlist\/(group|table)\/([^/]+)\/report\/([^/]+)$/,
    module: 'src/app/routes/results/report-page.tsx',
    // The report page with its chrome (group 2) is drawn before React (src/pre-paint/).
    paint: 'report',
    api: [
      ['resultsApiUrlBase', 'results/$1/groups/$3/reports/$4?offset=0&limit=100'],
      ['eventsApiUrlBase', 'events/$1'],
      ['resultsApiUrlBase', 'results/$1/reportlist'],
    ],
  },
  // A tracking card of the generic layout: its call is asked for early and its first screen drawn
  // before React (src/pre-paint/tracking-pre-paint.ts), the app started once it is on screen.
  // (Asked for early without a picture, the card's first render came as a longer task after the
  // first paint — Lighthouse TBT 1.15–1.19 s against 0.6 s — for no earlier LCP.)
  {
    pattern: /^\/tracking\/([^/]+)$/,
    module: 'src/app/routes/live/tracking-page.tsx',
    paint: 'tracking',
    api: [['trackingApiUrlBase', 'tracking/$1']],
  },
  // An event's tracking card (the default layout, issue 27: LCP 3.8 s without a picture): the card
  // and its event (the breadcrumbs' name) asked for early, the same picture in the default layout.
  {
    pattern: /^\/events\/([^/]+)\/tracking\/([^/]+)$/,
    module: 'src/app/routes/live/tracking-page.tsx',
    paint: 'tracking',
    api: [
      ['trackingApiUrlBase', 'tracking/$2'],
      ['eventsApiUrlBase', 'events/$1'],
    ],
  },
  // The home pages (issue 28: Lighthouse LCP 4.7 s on `/`, 3.5 s on an event's home): their heading
  // and what sits under it drawn before React (src/pre-paint/content-pre-paint.ts).
  {
    pattern: /^\/$/,
    module: 'src/app/routes/content/home-page.tsx',
    paint: 'content',
    preload: false,
    api: [['eventsApiUrlBase', 'events']],
  },
  {
    pattern: /^\/events\/([^/]+)\/home$/,
    module: 'src/app/routes/content/event-home-page.tsx',
    paint: 'content',
    preload: false,
    api: [['eventsApiUrlBase', 'events/$1']],
  },
  // The athletes followed (issue 28: Lighthouse LCP 3.5 s): the bar, title and message drawn
  // before React, from the script's own texts (no call).
  {
    pattern: /^\/genericTracking$/,
    module: 'src/app/routes/live/generic-tracking-page.tsx',
    paint: 'followed',
    preload: false,
  },
];
const LOCALES = { en: 'src/lib/locales-en.ts', fr: 'src/lib/locales-fr.ts' };

/** What the boot script reads of a chunk of the bundle. */
interface Chunk {
  fileName: string;
  facadeModuleId: string | null;
  isEntry: boolean;
  imports: string[];
}

/**
 * The boot script, `/boot.js`, a classic deferred script (the page's CSP allows no inline script),
 * which asks for the entry's modules and runs the entry (the HTML names none of them). From the
 * hash path alone it asks for what the first render will need, which the entry would only discover once downloaded
 * and run: the page's chunks and the translations (modulepreload), and — for a report, a tracking
 * card, the home page — the environment configuration, then the page's first calls (a report's
 * first page of rows, its event and its report list; the card's athlete) (`window.__temporaBoot.early`,
 * taken once by the API client: `lib/early-fetch.ts`). Not for a signed-in user, whose calls carry
 * a token. On a report page and a tracking card it loads that page's pre-paint (src/pre-paint/),
 * which draws the first screenful from copies of those answers, and runs the entry only once the
 * picture is on screen: the app's start-up — module evaluation, first render, long tasks on a
 * phone — no longer delays the first rows (issue 19: Lighthouse LCP 3.7 s → 1.5 s on Boston, and
 * on a tracking card 3.7 s → 1.5 s, performance 82 → 93). Its file names come from the bundle, so
 * it is written after it.
 */
export function bootScript(): Plugin {
  return {
    name: 'tempora-boot-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      // The entry and its modules are the boot script's to ask for (`start` in `boot`): out of the
      // page's HTML.
      handler: (html) =>
        html
          .replace('</title>', '</title>\n    <script src="/boot.js" defer fetchpriority="high"></script>')
          .replace(/\s*<script type="module" crossorigin src="\/assets\/[^"]+"><\/script>/, '')
          .replace(/\s*<link rel="modulepreload" crossorigin href="\/assets\/[^"]+">/g, ''),
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk') as Chunk[];
      const byModule = new Map(chunks.filter((c) => c.facadeModuleId).map((c) => [c.facadeModuleId!, c]));
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (file: string, seen = new Set<string>()) => {
        if (seen.has(file)) return seen;
        seen.add(file);
        for (const dep of byFile.get(file)?.imports ?? []) closure(dep, seen);
        return seen;
      };
      const entry = chunks.find((c) => c.isEntry);
      const inEntry = entry ? closure(entry.fileName) : new Set<string>();
      const filesOf = (module: string) => {
        const chunk = [...byModule].find(([id]) => id.endsWith(`/${module}`))?.[1];
        return chunk ? [...closure(chunk.fileName)].filter((f) => !inEntry.has(f)) : [];
      };
      // File names without their common `assets/` (the boot script puts it back).
      const short = (files: string[]) => files.map((f) => f.replace(/^assets\//, ''));
      const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);
      const sprite = prePaintSprite();
      const spriteFile = `assets/pre-paint-icons-${hash(sprite)}.svg`;
      this.emitFile({ type: 'asset', fileName: spriteFile, source: sprite });
      // One script per picture and language, with its texts only (`pre-paint-{lng}` the report's,
      // `pre-paint-tracking-{lng}` the tracking card's: scripts/bundle-budget.mjs counts each for its page).
      const paintFiles: Record<string, Record<string, string>> = {
        report: {},
        tracking: {},
        content: {},
        followed: {},
      };
      for (const kind of ['report', 'tracking', 'content', 'followed'] as const) {
        for (const lng of ['en', 'fr']) {
          const paint = prePaintScript(`/${spriteFile}`, lng, kind);
          const paintFile = `assets/pre-paint-${kind === 'report' ? '' : `${kind}-`}${lng}-${hash(paint)}.js`;
          this.emitFile({ type: 'asset', fileName: paintFile, source: paint });
          paintFiles[kind]![lng] = `/${paintFile}`;
        }
      }
      const pages = PAGES.map((p) => ({
        re: p.pattern.source.replace(/\\\//g, '/'),
        files: p.preload === false ? [] : short(filesOf(p.module)),
        api: p.api ?? [],
        paint: p.paint ? paintFiles[p.paint] : undefined,
      }));
      const locales = Object.fromEntries(Object.entries(LOCALES).map(([lng, m]) => [lng, short(filesOf(m))]));
      // The entry, then its modules in the order Vite's HTML listed them (the closure, depth first).
      const start = entry ? short([...inEntry]) : [];
      this.emitFile({
        type: 'asset',
        fileName: 'boot.js',
        // Minified: it counts in every page's first JavaScript (scripts/bundle-budget.mjs).
        source: transformSync(
          `(${boot.toString()})(${JSON.stringify(pages)},${JSON.stringify(locales)},${JSON.stringify(start)});`,
          {
            minify: true,
            target: 'es2020',
          },
        ).code,
      });
    },
  };
}

/**
 * A pre-paint script (src/pre-paint/entry.ts for a report, tracking-entry.ts for a tracking card)
 * bundled on its own — a classic script the boot script adds on its page, not a chunk of the app:
 * it must not wait for the entry's modules — with the texts it shows in one language, taken from
 * the locale files (one script per page and language: the tracking card's 3.6 KB would not fit
 * under the budget beside the report's 5.8 KB).
 */
function prePaintScript(
  sprite: string,
  lng: string,
  kind: 'report' | 'tracking' | 'content' | 'followed',
): string {
  const web = path.resolve(import.meta.dirname, '..');
  const read = (ns: string) =>
    JSON.parse(fs.readFileSync(path.join(web, `src/locales/${lng}/${ns}.json`), 'utf8'));
  const strings =
    kind === 'report'
      ? prePaintStrings({ common: read('common'), results: read('results'), views: read('views') })
      : kind === 'tracking'
        ? trackingPrePaintStrings({ common: read('common'), live: read('live'), exports: read('exports') })
        : kind === 'content'
          ? contentPrePaintStrings({ common: read('common'), content: read('content') })
          : followedPrePaintStrings({ common: read('common'), live: read('live') });
  const out = buildSync({
    entryPoints: [path.join(web, `src/pre-paint/${kind === 'report' ? 'entry' : `${kind}-entry`}.ts`)],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    define: { PRE_PAINT_STRINGS: JSON.stringify(strings), PRE_PAINT_SPRITE: JSON.stringify(sprite) },
  });
  return out.outputFiles[0]!.text;
}

/** The boot script's body (plain browser JavaScript: it is written out with `toString`). */
function boot(
  pages: { re: string; files: string[]; api: [string, string][]; paint?: Record<string, string> }[],
  locales: Record<string, string[]>,
  entry: string[],
) {
  const state: {
    env?: Promise<unknown>;
    early: Record<string, Promise<Response>>;
    paint?: { data: Promise<unknown[]>; lng: string; eventId: string; ui: string; path: string };
    start?: () => void;
  } = { early: {} };
  (window as unknown as { __temporaBoot: typeof state }).__temporaBoot = state;
  const param = (name: string) => {
    const q = location.hash.indexOf('?');
    return (
      new URLSearchParams(location.search).get(name) ||
      (q >= 0 ? new URLSearchParams(location.hash.slice(q + 1)).get(name) : null)
    );
  };
  const preload = (file: string) => {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = `/assets/${file}`;
    document.head.appendChild(link);
  };
  // The entry (`entry[0]`), its modules and the page's chunks (the HTML lists none of them): at
  // once, but on a page drawn before React only once drawn (src/pre-paint/entry.ts calls `start`),
  // or after 1.5 s — the app's downloads and start-up (module evaluation, first render: long tasks
  // on a phone) then come after the picture instead of delaying it. Every module is asked for
  // before the entry runs (its evaluation holds the main thread); after a picture, a few per task
  // (each request costs the main thread: 45 at once were a 120 ms task under a 4× slower CPU,
  // Lighthouse TBT).
  let started = false;
  let later = false;
  const queued: string[] = [];
  const want = (file: string) => (started ? preload(file) : queued.push(file));
  const start = () => {
    if (started) return;
    started = true;
    const files = entry.slice(1).concat(queued);
    const some = () => {
      files.splice(0, later ? 8 : files.length).forEach(preload);
      if (files.length) return void setTimeout(some, 0);
      const script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = `/assets/${entry[0]}`;
      document.head.appendChild(script);
    };
    some();
  };
  state.start = start;
  try {
    const langs = [
      param('lng'),
      localStorage.getItem('lng'),
      ...(navigator.languages || [navigator.language]),
    ];
    const lng = langs.map((l) => (l || '').slice(0, 2).toLowerCase()).find((l) => l === 'en' || l === 'fr');
    (locales[lng || 'fr'] || []).forEach(want);
    const path = location.hash.slice(1).split(/[?#]/)[0] || '/';
    for (const page of pages) {
      const m = new RegExp(page.re).exec(path);
      if (!m) continue;
      page.files.forEach(want);
      // A picture drawn from its own texts (`/genericTracking`) asks for no call.
      if ((!page.api.length && !page.paint) || localStorage.getItem('accessToken')) break;
      const groups = m.map((g) => {
        try {
          return encodeURIComponent(decodeURIComponent(g));
        } catch {
          return encodeURIComponent(g);
        }
      });
      // The pre-paint (src/pre-paint/): a report page with its chrome (not `table`), or a tracking
      // card, in the default look, gets its first screenful drawn from copies of the early answers, taken as they arrive (before the
      // API client reads them).
      const ui = param('ui');
      let painted: ((data: Promise<unknown[]>) => void) | undefined;
      // Either look (spec §9 `ui`): the picture takes the look's colours (src/pre-paint/looks.ts).
      if (page.paint && m[2] !== 'table' && (!ui || ui === 'acn' || ui === 'cr')) {
        later = true;
        setTimeout(start, 1500);
        const data = new Promise<unknown[]>((resolve) => {
          painted = resolve;
        });
        data.catch(() => undefined);
        let eventId = m[1] || '';
        try {
          eventId = decodeURIComponent(eventId);
        } catch {}
        state.paint = { data, lng: lng || 'fr', eventId, ui: ui || 'acn', path };
        const script = document.createElement('script');
        script.src = page.paint[lng || 'fr'] || '';
        script.async = true;
        script.onerror = start;
        document.head.appendChild(script);
      }
      // A failure is the entry's to report: it asks again (config/env-config.ts).
      // Default headers (`accept: */*`), as the preload's and the API client's.
      state.env = fetch('/api/env-config').then((r) => (r.ok ? r.json() : Promise.reject(r.status)));
      state.env.catch(() => painted?.(Promise.reject()));
      state.env.then(
        (all) => {
          const envs = all as Record<string, Record<string, string>>;
          const env = envs[param('env') || ''] || envs.prod;
          if (!env) return painted?.(Promise.reject());
          const copies: Promise<unknown>[] = [];
          for (const [base, template] of page.api) {
            const root = env[base] || '';
            const url = `${root.endsWith('/') ? root : `${root}/`}${template.replace(/\$(\d)/g, (_, k) => groups[k] || '')}`;
            state.early[url] = fetch(url);
            state.early[url].catch(() => undefined);
            copies.push(state.early[url].then((r) => (r.ok ? r.clone().json() : Promise.reject(r.status))));
          }
          painted?.(Promise.all([...copies, env.blobUrlBase || '']));
        },
        () => undefined,
      );
      break;
    }
  } catch {
    // Storage refused (private mode): the entry loads everything itself.
  }
  if (!later) start();
}
