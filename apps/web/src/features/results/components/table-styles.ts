import type { SxProps, Theme } from '@mui/material';

/** Row height (px): one line of text, a 20 px flag and a star fit. */
export const ROW_HEIGHT = 36;

/**
 * Styles of the report table, as one style sheet on its scroll container: rows and cells are plain
 * elements with class names, so scrolling 26,000 rows never computes per-cell styles.
 */
export const tableSx: SxProps<Theme> = {
  minHeight: 300,
  overflow: 'auto',
  overscrollBehavior: 'contain',
  border: 1,
  borderColor: 'divider',
  borderRadius: 1,
  bgcolor: 'background.paper',
  fontSize: 14,
  '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
  '& .rt-head': {
    position: 'sticky',
    top: 0,
    zIndex: 2,
    display: 'grid',
    alignItems: 'center',
    height: ROW_HEIGHT,
    bgcolor: '#e3f2fa',
    borderBottom: 1,
    borderColor: 'divider',
    fontSize: 13,
    fontWeight: 700,
  },
  '& .rt-body': { position: 'relative' },
  '& .rt-row': {
    position: 'absolute',
    top: 0,
    left: 0,
    width: '100%',
    height: ROW_HEIGHT,
    display: 'grid',
    alignItems: 'center',
    borderBottom: '1px solid',
    borderColor: 'divider',
    bgcolor: '#ffffff',
    transition: 'background-color 600ms ease-out',
  },
  '& .rt-row.rt-odd': { bgcolor: '#f7f9fa' },
  '& .rt-row[data-changed]': { bgcolor: '#fff1b8', transition: 'none' },
  '& .rt-cell, & .rt-th': {
    px: 1,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    fontVariantNumeric: 'tabular-nums',
  },
  '& .rt-th': { px: 0.75 },
  '& .rt-cell[data-type=favorite], & .rt-th[data-type=favorite]': { px: 0, textAlign: 'center' },
  '& .rt-sticky': { position: 'sticky', zIndex: 1, bgcolor: 'inherit' },
  '& .rt-sticky-last': { boxShadow: 'inset -1px 0 0 rgba(0, 0, 0, 0.08)' },
  // Phones: only the name sticks (at the left edge), so the rest of the row has room to scroll.
  '@media (max-width: 599.95px)': {
    '& .rt-sticky:not(.rt-sticky-last)': { position: 'static' },
    '& .rt-sticky-last': { left: '0 !important' },
  },
  '& .rt-link': {
    color: '#0b5d87',
    textDecoration: 'none',
    '&:hover, &:focus-visible': { textDecoration: 'underline' },
  },
  '& .rt-star': {
    display: 'inline-flex',
    p: 0.5,
    border: 0,
    borderRadius: '50%',
    bgcolor: 'transparent',
    color: 'text.secondary',
    cursor: 'pointer',
    fill: 'currentColor',
    verticalAlign: 'middle',
    '&[aria-pressed=true]': { color: '#a86b00' },
    '&:hover': { bgcolor: 'action.hover' },
    '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
  },
  '& .rt-flag': {
    display: 'inline-block',
    lineHeight: '18px',
    fontSize: 11,
    fontWeight: 600,
    px: 0.5,
    border: 1,
    borderColor: 'divider',
    borderRadius: 0.5,
    textDecoration: 'none',
    color: 'text.secondary',
  },
  '& .rt-hidden': {
    position: 'absolute',
    width: 1,
    height: 1,
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
};
