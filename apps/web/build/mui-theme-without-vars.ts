import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const SHIM = '\0tempora-mui-create-theme';

/**
 * MUI's `createTheme` holds two implementations: the plain theme, and the CSS-variables theme
 * (`cssVariables: true` or `colorSchemes`: light/dark switching), picked at run time, so the
 * second (about 6 KB of gzip) is in every page although our theme never asks for it (issue 19:
 * the JavaScript of a public page). This plugin gives MUI's own modules a `createTheme` that is
 * the plain one — the same function MUI calls for a theme without those options — and refuses
 * the others loudly rather than silently building another theme.
 */
export function muiThemeWithoutVars(): Plugin {
  const styles = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@mui/material/package.json')),
    'styles',
  );
  return {
    name: 'tempora-mui-theme-without-vars',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== './createTheme.mjs' || !importer) return null;
      return path.dirname(importer) === styles ? SHIM : null;
    },
    load(id) {
      if (id !== SHIM) return null;
      const noVars = JSON.stringify(path.join(styles, 'createThemeNoVars.mjs'));
      return `import createThemeNoVars from ${noVars};
export default function createTheme(options = {}, ...args) {
  if (options.cssVariables || 'colorSchemes' in options)
    throw new Error('MUI CSS-variable themes are left out of this build (apps/web/build/mui-theme-without-vars.ts)');
  return createThemeNoVars(options, ...args);
}
`;
    },
  };
}
