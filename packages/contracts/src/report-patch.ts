import { compareBibs } from '@tempora/domain';
import type { ReportPatch, ReportTable, RowShift } from './results.ts';

/**
 * Applying a live report patch (issue 6, issue 20), one function for both sides: the web client
 * folds patches into its table, the server's tests check that a patch brings a table exactly to
 * what a reload would give.
 */

/** The contract's row order: numeric row[orderField], ties by key (the bib, in numeric order). */
export function compareRows(keyField: number, orderField: number) {
  return (a: unknown[], b: unknown[]): number =>
    Number(a[orderField]) - Number(b[orderField]) || compareBibs(String(a[keyField]), String(b[keyField]));
}

const DIGITS = /^-?\d+$/;

/** `value + delta`, a string of digits staying one; undefined when the value is not a number. */
export function shifted(value: unknown, delta: number): unknown {
  if (typeof value === 'number') return value + delta;
  if (typeof value === 'string' && DIGITS.test(value)) return String(Number(value) + delta);
  return undefined;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_INDEX = new Map([...BASE64].map((c, i) => [c, i]));

/**
 * Bits `0 … count - 1` as base64, six bits a character, least significant first (bit k is bit
 * k % 6 of character k / 6; no padding). Written here rather than with `btoa`, which this
 * package's platform-free typings do not declare.
 */
export function encodeMask(bits: readonly number[], count: number): string {
  const sextets = new Uint8Array(Math.ceil(count / 6));
  for (const k of bits) sextets[(k / 6) | 0]! |= 1 << (k % 6);
  let out = '';
  for (const v of sextets) out += BASE64[v];
  return out;
}

/** Whether bit k is set in a mask (see `encodeMask`). */
function maskHas(mask: string, k: number): boolean {
  return (((BASE64_INDEX.get(mask[(k / 6) | 0] ?? 'A') ?? 0) >> (k % 6)) & 1) === 1;
}

/**
 * The rows with the shifts applied (the input is never mutated: a changed row is a copy), or null
 * when a shift does not fit the rows (out of range, not a number): the client then refetches.
 */
export function applyRowShifts(rows: readonly unknown[][], shifts: readonly RowShift[]): unknown[][] | null {
  const out = rows.slice();
  const copied = new Uint8Array(rows.length);
  for (const [field, delta, start, count, mask] of shifts) {
    if (start < 0 || count < 0 || start + count > rows.length) return null;
    for (let k = 0; k < count; k++) {
      if (mask !== undefined && !maskHas(mask, k)) continue;
      const i = start + k;
      if (!copied[i]) {
        out[i] = out[i]!.slice();
        copied[i] = 1;
      }
      const value = shifted(out[i]![field], delta);
      if (value === undefined) return null;
      out[i]![field] = value;
    }
  }
  return out;
}

/**
 * Applies a live row patch to a report table: shifts, then edits, removals and upserts (edited and
 * upserted rows placed by their order). Returns the new table, or null when the client must
 * refetch: a reload request, a version gap (the patch does not start from ours), or shifts or
 * edits that do not fit. The input is never mutated (it is the TanStack Query cache's object).
 */
export function applyReportPatch(table: ReportTable, patch: ReportPatch): ReportTable | null {
  if ('reload' in patch) return null;
  if (patch.fromVersion !== table.version) return null;
  const { keyField, orderField } = table;
  if (patch.shifts?.some(([field]) => field === keyField || field === orderField)) return null;
  const base = patch.shifts?.length ? applyRowShifts(table.rows, patch.shifts) : table.rows;
  if (!base) return null;
  const gone = new Set(patch.removes);
  const upserts = new Map<string, unknown[]>();
  if (patch.edits?.length) {
    const byKey = new Map(base.map((row) => [String(row[keyField]), row]));
    for (const [key, ...fields] of patch.edits) {
      const row = byKey.get(String(key))?.slice();
      if (!row || fields.length % 2) return null;
      for (let k = 0; k < fields.length; k += 2) {
        const field = fields[k];
        if (typeof field !== 'number' || field === keyField) return null;
        row[field] = fields[k + 1];
      }
      upserts.set(String(key), row);
    }
  }
  for (const row of patch.upserts) upserts.set(String(row[keyField]), row);
  const rows = base.filter((row) => {
    const key = String(row[keyField]);
    return !gone.has(key) && !upserts.has(key);
  });
  // The kept rows are sorted (shifts never touch the order field): the upserts go in by binary
  // search rather than a full sort.
  const compare = compareRows(keyField, orderField);
  for (const row of [...upserts.values()].sort(compare)) {
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(rows[mid]!, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    rows.splice(lo, 0, row);
  }
  const delta = rows.length - table.rows.length;
  return { ...table, rows, total: Math.max(0, table.total + delta), version: patch.version };
}

/**
 * A table with rows `offset` … `offset + rows.length − 1` replaced by `rows` (a window as a patch
 * or a request brought it): copies of those rows elsewhere go, the rows that left the window stay
 * where it was (outside the live windows rows are not kept live: a client scrolling there
 * subscribes to that window and fetches it), and the window stays at `offset`. The total moves
 * with the rows' count. Never mutates the input.
 */
export function mergeWindow(
  table: ReportTable,
  offset: number,
  size: number,
  rows: unknown[][],
): ReportTable {
  const { keyField } = table;
  const inWindow = new Set(rows.map((row) => String(row[keyField])));
  const keep = (row: unknown[]) => !inWindow.has(String(row[keyField]));
  const end = Math.min(table.rows.length, offset + size);
  const above = table.rows.slice(0, Math.min(offset, table.rows.length)).filter(keep);
  const left = table.rows.slice(Math.min(offset, table.rows.length), end).filter(keep);
  const below = table.rows.slice(end).filter(keep);
  const others = above.concat(left, below);
  const at = Math.min(offset, others.length);
  const merged = others.slice(0, at).concat(rows, others.slice(at));
  const total = Math.max(0, table.total + merged.length - table.rows.length);
  return { ...table, rows: merged, total };
}

/**
 * Applies a window patch (`window` rows from `offset`, rank window k = offset / window) to a
 * table: the patch is the change of the window between two publications that changed it, so it
 * applies to a window held at any version from its `fromVersion` (the window's last change) up to
 * before its `version`. `held` is the version the table holds that window at (default: the
 * table's); rows outside the window stay as they were (see `mergeWindow`). Null when the client
 * must refetch the window; the table unchanged when it already has the patch. The result's version
 * is the highest the table has seen.
 */
export function applyWindowPatch(
  table: ReportTable,
  patch: ReportPatch,
  held: number = table.version,
): ReportTable | null {
  if ('reload' in patch || patch.window === undefined) return applyReportPatch(table, patch);
  if (held >= patch.version) return table;
  if (held < patch.fromVersion) return null;
  const size = patch.window;
  const offset = patch.offset ?? 0;
  const head = applyReportPatch(
    { ...table, rows: table.rows.slice(offset, offset + size), version: patch.fromVersion },
    patch,
  );
  if (!head) return null;
  const next = mergeWindow(table, offset, size, head.rows);
  return { ...next, version: Math.max(table.version, patch.version) };
}
