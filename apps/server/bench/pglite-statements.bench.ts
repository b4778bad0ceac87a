/**
 * PGlite statements (issue 38): the cost of a statement through `Database.query` (named prepared
 * statements, `db/database.ts`) against PGlite's own `query` (parse, describe and plan every time)
 * on the same data directory, for statements of the registration rush: an order read with its
 * four joins (the pay step and the webhook), a one-table read by key, and an UPDATE committed
 * alone. CPU milliseconds per statement (process.cpuUsage), the machine's noise aside.
 * Run: npm run bench -- pglite-statements   (about 20 s)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { printTable } from './bench-setup.ts';

const N = 2_000;
const ORDERS = 5_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tempora-statements-'));
const setUp = await openDatabase({ dataDir: dir });
await migrate(setUp);
await setUp.exec(`INSERT INTO organisations (id, slug, name) VALUES ('00000000-0000-4000-8000-0000000000be', 'o', 'O');
  INSERT INTO events (id, organisation_id, name, start_date, end_date, status)
    VALUES ('e1', '00000000-0000-4000-8000-0000000000be', 'E', '2099-01-01', '2099-01-01', 'upcoming');
  INSERT INTO orders (event_id, state, amount_cents, currency, structured, expires_at, registration)
    SELECT 'e1', 'awaiting_payment', 3000, 'EUR', lpad(n::text, 12, '0'), now() + interval '1 day', true
      FROM generate_series(1, ${ORDERS}) n;`);
await setUp.close();

// The order read of payments/repository.ts (`findOrder`).
const FIND = `SELECT o.id::text AS id, o.deposit_id::text AS "depositId", o.document_id::text AS "documentId",
  o.registration, o.event_id AS "eventId", ev.name AS "eventName", ev.organisation_id::text AS "organisationId",
  coalesce(d.organisation_name, cd.sender_name, ev.name) AS "organisationName", o.payer_sub::text AS "payerSub",
  coalesce(trim(u.first_name || ' ' || u.last_name), cd.contact_name) AS "payerName",
  coalesce(u.email, cd.contact_email) AS "payerEmail", o.company, o.state, o.provider,
  o.amount_cents AS "amountCents", o.paid_cents AS "paidCents", o.refunded_cents AS "refundedCents", o.currency,
  o.structured, o.provider_payment_id AS "providerPaymentId", o.provider_amount_cents AS "providerAmountCents",
  o.expires_at AS "expiresAt", o.created_at AS "createdAt", o.paid_at AS "paidAt"
  FROM orders o JOIN events ev ON ev.id = o.event_id LEFT JOIN deposits d ON d.id = o.deposit_id
  LEFT JOIN users u ON u.sub = o.payer_sub LEFT JOIN confirmation_documents cd ON cd.id = o.document_id
  WHERE o.id = $1::bigint ORDER BY o.id`;
const cases: [string, string, (k: number) => unknown[]][] = [
  ['order read (5 tables)', FIND, (k) => [String((k % ORDERS) + 1)]],
  [
    'read by key (1 table)',
    'SELECT id, state FROM orders WHERE id = $1::bigint',
    (k) => [String((k % ORDERS) + 1)],
  ],
  [
    'UPDATE, committed alone',
    'UPDATE orders SET provider_payment_id = $2 WHERE id = $1::bigint',
    (k) => [String((k % ORDERS) + 1), `tr_${k}`],
  ],
];

/** CPU ms per run of `fn`, after 100 runs to warm up. */
async function cpuMs(fn: (k: number) => Promise<unknown>): Promise<number> {
  for (let k = 0; k < 100; k++) await fn(k);
  const before = process.cpuUsage();
  for (let k = 0; k < N; k++) await fn(k);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / N;
}

const rows: (string | number)[][] = [];
const raw = await PGlite.create({ dataDir: dir });
const bare: number[] = [];
for (const [, text, params] of cases) bare.push(await cpuMs((k) => raw.query(text, params(k))));
await raw.close();
const database = await openDatabase({ dataDir: dir });
for (const [k, [name, text, params]] of cases.entries()) {
  const ours = await cpuMs((n) => database.query(text, params(n)));
  rows.push([name, bare[k]!.toFixed(3), ours.toFixed(3), `${(bare[k]! / ours).toFixed(1)}×`]);
}
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log(`\n### PGlite statements: CPU ms per statement (${N} runs each)\n`);
printTable(['statement', "PGlite's query (baseline)", 'Database.query (prepared)', 'faster'], rows);
