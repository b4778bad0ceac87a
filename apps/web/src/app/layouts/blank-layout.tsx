import { Box } from '@mui/material';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../../components/page-loading.tsx';

/** The blank layout (spec §2): no chrome. */
export function BlankLayout() {
  return (
    <Box component="main" id="main" sx={{ minHeight: '100vh' }}>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </Box>
  );
}
