import { Writable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { AppError } from './errors.ts';
import { readSheets } from './lib/tabular/read.ts';
import type { ReadSheetsArgs } from './lib/tabular/read-offloaded.ts';
import type { PdfListArgs, XlsxArgs } from './modules/exports/offload.ts';
import { type ListSection, renderList } from './modules/exports/pdf-list.ts';
import { writeXlsx } from './modules/exports/xlsx.ts';
import type { TaskName, ToMain, ToWorker } from './workers/protocol.ts';

/**
 * The heavy-work thread (workers/pool.ts; at the root of the sources beside app.ts, being, like it,
 * where modules are put together: it runs their document and file tasks): builds XLSX and PDF documents and reads uploaded CSV/XLSX
 * files, away from the thread that answers requests. One task at a time; its input arrives in
 * chunks, its output leaves in chunks of up to 256 KiB (document bytes) or 2,000 rows (sheets).
 */

const port = parentPort!;
const post = (message: ToMain, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

const OUT_CHUNK = 256 * 1024;
const ROWS_PER_MESSAGE = 2_000;

/** A writable that forwards what is written to the main thread, 256 KiB at a time. */
function sink(id: number): Writable {
  let parts: Buffer[] = [];
  let size = 0;
  const flush = () => {
    if (!size) return;
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    parts = [];
    size = 0;
    post({ type: 'chunk', id, chunk: bytes }, [bytes.buffer as ArrayBuffer]);
  };
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      parts.push(Buffer.from(chunk));
      size += chunk.length;
      if (size >= OUT_CHUNK) flush();
      callback();
    },
    final(callback) {
      flush();
      callback();
    },
  });
}

/** Runs a task once its input has all arrived. */
async function perform(id: number, task: TaskName, args: unknown, input: unknown[]): Promise<unknown> {
  if (task === 'xlsx') {
    const { table } = args as XlsxArgs;
    const out = sink(id);
    const finished = new Promise<void>((resolve, reject) => out.on('finish', resolve).on('error', reject));
    await writeXlsx({ ...table, rows: (input as string[][][]).flat() }, out);
    await finished;
    return null;
  }
  if (task === 'pdf-list') {
    const { table, sections, meta, orientation } = args as PdfListArgs;
    const rows = (input as string[][][]).flat();
    let at = 0;
    const cut: ListSection[] = sections.map((s) => {
      const part = rows.slice(at, at + s.count);
      at += s.count;
      return { heading: s.heading, rows: part };
    });
    const { doc, done } = renderList({ ...table, rows }, cut, meta, orientation);
    const out = sink(id);
    const finished = new Promise<void>((resolve, reject) => out.on('finish', resolve).on('error', reject));
    doc.pipe(out);
    await done;
    await finished;
    return null;
  }
  const { fileName } = args as ReadSheetsArgs;
  const bytes = Buffer.concat(
    (input as Uint8Array[]).map((u) => Buffer.from(u.buffer, u.byteOffset, u.length)),
  );
  const { format, sheets } = await readSheets(bytes, fileName);
  for (const sheet of sheets) {
    post({ type: 'chunk', id, chunk: { kind: 'sheet', name: sheet.name, header: sheet.header } });
    for (let k = 0; k < sheet.rows.length; k += ROWS_PER_MESSAGE)
      post({ type: 'chunk', id, chunk: { kind: 'rows', rows: sheet.rows.slice(k, k + ROWS_PER_MESSAGE) } });
  }
  return { format };
}

const tasks = new Map<number, { task: TaskName; args: unknown; input: unknown[] }>();

port.on('message', (message: ToWorker) => {
  if (message.type === 'start') {
    tasks.set(message.id, { task: message.task, args: message.args, input: [] });
    return;
  }
  const current = tasks.get(message.id);
  if (!current) return;
  if (message.type === 'chunk') {
    current.input.push(message.chunk);
    return;
  }
  tasks.delete(message.id);
  perform(message.id, current.task, current.args, current.input).then(
    (result) => post({ type: 'done', id: message.id, result }),
    (error: Error) =>
      post({
        type: 'error',
        id: message.id,
        message: error.message,
        code: error instanceof AppError ? error.code : undefined,
        status: error instanceof AppError ? error.status : undefined,
      }),
  );
});
