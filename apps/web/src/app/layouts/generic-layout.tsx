import { AppBar, Box, Link, Toolbar, Typography } from '@mui/material';
import { Suspense } from 'react';
import { Outlet, Link as RouterLink } from 'react-router';
import { PageLoading } from '../../components/page-loading.tsx';
import { useBranding } from '../../lib/branding.tsx';
import { ConnectionBanner } from '../../lib/realtime/connection-banner.tsx';
import { LanguageSelector } from './header-controls.tsx';

/**
 * The generic layout (spec §2: tracking and photo-box pages, often opened from an event's own
 * site or a QR code): a compact header with the branding, no drawer, the content at full width.
 */
export function GenericLayout() {
  const { productName, logo } = useBranding();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppBar position="sticky" elevation={0} color="primary">
        <Toolbar variant="dense" sx={{ gap: 1 }}>
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
            <Typography component="span" sx={{ fontWeight: 700 }} data-testid="app-title">
              {productName}
            </Typography>
          </Link>
          <LanguageSelector />
        </Toolbar>
      </AppBar>
      <ConnectionBanner />
      <Box
        component="main"
        id="main"
        sx={{ flexGrow: 1, p: { xs: 1.5, sm: 2 }, maxWidth: 1200, width: '100%', mx: 'auto' }}
      >
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
