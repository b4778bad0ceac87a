import { mdiMenu } from '@mdi/js';
import { AppBar, Box, IconButton, Toolbar, Typography, useMediaQuery, useTheme } from '@mui/material';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatch } from 'react-router';
import { ConnectionBanner } from '../../components/connection-banner.tsx';
import { MdiIcon } from '../../components/mdi-icon.tsx';
import { PageLoading } from '../../components/page-loading.tsx';
import { UpdateBannerSlot } from '../../components/update-banner-slot.tsx';
import { useBranding } from '../../lib/branding.tsx';
import { LanguageSelector, UserMenu } from './header-controls.tsx';

/**
 * The drawer loads beside the page, not before it (issue 19 budget): on a phone only once opened;
 * on a wide screen its rail's width is held meanwhile.
 */
const NavDrawer = lazy(() => import('./nav-drawer.tsx').then((m) => ({ default: m.NavDrawer })));
const RAIL = 56; // spec §9; nav-drawer.tsx's RAIL_WIDTH
/** A draft's preview banner (issue 29) loads on an event's pages only, beside the page. */
const DraftPreviewBanner = lazy(() =>
  import('../../features/content/components/draft-preview-banner.tsx').then((m) => ({
    default: m.DraftPreviewBanner,
  })),
);

const PIN_KEY = 'drawerPinned';

/** The default layout (spec §2): side navigation drawer and a top bar with language and user menu. */
export function DefaultLayout() {
  const { t } = useTranslation();
  const { productName } = useBranding();
  const theme = useTheme();
  const small = useMediaQuery(theme.breakpoints.down('md'));
  const location = useLocation();
  const eventMatch = useMatch('/events/:eventId/*');
  const resultsMatch = useMatch('/results/:eventId/*');
  const onEventPage = Boolean(eventMatch || resultsMatch);
  const [open, setOpen] = useState(false);
  const [hover, setHover] = useState(false);
  const [pinned, setPinned] = useState(() => localStorage.getItem(PIN_KEY) === 'true');
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (open) setWanted(true);
  }, [open]);

  // Spec §2: on small screens the drawer is temporary and closes on navigation.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on every location change is the point.
  useEffect(() => setOpen(false), [location.pathname]);

  const togglePin = () => {
    localStorage.setItem(PIN_KEY, String(!pinned));
    setPinned(!pinned);
  };

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      {(!small || wanted || open) && (
        <Suspense fallback={small ? null : <Box sx={{ width: RAIL, flexShrink: 0 }} />}>
          <NavDrawer
            variant={small ? 'temporary' : 'permanent'}
            open={open}
            expanded={pinned || hover}
            pinned={pinned}
            onClose={() => setOpen(false)}
            onTogglePin={togglePin}
            onHover={setHover}
          />
        </Suspense>
      )}
      <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <AppBar position="sticky" elevation={1}>
          <Toolbar sx={{ gap: 1 }}>
            {small && (
              <IconButton
                color="inherit"
                edge="start"
                onClick={() => setOpen(true)}
                aria-label={t('nav.open')}
              >
                <MdiIcon path={mdiMenu} />
              </IconButton>
            )}
            <Typography
              variant="h6"
              component="span"
              sx={{ fontWeight: 700, flexGrow: 1 }}
              data-testid="app-title"
            >
              {productName}
            </Typography>
            <LanguageSelector />
            <UserMenu />
          </Toolbar>
        </AppBar>
        <ConnectionBanner />
        {onEventPage && (
          <Suspense fallback={null}>
            <DraftPreviewBanner />
          </Suspense>
        )}
        <UpdateBannerSlot />
        <Box component="main" id="main" sx={{ flexGrow: 1, p: { xs: 1.5, sm: 3 }, minWidth: 0 }}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
