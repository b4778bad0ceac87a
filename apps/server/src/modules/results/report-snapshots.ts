/**
 * Report snapshots (issue 27, first open after a restart). A finished event's state is built
 * from 264,000 passings and 26,000 runners (Boston 2017): after a restart the first reader of its
 * table waited 5–8 s for that load and the table build, and the build held `/api/health` for
 * 0.6–0.8 s. The tables of a finished context are therefore kept in the database once built, in
 * chunks of rows, and a node that has not loaded the context answers from them: the first page
 * reads and parses one chunk.
 *
 * A snapshot is named by its *stamp*: the context's `results_stamp`, which triggers bump in the
 * same transaction as any change to what results are built from (0043_report_snapshots.sql),
 * and its highest passing seq (passings only ever grow; a correction is a new passing). The
 * stamp is read before the state is loaded, so a change made while it loads leaves the snapshot
 * named after the older state — never served, as the current stamp has moved. Nodes need not
 * tell each other anything: a correction on any node changes the stamp every node reads.
 */
import type { ReportTable } from '@tempora/contracts';
import type { Database, Sql } from '../../db/database.ts';
import type { ContextState } from './context-state.ts';
import { reportId } from './context-state.ts';

/**
 * Bumped whenever report rows or columns are built differently (report-builder.ts): a snapshot
 * written by an older server is then not served. 2: names trimmed (the hidden runner, issue 40).
 */
export const SNAPSHOT_FORMAT = 2;
/** Rows per stored chunk: a first page reads one (1,000 Boston rows are about 270 KB of JSON). */
export const SNAPSHOT_CHUNK = 1_000;

/** What names the state a snapshot holds (see the module's comment). */
export interface Stamp {
  /** `{format}.{results_stamp}.{max seq}`. */
  key: string;
  /** The context's highest passing seq when the stamp was read. */
  seq: number;
}

/** The current stamp of a context, or null when it does not exist: one index lookup. */
export async function currentStamp(sql: Sql, db: string): Promise<Stamp | null> {
  const [row] = await sql.query<{ stamp: string; seq: number }>(
    `SELECT c.results_stamp::text AS stamp,
            (SELECT coalesce(max(p.seq), 0)::float8 FROM passings p WHERE p.db = c.db) AS seq
       FROM contexts c WHERE c.db = $1`,
    [db],
  );
  return row ? { key: `${SNAPSHOT_FORMAT}.${row.stamp}.${row.seq}`, seq: row.seq } : null;
}

/** A report table as a snapshot holds it: everything but the rows, which stay in the database. */
export interface SnapshotReport {
  head: Omit<ReportTable, 'rows' | 'total'>;
  total: number;
}

/** A context's snapshot, its reports by `reportId` (rows are read chunk by chunk). */
export interface Snapshot {
  db: string;
  stamp: string;
  reports: Map<string, SnapshotReport>;
}

/** The snapshot of `db` named `stamp`, or null when none is stored under that name. */
export async function openSnapshot(sql: Sql, db: string, stamp: string): Promise<Snapshot | null> {
  const rows = await sql.query<{ head: string; total: number }>(
    'SELECT head, total FROM report_snapshots WHERE db = $1 AND stamp = $2 AND chunk = 0',
    [db, stamp],
  );
  if (!rows.length) return null;
  const reports = new Map<string, SnapshotReport>();
  for (const row of rows) {
    const head = JSON.parse(row.head) as SnapshotReport['head'];
    reports.set(reportId(head.group, head.report), { head, total: row.total });
  }
  return { db, stamp, reports };
}

/**
 * Rows `from` to `to` (exclusive) of a snapshot's report, reading and parsing only the chunks
 * holding them, the event loop let in between two; null when a chunk is missing or was written
 * for another stamp meanwhile (the caller answers from the live state).
 */
export async function snapshotRows(
  sql: Sql,
  snapshot: Snapshot,
  report: SnapshotReport,
  from: number,
  to: number,
): Promise<unknown[][] | null> {
  const end = Math.min(to, report.total);
  if (end <= from) return [];
  const first = Math.floor(from / SNAPSHOT_CHUNK);
  const last = Math.floor((end - 1) / SNAPSHOT_CHUNK);
  const chunks = await sql.query<{ chunk: number; rows: string }>(
    `SELECT chunk, rows FROM report_snapshots
      WHERE db = $1 AND group_key = $2 AND report_key = $3 AND stamp = $4 AND chunk BETWEEN $5 AND $6
      ORDER BY chunk`,
    [snapshot.db, report.head.group, report.head.report, snapshot.stamp, first, last],
  );
  if (chunks.length !== last - first + 1) return null;
  const out: unknown[][] = [];
  for (const [k, chunk] of chunks.entries()) {
    if (k > 0) await new Promise((resolve) => setImmediate(resolve));
    const rows = JSON.parse(chunk.rows) as unknown[][];
    for (const row of rows) out.push(row);
  }
  const offset = first * SNAPSHOT_CHUNK;
  return out.slice(from - offset, end - offset);
}

