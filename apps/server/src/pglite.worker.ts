import { parentPort, workerData } from 'node:worker_threads';
import type { Sql } from './db/database.ts';
import { openPgliteClient, preparedStatements, usePgliteSession } from './db/pglite-client.ts';
import type { FromThread, SentError, ToThread } from './db/pglite-thread.ts';
import { procedures } from './procedures.ts';

/**
 * The database thread (db/pglite-thread.ts; at the root of the sources beside app.ts, as it loads
 * the modules' procedures): opens PGlite in `workerData.dataDir` and runs the statements and
 * procedures the main thread sends, one at a time in the order they arrive (the main thread's
 * turns decide that order), answering each with its rows (a procedure: its result) or its error.
 */

const port = parentPort!;
const { dataDir, load } = workerData as { dataDir: string; load?: ArrayBuffer };

const opened = (async () => {
  const client = await openPgliteClient(dataDir, load ? new Blob([load]) : undefined);
  await usePgliteSession(client);
  return { client, prepared: preparedStatements(client) };
})();
// A failed open is answered to every message (the first is `open`).
opened.catch(() => {});

/** An error as a message carries it: its message, name and every own field that can be copied. */
function sent(error: unknown): SentError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    try {
      fields[key] = structuredClone(value);
    } catch {}
  }
  return { message: error.message, name: error.name, fields };
}

/** As PGlite's `transaction` does: a transaction an error aborted ends in ROLLBACK, an error. */
async function commit(client: Awaited<typeof opened>['client']) {
  const [result] = await client.exec('COMMIT');
  if ((result as { command?: string } | undefined)?.command === 'ROLLBACK')
    throw Object.assign(new Error('The transaction was rolled back: a statement in it failed'), {
      code: '25P02',
    });
}

async function run(m: ToThread): Promise<unknown[]> {
  const { client, prepared } = await opened;
  switch (m.op) {
    case 'open':
      return [];
    case 'query':
      return prepared.query(m.text, m.params, m.tx, m.arrays);
    case 'exec':
      prepared.changed(m.text);
      await client.exec(m.text);
      return [];
    case 'commit':
      await commit(client);
      return [];
    case 'procedure': {
      const procedure = procedures.get(m.name);
      if (!procedure) throw new Error(`No procedure '${m.name}' on the database thread`);
      const sql: Sql = {
        query: (text, params) => prepared.query(text, params ?? [], true),
        exec: async (text) => {
          prepared.changed(text);
          await client.exec(text);
        },
      };
      await client.exec('BEGIN');
      try {
        const result = await procedure.run(sql, m.args as never);
        await commit(client);
        return [result];
      } catch (error) {
        await client.exec('ROLLBACK').catch(() => {});
        throw error;
      }
    }
    case 'close':
      await client.close();
      return [];
  }
}

let queue: Promise<unknown> = Promise.resolve();
port.on('message', (m: ToThread) => {
  queue = queue.then(async () => {
    let answer: FromThread;
    try {
      answer = { id: m.id, rows: await run(m) };
    } catch (error) {
      answer = { id: m.id, error: sent(error) };
    }
    try {
      port.postMessage(answer);
    } catch (error) {
      // A value no message can carry (none of PGlite's types): the statement's error instead.
      port.postMessage({ id: m.id, error: sent(error) } satisfies FromThread);
    }
  });
});
