import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { bootScript } from './build/boot-script.ts';
import { mdiIcons } from './build/mdi-icons.ts';
import { muiThemeWithoutVars } from './build/mui-theme-without-vars.ts';
import { racedayPrecache } from './build/raceday-precache.ts';

/**
 * MUI's base every page starts with (styled, ButtonBase, the ripple, the spinner the Button
 * shows), kept in one chunk: left to itself, rolldown cuts it by which lazy pages share each
 * part, and a page's change elsewhere (issue 19: the map and favourites pages) re-cut it into
 * more files, each with its gzip overhead, on every page's first load.
 */
const MUI_BASE = new RegExp(
  [
    'node_modules/(react-is|hoist-non-react-statics|@emotion/react)/',
    'node_modules/@mui/system/(preprocessStyles|createStyled/|DefaultPropsProvider/|memoTheme)',
    'node_modules/@mui/utils/(resolveProps|useEnhancedEffect|composeClasses|useForkRef|useEventCallback|useLazyRef|isFocusVisible|useOnMount|useTimeout|useId)/',
    'node_modules/@mui/material/(styles/(defaultTheme|useTheme|slotShouldForwardProp|rootShouldForwardProp|styled|reducedMotion)|utils/(memoTheme|capitalize|useForkRef|useEventCallback|useFocusableWhenDisabled|createSimplePaletteValueFilter|useId)|DefaultPropsProvider/|transitions/(utils|useReducedMotion)|ButtonBase/|useLazyRipple/|CircularProgress/)',
  ].join('|'),
);

/**
 * i18next and react-i18next, which every page starts with, in one chunk. Left to itself, rolldown
 * cut them apart by which lazy chunks import i18next itself (report cells, auth pages, field
 * errors), and then no longer merged the entry's shared chunks (React Router, TanStack Query,
 * MUI's Button, Typography, …) into the entry (its `mergeCommonChunks`, skipped where a merge
 * would make chunks import each other in a circle): together, the report page's first JavaScript
 * is 26 files instead of 37, 6.5 KB gzip less, the same modules (scripts/bundle-budget.mjs).
 */
const I18N = /node_modules\/(i18next|react-i18next)\//;

/**
 * The files of the entry's static closure, filled when the bundle is written (before Vite's
 * preload lists are made): what every page has loaded before any lazy import.
 */
const entryFiles = new Set<string>();
function entryClosure(): Plugin {
  return {
    name: 'tempora-entry-closure',
    apply: 'build',
    generateBundle(_options, bundle) {
      entryFiles.clear();
      const visit = (file: string) => {
        const chunk = bundle[file];
        if (entryFiles.has(file) || !chunk || chunk.type !== 'chunk') return;
        entryFiles.add(file);
        for (const dep of chunk.imports) visit(dep);
      };
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk' && chunk.isEntry) visit(chunk.fileName);
    },
  };
}

/**
 * The chunk names of the pages spectators never open first (organiser, runner, pickup, console,
 * exports' verification, the auth pages): the entry's router imports each of them, and each import
 * carried its list of files to preload, the lists and the file names sitting in the entry that
 * every spectator downloads (1.5 KB of gzip once the runner's and the pickup's pages came, issues
 * 38–40). Their imports preload nothing: such a page fetches its chunk, then the chunk's own
 * imports (one round trip more, on pages opened once per session); spectators' pages keep theirs.
 */
const PRIVATE_PAGE_DIRS = [
  'console',
  'entries',
  'exports',
  'organiser',
  'participants',
  'pickup',
  'raceday',
  'runner',
];
const privatePageNames = new Set([
  'auth-pages',
  ...PRIVATE_PAGE_DIRS.flatMap((dir) => {
    const folder = path.join(import.meta.dirname, 'src/app/routes', dir);
    return fs.existsSync(folder)
      ? fs
          .readdirSync(folder)
          .filter((f) => /\.tsx?$/.test(f))
          .map((f) => f.replace(/\.tsx?$/, ''))
      : [];
  }),
]);
/**
 * Parts a public page loads after its first paint (the download menu, the note before a live
 * race's first times): their imports preload nothing either — their lists of file names (0.3 KB of
 * gzip on the report page) sat in the page's first JavaScript, for code not on the first screen.
 */
const afterPaintNames = new Set(['export-buttons', 'before-first-times']);
const chunkName = (file: string) => /([^/]+)-[\w-]{8}\.js$/.exec(file)?.[1] ?? '';
const preloadsNothing = (file: string) =>
  privatePageNames.has(chunkName(file)) || afterPaintNames.has(chunkName(file));

/** The SPA build; in development `/api` and the realtime socket go to the server on :8080. */
export default defineConfig({
  plugins: [mdiIcons(), muiThemeWithoutVars(), react(), entryClosure(), bootScript(), racedayPrecache()],
  build: {
    // A lazy page's preload list leaves out the entry's files, loaded before any page: the lists
    // and their file names were 4 KB of gzip in the entry, on every page (issue 28, the budget).
    modulePreload: {
      resolveDependencies: (file, deps, { hostType }) =>
        hostType === 'js' && preloadsNothing(file) ? [] : deps.filter((dep) => !entryFiles.has(dep)),
    },
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'mui-base', test: MUI_BASE },
            { name: 'i18n', test: I18N },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
      '/app': { target: 'ws://localhost:8080', ws: true },
      '/.well-known': 'http://localhost:8080',
    },
  },
});
