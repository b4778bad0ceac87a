import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { mdiIcons } from './build/mdi-icons.ts';
import { muiThemeWithoutVars } from './build/mui-theme-without-vars.ts';

/** The SPA build; in development `/api` and the realtime socket go to the server on :8080. */
export default defineConfig({
  plugins: [mdiIcons(), muiThemeWithoutVars(), react()],
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 600, manifest: true },
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
      '/app': { target: 'ws://localhost:8080', ws: true },
      '/.well-known': 'http://localhost:8080',
    },
  },
});
