import { createTheme, type Theme } from '@mui/material';
import type { Branding } from '../config/branding.ts';

/** The light theme (spec §9: primary #39aade for `acn`; the `cr` variant has its own accent). */
export function createAppTheme(branding: Branding): Theme {
  return createTheme({
    palette: {
      mode: 'light',
      primary: { main: branding.primary, dark: branding.primaryText, contrastText: '#fff' },
      secondary: { main: '#1f3a5f' },
      background: { default: '#f6f8fa' },
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiLink: { defaultProps: { color: 'primary.dark' } },
      MuiAppBar: { styleOverrides: { root: { backgroundImage: 'none' } } },
    },
  });
}
