import { afterAll, describe, expect, it } from 'vitest';
import { backends } from '../../../test/helpers.ts';
import { migrate } from '../../db/migrate.ts';
import { assignInvoice, freeStructured, insertOrder, nextOrderId } from './port.ts';

const ORG = '00000000-0000-4000-8000-0000000000e1';

/**
 * Invoice numbers (issue 38: an entries order is numbered when it is paid): a sequence per
 * organisation without gaps and never twice, with two nodes (two connection pools) numbering at
 * once — on PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL.
 */
describe.each(backends().map((b) => [b.name, b] as const))('invoice numbers on %s', (_name, backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('two nodes numbering 40 paid orders at once: 1..40, each once; a rolled-back number is given again', async () => {
    const fresh = await backend.fresh();
    cleanups.push(fresh.drop);
    const a = await fresh.open();
    cleanups.push(() => a.close());
    await migrate(a);
    // PGlite is one process: its "second node" is the same database handle.
    const b = backend.name === 'postgres' ? await fresh.open() : a;
    if (b !== a) cleanups.push(() => b.close());
    await a.query(`INSERT INTO organisations (id, slug, name) VALUES ($1, 'inv', 'Invoices')`, [ORG]);
    await a.query(
      `INSERT INTO events (id, organisation_id, name, start_date, end_date) VALUES ('inv-run', $1, 'Run', '2027-01-01', '2027-01-01')`,
      [ORG],
    );
    const ids: string[] = [];
    for (let k = 0; k < 40; k++)
      await a.transaction(async (sql) => {
        const id = await nextOrderId(sql);
        await insertOrder(sql, {
          id,
          depositId: null,
          registration: true,
          eventId: 'inv-run',
          payerSub: null,
          company: false,
          state: 'paid',
          amountCents: 100,
          currency: 'EUR',
          structured: await freeStructured(sql),
          expiresAt: new Date(),
          lines: [],
        });
        ids.push(id);
      });
    await a
      .transaction(async (sql) => {
        await assignInvoice(sql, ids[0]!);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const numbers = await Promise.all(
      ids.map((id, k) => (k % 2 ? b : a).transaction((sql) => assignInvoice(sql, id))),
    );
    expect([...numbers].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, k) => k + 1));
    const rows = await a.query<{ n: number }>('SELECT count(*)::int AS n FROM invoices');
    expect(rows[0]!.n).toBe(40);
    // Asked again (a webhook twice): the same number, no new one.
    expect(await b.transaction((sql) => assignInvoice(sql, ids[7]!))).toBe(numbers[7]);
  });
});
