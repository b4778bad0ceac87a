import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { memoryDatabase } from '../../test/helpers.ts';
import { migrate } from './migrate.ts';
import * as schema from './schema/index.ts';

// The schema is hand-written in two places (drizzle pg-core for queries, SQL migrations for the
// database): this test fails when a column exists in one and not the other.
describe('schema and migrations agree', () => {
  it('every drizzle table and column exists after migrating, with the same nullability', async () => {
    const database = await memoryDatabase();
    await migrate(database);
    const rows = await database.query<{ table_name: string; column_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const actual = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r.is_nullable === 'YES']));
    const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
    expect(tables.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const table of tables) {
      for (const column of Object.values(getTableColumns(table))) {
        const key = `${getTableName(table)}.${column.name}`;
        if (!actual.has(key)) missing.push(key);
        else if (actual.get(key) !== !column.notNull) missing.push(`${key} (nullability)`);
      }
    }
    await database.close();
    expect(missing).toEqual([]);
  });
});
