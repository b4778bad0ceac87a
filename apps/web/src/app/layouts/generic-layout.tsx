import { Box } from '@mui/material';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { ConnectionBanner } from '../../components/connection-banner.tsx';
import { PageLoading } from '../../components/page-loading.tsx';
import { UpdateBannerSlot } from '../../components/update-banner-slot.tsx';
import { TopBar } from './top-bar.tsx';

/**
 * The generic layout (spec §2: tracking and photo-box pages, often opened from an event's own
 * site or a QR code): a compact header with the branding, no drawer, the content at full width.
 */
export function GenericLayout() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <TopBar />
      <ConnectionBanner />
      <UpdateBannerSlot />
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
