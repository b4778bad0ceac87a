import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
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

/** The SPA build; in development `/api` and the realtime socket go to the server on :8080. */
export default defineConfig({
  plugins: [mdiIcons(), muiThemeWithoutVars(), react(), bootScript(), racedayPrecache()],
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    manifest: true,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'mui-base', test: MUI_BASE }] } } },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
      '/app': { target: 'ws://localhost:8080', ws: true },
      '/.well-known': 'http://localhost:8080',
    },
  },
});
