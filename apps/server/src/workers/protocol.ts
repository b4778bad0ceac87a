/**
 * Messages between the main thread and a heavy-work thread (pool.ts, heavy.worker.ts). Every
 * message names its task's id; a task's input and output go in chunks.
 */

/** What a worker can do: write an XLSX or a PDF list from text rows, or read an uploaded file. */
export type TaskName = 'xlsx' | 'pdf-list' | 'read-sheets';

export type ToWorker =
  | { type: 'start'; id: number; task: TaskName; args: unknown }
  | { type: 'chunk'; id: number; chunk: unknown }
  | { type: 'end'; id: number };

export type ToMain =
  | { type: 'chunk'; id: number; chunk: unknown }
  | { type: 'done'; id: number; result: unknown }
  | { type: 'error'; id: number; message: string; code?: string | undefined; status?: number | undefined };
