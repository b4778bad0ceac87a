import { Box, type SxProps, TextField, type TextFieldProps, type Theme } from '@mui/material';
import { type ReactNode, useState } from 'react';

let nextUid = 0;

/** A row being edited, with a stable React key (rows move, are inserted and removed). */
export type Keyed<R> = R & { uid: number };

const keyed = <R,>(row: R): Keyed<R> => ({ ...row, uid: ++nextUid });

/**
 * The rows of a list editor (timing points, categories): replace them all, patch one, insert,
 * remove, move one up or down.
 */
export function useEditableRows<R extends object>(initial: () => R[]) {
  const [rows, setRows] = useState<Keyed<R>[]>(() => initial().map(keyed));
  return {
    rows,
    replace: (next: R[]) => setRows(next.map(keyed)),
    patch: (k: number, patch: Partial<R>) =>
      setRows((rs) => rs.map((r, j) => (j === k ? { ...r, ...patch } : r))),
    /** Inserts a row where `at` says (from the current rows), at the end by default. */
    insert: (row: R, at?: (rows: readonly Keyed<R>[]) => number) =>
      setRows((rs) => {
        const k = at ? at(rs) : rs.length;
        return [...rs.slice(0, k), keyed(row), ...rs.slice(k)];
      }),
    remove: (k: number) => setRows((rs) => rs.filter((_, j) => j !== k)),
    move: (k: number, by: number) =>
      setRows((rs) => {
        const next = rs.slice();
        const [row] = next.splice(k, 1);
        next.splice(k + by, 0, row!);
        return next;
      }),
  };
}

/**
 * One row of a list editor: a list item laid out as a grid whose areas name the fields
 * (`columns`/`areas` per breakpoint: the phone layout wraps to two or three lines).
 */
export function EditorRow({
  columns,
  areas,
  sx,
  children,
  ...rest
}: {
  columns: Record<string, string>;
  areas: Record<string, string>;
  sx?: SxProps<Theme>;
  children: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <Box
      component="li"
      sx={[
        {
          display: 'grid',
          gap: 1,
          alignItems: 'start',
          gridTemplateColumns: columns,
          gridTemplateAreas: areas,
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
      {...rest}
    >
      {children}
    </Box>
  );
}

/** A small text field of an editor row placed in its grid area, with the server's error for it. */
export function RowField({
  area,
  error,
  onValue,
  ...props
}: Omit<TextFieldProps, 'error' | 'onChange'> & {
  area: string;
  error: string | undefined;
  onValue: (value: string) => void;
}) {
  return (
    <TextField
      size="small"
      onChange={(e) => onValue(e.target.value)}
      error={!!error}
      helperText={error}
      sx={{ gridArea: area }}
      {...props}
    />
  );
}
