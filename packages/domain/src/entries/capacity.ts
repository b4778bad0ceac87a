/**
 * Places, add-on units and code uses held while a runner pays (issue 38, product.md "Entries"):
 * one rule for all three — a pool of `capacity` with `taken` (confirmed) and `held` (waiting for a
 * payment), and `taken + held ≤ capacity` at every moment. The server applies the same rule as one
 * conditional UPDATE in the database (`… WHERE taken + held + $n <= capacity RETURNING`), so two
 * nodes never both sell the last place; these pure functions state the rule and are what the
 * property tests check.
 */

/** A counted stock. `capacity` null: unlimited. */
export interface Pool {
  readonly capacity: number | null;
  readonly taken: number;
  readonly held: number;
}

/** Units left to hold now (Infinity when unlimited). */
export function left(pool: Pool): number {
  return pool.capacity == null
    ? Number.POSITIVE_INFINITY
    : Math.max(0, pool.capacity - pool.taken - pool.held);
}

/** Holds `n` units, or null when fewer are left (nothing changes). */
export function hold(pool: Pool, n = 1): Pool | null {
  if (n <= 0 || left(pool) < n) return null;
  return { ...pool, held: pool.held + n };
}

/** A hold paid in time: its units become taken. */
export function confirmHeld(pool: Pool, n = 1): Pool {
  const moved = Math.min(n, pool.held);
  return { ...pool, held: pool.held - moved, taken: pool.taken + moved };
}

/** A hold abandoned or expired: its units are free again. */
export function releaseHeld(pool: Pool, n = 1): Pool {
  return { ...pool, held: Math.max(0, pool.held - n) };
}

/**
 * A payment arriving after its hold expired (and was released): it takes a unit only if one is
 * left; otherwise null, and the payment is refunded.
 */
export function takeLate(pool: Pool, n = 1): Pool | null {
  if (left(pool) < n) return null;
  return { ...pool, taken: pool.taken + n };
}

/** A confirmed unit given back (a cancellation): it frees a place for the waitlist. */
export function releaseTaken(pool: Pool, n = 1): Pool {
  return { ...pool, taken: Math.max(0, pool.taken - n) };
}

/** The invariant the database enforces: never more taken and held than the capacity. */
export function withinCapacity(pool: Pool): boolean {
  return (
    pool.taken >= 0 && pool.held >= 0 && (pool.capacity == null || pool.taken + pool.held <= pool.capacity)
  );
}

/** When a hold made at `at` stops holding (`minutes` later). */
export function holdExpiresAt(at: Date, minutes: number): Date {
  return new Date(at.getTime() + minutes * 60_000);
}
