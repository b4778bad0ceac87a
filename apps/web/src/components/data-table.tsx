import {
  type SxProps,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  type Theme,
  Typography,
} from '@mui/material';
import { type ReactNode, useLayoutEffect, useState } from 'react';

/** One column of a `DataTable`. */
export interface DataTableColumn<Row> {
  /** Unique among the columns (React's key). */
  key: string;
  header: ReactNode;
  cell(row: Row): ReactNode;
  align?: 'left' | 'center' | 'right';
  /** The column's width (header cell). */
  width?: number | string;
  /** Styles of the whole column, header included (`display` to leave it out on a phone). */
  sx?: SxProps<Theme>;
  /** Styles of this column's body cells, which the row's value may choose. */
  cellSx?(row: Row): SxProps<Theme>;
}

/** Attributes a row may carry (tests find rows by `data-testid`). */
export interface DataTableRowProps {
  'data-testid'?: string;
}

/** An `sx` as entries of an `sx` array, which MUI merges in order (skipping `false`). */
const styles = (sx: SxProps<Theme> | undefined) => (Array.isArray(sx) ? sx : [sx]);

/**
 * Whether the element scrolls sideways now (its content wider than itself), followed as it and
 * its table resize.
 */
function useScrollsSideways(element: HTMLElement | null): boolean {
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [element]);
  return scrolls;
}

/**
 * The one read-only table of the web (issue "one way for each thing"): typed columns, a row key,
 * an accessible name, a text instead of an empty table, and a sideways scroll on a phone rather
 * than squeezed columns. Sorting, selection, editing and virtual scrolling live in the features'
 * grids (participants, confirmation rows, the results report), not here.
 */
export function DataTable<Row>({
  columns,
  rows,
  getRowKey,
  label,
  caption,
  empty,
  hover = false,
  size = 'small',
  getRowProps,
}: {
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  getRowKey(row: Row): string | number;
  /** The table's accessible name. */
  label: string;
  /** A visible caption under the table. */
  caption?: ReactNode;
  /** Shown instead of an empty table: a text (in secondary colour) or any node as given. */
  empty?: ReactNode;
  /** Rows light up under the pointer (rows holding a link). */
  hover?: boolean;
  size?: 'small' | 'medium';
  getRowProps?(row: Row): DataTableRowProps;
}) {
  // A state, not a ref: the container mounts later when the rows come after an empty list.
  const [container, setContainer] = useState<HTMLDivElement | null>(null);
  const scrolls = useScrollsSideways(container);
  if (!rows.length && empty !== undefined)
    return typeof empty === 'string' ? (
      <Typography color="text.secondary" sx={{ py: 1 }}>
        {empty}
      </Typography>
    ) : (
      empty
    );
  return (
    // While it scrolls sideways it is a named, focusable region, so a keyboard can scroll it
    // (WCAG 2.1.1; axe scrollable-region-focusable); otherwise no extra tab stop.
    <TableContainer
      ref={setContainer}
      sx={{ overflowX: 'auto' }}
      {...(scrolls && { tabIndex: 0, role: 'region', 'aria-label': label })}
    >
      <Table size={size} aria-label={label}>
        {caption && <caption>{caption}</caption>}
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell
                key={c.key}
                align={c.align}
                sx={[c.width !== undefined && { width: c.width }, ...styles(c.sx)]}
              >
                {c.header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={getRowKey(row)} hover={hover} {...getRowProps?.(row)}>
              {columns.map((c) => (
                <TableCell key={c.key} align={c.align} sx={[...styles(c.sx), ...styles(c.cellSx?.(row))]}>
                  {c.cell(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
