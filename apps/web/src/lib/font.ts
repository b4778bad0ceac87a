/**
 * The page's font list (the theme's typography; the pre-paints' CSS writes it too). Report columns
 * are measured in it (features/results/components/column-widths.ts).
 */
export const FONT_FAMILY =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
