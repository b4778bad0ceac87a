import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { preloadRoute } from './app/router.tsx';
import { loadEnvironmentConfig } from './config/env-config.ts';
import { configureApiClient } from './lib/api-client.ts';
import { pickUiVariant } from './lib/branding-variants.ts';
import { initialLanguage, loadLanguage } from './lib/i18n.ts';
import { endPrePaint } from './lib/pre-paint.ts';
import { urlParam } from './lib/url-params.ts';
// The window's size read now, while the page's layout is clean (lib/viewport.ts).
import './lib/viewport.ts';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

/** Loads the environment (URL parameter `env`, spec §9) before the first render. */
async function start(container: HTMLElement) {
  // The page's own chunk downloads meanwhile (hash routing: the path is in the hash).
  preloadRoute(window.location.hash.slice(1).split(/[?#]/)[0] || '/');
  // The translations of the language in use load beside the configuration (one round trip).
  const [{ config }] = await Promise.all([loadEnvironmentConfig(), loadLanguage(initialLanguage())]);
  configureApiClient(config);
  const ui = pickUiVariant(urlParam('ui'));
  const reactRoot = createRoot(container);
  // A transition: React renders the first screen in slices, giving the main thread back between
  // them (issue 19: long tasks at start-up, Lighthouse TBT).
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <App ui={ui} />
      </StrictMode>,
    ),
  );
}

start(root).catch((error) => {
  console.error(error);
  endPrePaint();
  root.textContent =
    'Tempora could not load its configuration. / Tempora n’a pas pu charger sa configuration.';
});
