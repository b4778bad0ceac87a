import { encodeMask, type RowShift, shifted } from '@tempora/contracts';

/**
 * Compact report patches (issue 20). A passing that reorders a ranking moves the ranks (overall,
 * gender, category) and the gaps of every row behind it, each by the same amount: as full rows
 * that is a patch of hundreds of kilobytes, which went out as a reload and made every open table
 * fetch the whole report again. Here the change from one table to the next is found by comparing
 * them, and said as row shifts (`RowShift`: a field, a delta, a run of rows, a bit mask), edits
 * of the rows whose other data changed (a runner who passed a point: the dozen fields that
 * moved) and full rows only for new rows or when an edit would be longer.
 */

/** A gap in a shift's run longer than this many rows starts a new shift (a header costs less). */
const SPLIT_GAP = 96;

export interface RowsDiff {
  upserts: unknown[][];
  removes: string[];
  shifts: RowShift[];
  /** `[key, field, value, …]`: rows of which a few fields changed (see `ReportPatch.edits`). */
  edits: unknown[][];
}

/** `after − before` when `before` shifted by it gives exactly `after`; else undefined. */
function deltaOf(before: unknown, after: unknown): number | undefined {
  let delta: number;
  if (typeof before === 'number' && typeof after === 'number') delta = after - before;
  else if (typeof before === 'string' && typeof after === 'string') delta = Number(after) - Number(before);
  else return undefined;
  return Number.isFinite(delta) && shifted(before, delta) === after ? delta : undefined;
}

/**
 * The patch body that turns `before` into `after` (both sorted by the contract's order, rows
 * keyed by `keyField`). Applied with `applyReportPatch`, it gives `after` exactly: every shift
 * is checked to reproduce the new value, and a row whose order or other fields changed is sent
 * whole.
 */
export function diffRows(
  before: readonly unknown[][],
  after: readonly unknown[][],
  keyField = 0,
  orderField = 1,
): RowsDiff {
  const next = new Map<string, unknown[]>();
  for (const row of after) next.set(String(row[keyField]), row);
  const kept = new Set<string>();
  const upserts: unknown[][] = [];
  const edits: unknown[][] = [];
  const removes: string[] = [];
  // (field, delta) → indices in `before`, ascending.
  const runs = new Map<string, { field: number; delta: number; rows: number[] }>();
  const changes: [number, number][] = [];
  for (let j = 0; j < before.length; j++) {
    const old = before[j]!;
    const key = String(old[keyField]);
    const now = next.get(key);
    if (!now) {
      removes.push(key);
      continue;
    }
    kept.add(key);
    if (now === old) continue;
    changes.length = 0;
    let whole = now.length !== old.length;
    for (let f = 0; !whole && f < now.length; f++) {
      const a = old[f];
      const b = now[f];
      if (a === b || (Number.isNaN(a) && Number.isNaN(b))) continue;
      const delta = f === keyField || f === orderField ? undefined : deltaOf(a, b);
      if (delta === undefined) whole = true;
      else changes.push([f, delta]);
    }
    if (whole) {
      // The changed fields alone when they are shorter than the row (a runner at a new point).
      const edit: unknown[] = [now[keyField]];
      for (let f = 0; f < now.length; f++) {
        const a = old[f];
        const b = now[f];
        if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) edit.push(f, b);
      }
      if (now.length === old.length && JSON.stringify(edit).length < JSON.stringify(now).length)
        edits.push(edit);
      else upserts.push(now);
      continue;
    }
    for (const [field, delta] of changes) {
      const id = `${field}:${delta}`;
      let run = runs.get(id);
      if (!run) {
        run = { field, delta, rows: [] };
        runs.set(id, run);
      }
      run.rows.push(j);
    }
  }
  for (const row of after) if (!kept.has(String(row[keyField]))) upserts.push(row);
  const shifts: RowShift[] = [];
  for (const { field, delta, rows } of runs.values()) {
    let first = 0;
    for (let k = 1; k <= rows.length; k++) {
      if (k < rows.length && rows[k]! - rows[k - 1]! <= SPLIT_GAP) continue;
      shifts.push(shiftOf(field, delta, rows.slice(first, k)));
      first = k;
    }
  }
  return { upserts, removes, shifts, edits };
}

function shiftOf(field: number, delta: number, rows: readonly number[]): RowShift {
  const start = rows[0]!;
  const count = rows[rows.length - 1]! - start + 1;
  if (count === rows.length) return [field, delta, start, count];
  return [
    field,
    delta,
    start,
    count,
    encodeMask(
      rows.map((i) => i - start),
      count,
    ),
  ];
}
