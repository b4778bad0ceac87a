import { CssBaseline } from '@mui/material';
// @mui/material's ThemeProvider is this one plus the CSS-variables provider, which our theme (no
// `cssVariables`, no `colorSchemes`) never uses: 3 KB of gzip on every page (issue 19).
import { ThemeProvider } from '@mui/system';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { I18nextProvider } from 'react-i18next';
import { HashRouter, useLocation, useNavigate } from 'react-router';
import { AuthProvider } from '../lib/auth/auth-context.tsx';
import { BrandingContext } from '../lib/branding.tsx';
import { brandingFor, type UiVariant } from '../lib/branding-variants.ts';
import { initI18n } from '../lib/i18n.ts';
import { endPrePaint, prePaintPath } from '../lib/pre-paint.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { RealtimeProvider } from '../lib/realtime/realtime-provider.tsx';
import { createAppTheme } from '../lib/theme.ts';
import { AppRoutes } from './router.tsx';

export type { UiVariant } from '../lib/branding-variants.ts';

/**
 * The application: branding and theme (UI variant, spec §9), translations, queries, auth,
 * realtime (inside auth: it follows the user's `sub`), and the hash router (spec §2).
 */
export function App({ ui = 'acn' }: { ui?: UiVariant }) {
  const branding = brandingFor(ui);
  const theme = useMemo(() => createAppTheme(branding), [branding]);
  const i18n = useMemo(() => initI18n(), []);
  const queryClient = useMemo(() => createQueryClient(), []);
  // The product's name as the title of a page that sets none — not over a page's own title: a
  // parent's effect runs after its children's, and a page mounting with the app (no wait for the
  // session since issue 28) had its title replaced by the bare name.
  useEffect(() => {
    if (!document.title.endsWith(branding.productName)) document.title = branding.productName;
  }, [branding]);
  return (
    <BrandingContext.Provider value={branding}>
      <I18nextProvider i18n={i18n}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <QueryClientProvider client={queryClient}>
            <HashRouter>
              <HashCatchUp />
              <RoutedApp />
            </HashRouter>
          </QueryClientProvider>
        </ThemeProvider>
      </I18nextProvider>
    </BrandingContext.Provider>
  );
}

/**
 * The first render is a transition (main.tsx: rendered in slices): `HashRouter` reads the hash when
 * it starts rendering but listens only once it commits, so a hash changed in between (a link
 * followed or an address typed while the app starts) was missed and the page stayed on the first
 * route. Once mounted (a passive effect: the router listens by then), a hash that differs from the
 * router's location is taken over.
 */
function HashCatchUp() {
  const location = useLocation();
  const navigate = useNavigate();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at mount
  useEffect(() => {
    const current = window.location.hash.replace(/^#/, '').split('#')[0] || '/';
    if (current !== `${location.pathname}${location.search}`) navigate(current, { replace: true });
  }, []);
  // The boot script's picture of the first page (lib/pre-paint.ts) is not the next page's — nor
  // the page's the app opens on when the reader moved on before it started.
  const first = useRef(prePaintPath() ?? location.pathname);
  useEffect(() => {
    if (location.pathname !== first.current) endPrePaint();
  }, [location.pathname]);
  return null;
}

/** Auth (spec §4: sign-out goes to `/`), realtime (it follows the user's `sub`) and the routes. */
function RoutedApp() {
  const navigate = useNavigate();
  return (
    <AuthProvider onSignedOut={() => navigate('/')}>
      <RealtimeProvider>
        <AppRoutes />
      </RealtimeProvider>
    </AuthProvider>
  );
}
