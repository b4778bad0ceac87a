import { mdiMenu } from '@mdi/js';
import { AppBar, Box, IconButton, Link, Toolbar, Typography } from '@mui/material';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { MdiIcon } from '../../components/mdi-icon.tsx';
import { useBranding } from '../../lib/branding.tsx';
import { LanguageSelector } from './header-controls.tsx';

/** The side menu, loaded once opened (issue 19 budget), as the default layout's on a phone. */
const NavDrawer = lazy(() => import('./nav-drawer.tsx').then((m) => ({ default: m.NavDrawer })));

/**
 * The compact top bar of the generic layout (branding linking home, language): also on the
 * tracking pages of the blank layout, so a spectator always has a way home (issue 19); there
 * `testId` tells the bar apart from the layout's own. `menu`: a menu button opening the side
 * navigation as a temporary drawer (issue 27: `/genericTracking` opened from an event's card kept
 * none of its navigation).
 */
export function TopBar({ testId = 'app-title', menu = false }: { testId?: string; menu?: boolean }) {
  const { t } = useTranslation();
  const { productName, logo } = useBranding();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const { pathname } = useLocation();
  // Closes on navigation (spec §2, as the default layout's temporary drawer).
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on every location change is the point.
  useEffect(() => setOpen(false), [pathname]);
  return (
    <AppBar position="sticky" elevation={0} color="primary">
      <Toolbar variant="dense" sx={{ gap: 1 }}>
        {menu && (
          <IconButton
            color="inherit"
            edge="start"
            onClick={() => {
              setWanted(true);
              setOpen(true);
            }}
            aria-label={t('nav.open')}
            data-testid="top-bar-menu"
          >
            <MdiIcon path={mdiMenu} />
          </IconButton>
        )}
        <Link
          component={RouterLink}
          to="/"
          color="inherit"
          underline="none"
          sx={{ flexGrow: 1, display: 'inline-flex', alignItems: 'center', gap: 1 }}
        >
          <Box
            component="img"
            src={logo}
            alt=""
            sx={{ width: 24, height: 24, bgcolor: '#fff', borderRadius: '50%' }}
          />
          <Typography component="span" sx={{ fontWeight: 700 }} data-testid={testId}>
            {productName}
          </Typography>
        </Link>
        <LanguageSelector />
      </Toolbar>
      {wanted && (
        <Suspense fallback={null}>
          <NavDrawer
            variant="temporary"
            open={open}
            expanded
            pinned={false}
            onClose={() => setOpen(false)}
            onTogglePin={() => undefined}
            onHover={() => undefined}
          />
        </Suspense>
      )}
    </AppBar>
  );
}
