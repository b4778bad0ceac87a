import { createTheme, getContrastRatio, type Theme } from '@mui/material';
import type { Branding } from './branding-variants.ts';
import { FONT_FAMILY } from './font.ts';

/** Text on the brand colour: white when it reaches WCAG AA (4.5:1), else a near-black. */
export function textOn(colour: string): string {
  return getContrastRatio('#fff', colour) >= 4.5 ? '#fff' : '#0a1f2b';
}

/**
 * The light theme (spec §9: primary #39aade for `acn`; the `cr` variant has its own accent). The
 * brand colour stays the primary; text on it is dark where white would fail WCAG AA, and text
 * in the primary colour on white uses its darker tone (issue 19: 0 serious axe violations).
 */
export function createAppTheme(branding: Branding): Theme {
  const dark = branding.primaryText;
  // Only text in the primary colour on white takes the darker tone: a filled chip or a contained
  // button has the brand colour behind it and keeps contrastText (issue 27: the "On course" chip
  // was #0b6a9a on #39aade, 2.3:1).
  const onDarkText = (ownerState: { color?: unknown; variant?: unknown }) =>
    ownerState.color === 'primary' && ownerState.variant !== 'contained' && ownerState.variant !== 'filled'
      ? { color: dark, borderColor: ownerState.variant === 'outlined' ? dark : undefined }
      : {};
  return createTheme({
    palette: {
      mode: 'light',
      primary: { main: branding.primary, dark, contrastText: textOn(branding.primary) },
      secondary: { main: '#1f3a5f' },
      background: { default: '#f6f8fa' },
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: FONT_FAMILY,
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiLink: { defaultProps: { color: 'primary.dark' } },
      MuiAppBar: { styleOverrides: { root: { backgroundImage: 'none' } } },
      MuiButton: { styleOverrides: { root: ({ ownerState }) => onDarkText(ownerState) } },
      MuiChip: { styleOverrides: { root: ({ ownerState }) => onDarkText(ownerState) } },
    },
  });
}
