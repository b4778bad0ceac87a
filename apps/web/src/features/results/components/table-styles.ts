import type { SxProps, Theme } from '@mui/material';

/** Row height (px): one line of text, a 20 px flag and a star fit. */
export const ROW_HEIGHT = 36;
/**
 * Row height of compact (phone) rows: the name over a small line with bib and category — 44 px, a
 * touch target's minimum (issue 41: ten rows on a phone's first screen; a name on two lines grows
 * its row).
 */
export const COMPACT_ROW_HEIGHT = 44;

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
  // Sticky is kept within the parent: the header's row group sticks, not only its row (issue 27:
  // a table scrolled to rank 20,000 still names its columns).
  '& .rt-headgroup': { position: 'sticky', top: 0, zIndex: 2 },
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
    minHeight: ROW_HEIGHT,
    display: 'grid',
    gridAutoRows: 'auto',
    alignItems: 'center',
    borderBottom: '1px solid',
    borderColor: 'divider',
    bgcolor: '#ffffff',
    transition: 'background-color 600ms ease-out',
  },
  '& .rt-row.rt-odd': { bgcolor: '#f7f9fa' },
  '& .rt-row[data-changed]': { bgcolor: '#fff1b8', transition: 'none' },
  // The row a jump brought (issue 27): an outline that keeps the row's text contrast.
  '& .rt-row[data-target]': { boxShadow: 'inset 0 0 0 2px #0b6fa4', bgcolor: '#e8f4fb' },
  '& .rt-cell, & .rt-th': {
    px: 1,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    fontVariantNumeric: 'tabular-nums',
  },
  '& .rt-th': { px: 0.75 },
  '& .rt-cell[data-type=favorite], & .rt-th[data-type=favorite]': { px: 0, textAlign: 'center' },
  '&[data-compact] .rt-row': { minHeight: COMPACT_ROW_HEIGHT },
  // Phones: the name may take two lines; bib and category sit small beneath it.
  '&[data-compact] .rt-two': { whiteSpace: 'normal', lineHeight: 1.2, py: 0.25 },
  '& .rt-beneath': {
    display: 'block',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    fontSize: 12,
    fontWeight: 400,
    color: '#555f66',
    whiteSpace: 'nowrap',
  },
  // A running time's point (issue 27): ` · 30 km` beside it, beneath it on a phone; the time of
  // a runner still on course is italic, apart from the finishers'.
  '& .rt-at': { fontSize: 12, fontWeight: 400, color: '#555f66' },
  '& .rt-at::before': { content: '" · "' },
  '& .rt-cell:has(> .rt-at)': { fontStyle: 'italic' },
  '&[data-compact] .rt-at': { display: 'block', lineHeight: 1.1, fontStyle: 'normal' },
  '&[data-compact] .rt-at::before': { content: 'none' },
  '& .rt-toggle': { px: 0, alignItems: 'center' },
  '& .rt-more': {
    display: 'inline-flex',
    p: 0.5,
    border: 0,
    borderRadius: '50%',
    bgcolor: 'transparent',
    color: 'text.secondary',
    cursor: 'pointer',
    fill: 'currentColor',
    transition: 'transform 150ms',
    '&[aria-expanded=true]': { transform: 'rotate(180deg)' },
    '&:hover': { bgcolor: 'action.hover' },
    '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.dark' },
  },
  '& .rt-details': {
    gridColumn: '1 / -1',
    px: 1.5,
    pb: 1,
    whiteSpace: 'normal',
    '& dl': {
      m: 0,
      display: 'grid',
      gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
      gap: '4px 16px',
    },
    '& dl > div': { display: 'flex', justifyContent: 'space-between', gap: 1, minWidth: 0 },
    '& dt': { color: '#555f66', fontSize: 13 },
    '& dd': { m: 0, fontWeight: 600, textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
  },
  '& .rt-link': {
    color: '#0b5d87',
    overflowWrap: 'anywhere',
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

/** The table's frame: its "back to top" button floats at the top right, under the header (issue 27). */
export const topButtonSx: SxProps<Theme> = {
  position: 'relative',
  '& .rt-top': {
    position: 'absolute',
    right: 16,
    // Under the sticky header: on a phone the table's bottom is often below the screen.
    top: ROW_HEIGHT + 8,
    zIndex: 3,
    display: 'flex',
    alignItems: 'center',
    gap: 0.5,
    minHeight: 40,
    px: 1.5,
    border: 0,
    borderRadius: 20,
    bgcolor: 'primary.main',
    color: 'primary.contrastText',
    font: 'inherit',
    fontSize: 14,
    fontWeight: 600,
    boxShadow: 3,
    cursor: 'pointer',
  },
  '& .rt-top:focus-visible': { outline: '3px solid', outlineColor: 'secondary.main', outlineOffset: 2 },
};
