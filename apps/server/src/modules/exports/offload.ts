import { PassThrough, type Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { heavyWork } from '../../workers/pool.ts';
import type { ListMeta, ListSection } from './pdf-list.ts';
import type { TextTable } from './table-text.ts';

/** The table of an export, without its rows (they arrive as chunks). */
export type TableHead = Omit<TextTable, 'rows'>;

/** The worker's `xlsx` task (heavy.worker.ts). */
export interface XlsxArgs {
  table: TableHead;
}

/** The worker's `pdf-list` task (heavy.worker.ts). */
export interface PdfListArgs {
  table: TableHead;
  /** Sections in order, with how many of the rows (sent in section order) each holds. */
  sections: { heading: string | null; count: number }[];
  meta: ListMeta;
  orientation: 'auto' | 'portrait' | 'landscape';
}

/** Rows per message to the worker: copying them costs the main thread well under a millisecond. */
const ROWS_PER_MESSAGE = 500;

/**
 * Runs a document task on a worker thread (workers/pool.ts) and streams its bytes: the rows go
 * over in chunks with a turn of the event loop between them, the document comes back in chunks.
 * Building a 45,000-row XLSX or PDF costs tens of seconds of CPU; on the main thread, even cut
 * into slices, it held `/api/health` past 100 ms (issue 16).
 */
function offload(
  task: 'xlsx' | 'pdf-list',
  args: XlsxArgs | PdfListArgs,
  rows: readonly string[][][],
): Readable {
  const out = new PassThrough();
  const work = heavyWork().run<null>(task, args);
  work.onChunk((chunk) => {
    const bytes = chunk as Uint8Array;
    // A client gone (the reply destroyed its stream): the rest of the document is dropped.
    if (!out.destroyed) out.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  });
  work.result.then(
    () => {
      if (!out.destroyed) out.end();
    },
    (error: Error) => out.destroy(error),
  );
  void (async () => {
    for (const part of rows) {
      for (let k = 0; k < part.length; k += ROWS_PER_MESSAGE) {
        work.push(part.slice(k, k + ROWS_PER_MESSAGE));
        await yieldToLoop();
      }
    }
    work.end();
  })();
  return out;
}

const headOf = ({ rows: _rows, ...head }: TextTable) => head;

/** An XLSX workbook of a report's text, made on a worker thread (xlsx.ts). */
export function xlsxStream(table: TextTable): Readable {
  return offload('xlsx', { table: headOf(table) }, [table.rows]);
}

/** A printed list (pdf-list.ts), made on a worker thread. */
export function pdfListStream(
  table: TextTable,
  sections: readonly ListSection[],
  meta: ListMeta,
  orientation: 'auto' | 'portrait' | 'landscape',
): Readable {
  return offload(
    'pdf-list',
    {
      table: headOf(table),
      sections: sections.map((s) => ({ heading: s.heading, count: s.rows.length })),
      meta,
      orientation,
    },
    sections.map((s) => s.rows),
  );
}
