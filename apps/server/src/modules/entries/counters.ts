import type { Sql } from '../../db/database.ts';

/**
 * The counted stocks of issue 38 — a race's places, an add-on's units, a code's uses — changed
 * only by conditional UPDATEs in the database (product.md "Entries": enforced by the database, not
 * by a check-then-insert). Each statement locks the one row it changes, and PostgreSQL re-checks
 * the WHERE on the row's newest version after waiting for a concurrent writer, so two nodes never
 * both take the last unit; the tables' CHECK constraints (`taken + held ≤ capacity`) are the last
 * word. The rules are those of `@tempora/domain`'s `capacity.ts` (hold, confirmHeld, releaseHeld,
 * takeLate, releaseTaken), proven there by property tests.
 */
export type Stock = 'registration_races' | 'registration_addons' | 'registration_codes';

const KEY: Record<Stock, string> = {
  registration_races: 'race_id',
  registration_addons: 'id',
  registration_codes: 'id',
};

const where = (stock: Stock) => `${KEY[stock]} = $1${stock === 'registration_races' ? '' : '::bigint'}`;

const KEY_TYPE: Record<Stock, string> = {
  registration_races: 'text',
  registration_addons: 'bigint',
  registration_codes: 'bigint',
};

/**
 * Locks the rows of `ids` (in key order: the batches of the registration rush lock races, then
 * add-ons, then codes, as `holdEntry` does) and answers the units left in each (Infinity when
 * the stock has no capacity). Read under the lock, these are the counts the batch allocates from.
 */
export async function lockStocks(
  sql: Sql,
  stock: Stock,
  ids: readonly string[],
): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await sql.query<{ id: string; left: number | null }>(
    `SELECT ${KEY[stock]}::text AS id, capacity - taken - held AS left FROM ${stock}
      WHERE ${KEY[stock]} = ANY($1::${KEY_TYPE[stock]}[]) ORDER BY ${KEY[stock]} FOR UPDATE`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.left ?? Number.POSITIVE_INFINITY]));
}

/**
 * Holds units of several rows in one conditional UPDATE (each row by its total); true when every
 * row had enough left. On false the caller's transaction must roll back (some rows may be held).
 */
export async function holdMany(sql: Sql, stock: Stock, holds: ReadonlyMap<string, number>): Promise<boolean> {
  if (!holds.size) return true;
  const rows = await sql.query(
    `UPDATE ${stock} s SET held = s.held + u.n FROM unnest($1::${KEY_TYPE[stock]}[], $2::int[]) AS u(id, n)
      WHERE s.${KEY[stock]} = u.id AND (s.capacity IS NULL OR s.taken + s.held + u.n <= s.capacity) RETURNING 1`,
    [[...holds.keys()], [...holds.values()]],
  );
  return rows.length === holds.size;
}

/** Holds `n` units; false (nothing changed) when fewer are left. */
export async function holdUnits(sql: Sql, stock: Stock, id: string, n = 1): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE ${stock} SET held = held + $2 WHERE ${where(stock)} AND (capacity IS NULL OR taken + held + $2 <= capacity) RETURNING 1`,
    [id, n],
  );
  return rows.length > 0;
}

/** A hold paid in time: its units become taken. */
export async function confirmUnits(sql: Sql, stock: Stock, id: string, n = 1): Promise<void> {
  await sql.query(`UPDATE ${stock} SET held = held - $2, taken = taken + $2 WHERE ${where(stock)}`, [id, n]);
}

/** A hold abandoned or expired: its units are free again. */
export async function releaseUnits(sql: Sql, stock: Stock, id: string, n = 1): Promise<void> {
  await sql.query(`UPDATE ${stock} SET held = held - $2 WHERE ${where(stock)}`, [id, n]);
}

/** A payment after its hold expired: takes `n` units if they are left; false otherwise. */
export async function takeLateUnits(sql: Sql, stock: Stock, id: string, n = 1): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE ${stock} SET taken = taken + $2 WHERE ${where(stock)} AND (capacity IS NULL OR taken + held + $2 <= capacity) RETURNING 1`,
    [id, n],
  );
  return rows.length > 0;
}

/** Confirmed units given back (a cancellation, a move away, a late take undone). */
export async function untakeUnits(sql: Sql, stock: Stock, id: string, n = 1): Promise<void> {
  await sql.query(`UPDATE ${stock} SET taken = taken - $2 WHERE ${where(stock)}`, [id, n]);
}

/** What an entry holds or has taken: its race, its add-ons (by id, with quantities), its code. */
export interface EntryUnits {
  raceId: string;
  addOns: readonly { id: string; quantity: number }[];
  codeId: string | null;
}

/** Holds all of an entry's units or none: the stock that ran out, or null when all are held. */
export async function holdEntry(
  sql: Sql,
  u: EntryUnits,
  withPlace = true,
): Promise<'race' | 'addOn' | 'code' | null> {
  if (withPlace && !(await holdUnits(sql, 'registration_races', u.raceId))) return 'race';
  for (const a of u.addOns)
    if (!(await holdUnits(sql, 'registration_addons', a.id, a.quantity))) return 'addOn';
  if (u.codeId && !(await holdUnits(sql, 'registration_codes', u.codeId))) return 'code';
  return null;
}

/** Applies `fn` to each of an entry's stocks (confirm, release, untake). */
export async function eachUnit(
  sql: Sql,
  u: EntryUnits,
  fn: (sql: Sql, stock: Stock, id: string, n: number) => Promise<void>,
): Promise<void> {
  await fn(sql, 'registration_races', u.raceId, 1);
  for (const a of u.addOns) await fn(sql, 'registration_addons', a.id, a.quantity);
  if (u.codeId) await fn(sql, 'registration_codes', u.codeId, 1);
}

/**
 * A late payment: takes every unit of the entry if each is left, else takes none (those taken are
 * given back) and answers false: the payment is refunded.
 */
export async function takeLateEntry(sql: Sql, u: EntryUnits): Promise<boolean> {
  const done: [Stock, string, number][] = [];
  const steps: [Stock, string, number][] = [
    ['registration_races', u.raceId, 1],
    ...u.addOns.map((a): [Stock, string, number] => ['registration_addons', a.id, a.quantity]),
    ...(u.codeId ? [['registration_codes', u.codeId, 1] as [Stock, string, number]] : []),
  ];
  for (const [stock, id, n] of steps) {
    if (!(await takeLateUnits(sql, stock, id, n))) {
      for (const [s, i, k] of done) await untakeUnits(sql, s, i, k);
      return false;
    }
    done.push([stock, id, n]);
  }
  return true;
}
