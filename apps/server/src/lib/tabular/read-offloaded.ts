import { AppError } from '../../errors.ts';
import { heavyWork } from '../../workers/pool.ts';
import type { FileFormat, Sheet } from './read.ts';

/** The worker's `read-sheets` task (heavy.worker.ts). */
export interface ReadSheetsArgs {
  fileName: string;
}

/** Output chunks of `read-sheets`: a sheet begins, or rows of the current sheet. */
export type SheetChunk =
  | { kind: 'sheet'; name: string; header: string[] }
  | { kind: 'rows'; rows: { line: number; cells: string[] }[] };

/**
 * `readSheets` on a worker thread (workers/pool.ts): parsing a 45,000-row CSV or XLSX costs
 * seconds of CPU, which even cut into slices held `/api/health` for up to a second (issue 14).
 * The file goes over once (copied, then moved); the sheets come back 2,000 rows a message. The
 * worker's 400s (`FILE_UNREADABLE`, `CSV_INVALID`…) are rethrown as they were.
 */
export async function readSheetsOffThread(
  bytes: Buffer,
  fileName: string,
): Promise<{ format: FileFormat; sheets: Sheet[] }> {
  const args: ReadSheetsArgs = { fileName };
  const task = heavyWork().run<{ format: FileFormat }>('read-sheets', args);
  const sheets: Sheet[] = [];
  task.onChunk((chunk) => {
    const c = chunk as SheetChunk;
    if (c.kind === 'sheet') sheets.push({ name: c.name, header: c.header, rows: [] });
    else {
      const rows = sheets.at(-1)!.rows;
      for (const row of c.rows) rows.push(row);
    }
  });
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  task.push(copy, [copy.buffer]);
  task.end();
  try {
    const { format } = await task.result;
    return { format, sheets };
  } catch (error) {
    const e = error as Error & { code?: string; status?: number };
    if (e.status && e.code) throw new AppError(e.status, e.code, e.message);
    throw error;
  }
}
