import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database, Sql } from '../../db/database.ts';

/**
 * A database handle that gives the event loop a turn before every statement. PGlite runs each
 * statement synchronously on the main thread and resolves it without a macrotask, so a chain of
 * statements (validating a 5,000-row document reads and writes dozens) would otherwise hold
 * every other request — `/api/health` included — until the chain ends (measured in
 * `apps/server/bench/confirmation.bench.ts`). Costs one turn (~0.1 ms) per statement.
 */
export function yielding(database: Database): Database {
  const wrap = (sql: Sql): Sql => ({
    query: async (text, params) => {
      await nextTurn();
      return sql.query(text, params);
    },
    exec: async (text) => {
      await nextTurn();
      return sql.exec(text);
    },
  });
  return {
    ...database,
    ...wrap(database),
    kind: database.kind,
    db: database.db,
    transaction: (fn) => database.transaction((sql) => fn(wrap(sql))),
    ping: () => database.ping(),
    close: () => database.close(),
  };
}