/**
 * A snapshot's whole report as the JSON texts of its chunks, in order (the whole table is sent
 * without parsing 26,000 rows to serialise them again); null as `snapshotRows`. One chunk per
 * statement, the event loop let in between: PGlite runs a statement on the main thread, and the
 * 7 MB of Boston read in one held a first visitor's requests after a restart (issue 41).
 */
export async function snapshotTexts(
  sql: Sql,
  snapshot: Snapshot,
  report: SnapshotReport,
): Promise<string[] | null> {
  const expected = Math.max(1, Math.ceil(report.total / SNAPSHOT_CHUNK));
  const texts: string[] = [];
  for (let k = 0; k < expected; k++) {
    if (k > 0) await new Promise((resolve) => setImmediate(resolve));
    const [chunk] = await sql.query<{ rows: string }>(
      `SELECT rows FROM report_snapshots
        WHERE db = $1 AND group_key = $2 AND report_key = $3 AND stamp = $4 AND chunk = $5`,
      [snapshot.db, report.head.group, report.head.report, snapshot.stamp, k],
    );
    if (!chunk) return null;
    texts.push(chunk.rows);
  }
  return texts;
}

/**
 * Stores the tables of a loaded context under the stamp it was loaded at (`ctx.stamp`), unless
 * that snapshot is stored already or the state moved since its load (a passing applied: its
 * tables are no longer those of the stamp). Each table is built in slices (`tableSliced`) and
 * each chunk is one statement, the event loop let in between; the chunk holding a report's head
 * is written last, so a reader never finds a head without its rows. Returns whether it wrote.
 */
export async function writeSnapshot(
  database: Database,
  ctx: ContextState,
  /** True once the node is closing: the write stops before its next statement. */
  stopped: () => boolean = () => false,
): Promise<boolean> {
  const stamp = ctx.stamp;
  const db = ctx.context.db;
  if (!stamp || ctx.lastSeq !== stamp.seq) return false;
  const [stored] = await database.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM report_snapshots WHERE db = $1 AND stamp = $2 AND chunk = 0',
    [db, stamp.key],
  );
  if ((stored?.n ?? 0) >= ctx.reports.length) return false;
  await database.query('DELETE FROM report_snapshots WHERE db = $1 AND stamp <> $2', [db, stamp.key]);
  for (const report of ctx.reports) {
    const { etag: _etag, rows, ...head } = await ctx.tableSliced(report);
    if (ctx.lastSeq !== stamp.seq || stopped()) return false;
    const chunks = Math.max(1, Math.ceil(rows.length / SNAPSHOT_CHUNK));
    for (let k = chunks - 1; k >= 0; k--) {
      await new Promise((resolve) => setImmediate(resolve));
      if (stopped()) return false;
      const part = JSON.stringify(rows.slice(k * SNAPSHOT_CHUNK, (k + 1) * SNAPSHOT_CHUNK));
      await database.query(
        `INSERT INTO report_snapshots (db, group_key, report_key, chunk, stamp, version, total, head, rows)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (db, group_key, report_key, chunk) DO UPDATE
           SET stamp = EXCLUDED.stamp, version = EXCLUDED.version, total = EXCLUDED.total,
               head = EXCLUDED.head, rows = EXCLUDED.rows`,
        [
          db,
          report.groupKey,
          report.key,
          k,
          stamp.key,
          head.version,
          rows.length,
          k === 0 ? JSON.stringify(head) : null,
          part,
        ],
      );
    }
  }
  return true;
}

/**
 * Removes a context's stored snapshots (issue 40): a runner who hid their name must not stay named
 * in an older snapshot kept in the database (a moved stamp only stops it being served). The next
 * reader of the finished context writes a new one from the public projection.
 */
export async function dropSnapshots(sql: Sql, db: string): Promise<void> {
  await sql.query('DELETE FROM report_snapshots WHERE db = $1', [db]);
}
