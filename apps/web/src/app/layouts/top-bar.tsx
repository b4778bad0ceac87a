import { AppBar, Box, Link, Toolbar, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { useBranding } from '../../lib/branding.tsx';
import { LanguageSelector } from './header-controls.tsx';

/**
 * The compact top bar of the generic layout (branding linking home, language): also on the
 * tracking pages of the blank layout, so a spectator always has a way home (issue 19); there
 * `testId` tells the bar apart from the layout's own.
 */
export function TopBar({ testId = 'app-title' }: { testId?: string }) {
  const { productName, logo } = useBranding();
  return (
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
          <Typography component="span" sx={{ fontWeight: 700 }} data-testid={testId}>
            {productName}
          </Typography>
        </Link>
        <LanguageSelector />
      </Toolbar>
    </AppBar>
  );
}
