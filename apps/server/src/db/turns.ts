import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Sql } from './database.ts';

/** Marks the work run inside {@link inBackground}: its statements wait behind requests'. */
const backgroundLane = new AsyncLocalStorage<true>();

/**
 * Runs `fn` as background work (issue 38: the rush's payments, confirmations and mails): on
 * PGlite's one connection its statements and transactions go after every statement a request
 * is waiting for, so a runner's entry step does not queue behind other runners' payments. On
 * PostgreSQL it changes nothing (the pool serves both).
 */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return backgroundLane.run(true, fn);
}

/** How long the scheduler runs statements back to back before it lets the event loop turn. */
const YIELD_AFTER_MS = 4;
/** The longest background work waits behind requests' statements before it gets a turn anyway. */
const BACKGROUND_EVERY_MS = 200;

/**
 * The order of work on PGlite's one connection (issue 38). PGlite runs a statement on the main
 * thread and chains the next waiting one in a microtask, so thousands of queued statements ran
 * without the event loop turning (`/api/health` waited seconds) and in arrival order (a runner's
 * entry step behind others' payments). Here each statement or transaction takes its turn from
 * two queues — requests' first, then background work's ({@link inBackground}) — and the event
 * loop turns at least every {@link YIELD_AFTER_MS} ms between turns. Background work waiting
 * gets a turn at least every {@link BACKGROUND_EVERY_MS} ms even while requests keep coming. A
 * transaction keeps the connection until it ends, so background transactions are kept short by
 * their callers. With PGlite on its own thread (`pglite-thread.ts`) a statement no longer holds
 * the event loop: `yieldAfterMs` is Infinity there, the next turn starts at once (a turn given
 * through `setImmediate` waited for a whole turn of a busy loop, ≈ 10–50 ms in the rush, at
 * every statement).
 */
export function createTurns(yieldAfterMs = YIELD_AFTER_MS) {
  const queues: [(() => void)[], (() => void)[]] = [[], []];
  let busy = false;
  let since = performance.now();
  let scheduled = false;
  /** When background work last had a turn, or began to wait for one. */
  let backgroundSince = performance.now();
  const next = () => {
    scheduled = false;
    if (busy) return;
    // Background work waits behind requests, but not for ever: it gets a turn at least every
    // BACKGROUND_EVERY_MS (a payment recorded while requests never stop coming; its hold expires).
    const overdue = queues[1].length > 0 && performance.now() - backgroundSince >= BACKGROUND_EVERY_MS;
    const lane = overdue || !queues[0].length ? 1 : 0;
    const run = queues[lane].shift();
    if (!run) return;
    if (lane === 1) backgroundSince = performance.now();
    busy = true;
    run();
  };
  const release = () => {
    busy = false;
    if (scheduled) return;
    scheduled = true;
    if (performance.now() - since >= yieldAfterMs) {
      setImmediate(() => {
        since = performance.now();
        next();
      });
    } else queueMicrotask(next);
  };
  return {
    /** Runs `op` in its turn (its lane from the caller's context). */
    take<T>(op: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const lane = backgroundLane.getStore() ? 1 : 0;
        if (lane === 1 && !queues[1].length) backgroundSince = performance.now();
        queues[lane].push(() => {
          op().then(
            (value) => {
              release();
              resolve(value);
            },
            (error: unknown) => {
              release();
              reject(error);
            },
          );
        });
        if (!busy && !scheduled) {
          scheduled = true;
          queueMicrotask(next);
        }
      });
    },
    /** Statements or transactions waiting: requests', background work's. */
    waiting: () => ({ foreground: queues[0].length, background: queues[1].length }),
  };
}

/** Turns that refuse new statements once `closed` says so (a lent PGlite, `DatabaseOptions.pglite`). */
export function lentTurns(
  turns: ReturnType<typeof createTurns>,
  closed: () => boolean,
): ReturnType<typeof createTurns> {
  return {
    ...turns,
    // Checked again at its turn: a statement queued before the close never reaches the next holder.
    take: (op) => turns.take(() => (closed() ? Promise.reject(new Error('the database is closed')) : op())),
  };
}

/**
 * What every PGlite handle (on the caller's thread or its own) does the same way: each statement
 * of `base`, and the health and housekeeping statements, in its turn; the queue as pool statistics.
 */
export function onTurns(
  turns: ReturnType<typeof createTurns>,
  base: Sql,
): Pick<Database, 'query' | 'exec' | 'atTurn' | 'ping' | 'housekeep' | 'poolStats'> {
  return {
    query: (text, params) => turns.take(() => base.query(text, params)),
    exec: (text) => turns.take(() => base.exec(text)),
    atTurn: (fn) => turns.take(() => fn(base)),
    ping: () => turns.take(() => base.exec('select 1')),
    housekeep: () => turns.take(() => base.exec('CHECKPOINT')),
    poolStats: () => {
      const w = turns.waiting();
      return { total: 1, idle: 1, waiting: w.foreground + w.background };
    },
  };
}
