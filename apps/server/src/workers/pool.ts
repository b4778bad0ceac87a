import type { Worker } from 'node:worker_threads';
import type { TaskName, ToMain, ToWorker } from './protocol.ts';
import { spawnWorker } from './spawn.ts';

/**
 * Worker threads for the CPU-heavy parts of exports and imports (issues 14 and 16: `/api/health`
 * within 100 ms while a 45,000-row XLSX or PDF is made, or a 45,000-row file is read). The main
 * thread keeps the database and the requests; a worker builds documents and parses files, fed
 * and answered in chunks of a few thousand rows so that no single message costs the main thread
 * more than a few milliseconds to copy.
 *
 * The worker is `src/heavy.worker.ts` (where the modules' tasks are put together) when the server runs from its sources (tsx:
 * development, tests, benches; the worker loads tsx itself), and `heavy-worker.mjs` beside the
 * bundle in production (scripts/build-server.mjs builds it as a second entry).
 */
function spawn() {
  return spawnWorker(import.meta.url, 'heavy-worker.mjs', new URL('../heavy.worker.ts', import.meta.url));
}

/** One task on a worker: chunks pushed in, chunks and a result coming out. */
export interface Task<R> {
  /** Sends a chunk of input (rows, bytes) to the task, in order. */
  push(chunk: unknown, transfer?: ArrayBuffer[]): void;
  /** Ends the input: the task finishes its work. */
  end(): void;
  /** Called with every output chunk, in order (document bytes, rows read). */
  onChunk(handler: (chunk: unknown) => void): void;
  /** The task's result once it is done; rejected with its error. */
  result: Promise<R>;
}

interface Slot {
  worker: Worker;
  busy: boolean;
  idle?: NodeJS.Timeout;
}

/** An idle worker is stopped after this long (its memory back; the next task starts another). */
const IDLE_MS = 30_000;

/**
 * A small pool of worker threads, made on first use and kept (a worker starts in ≈ 0.3 s under
 * tsx). `size` bounds the tasks run at once; callers bound what they start (exports: two at once).
 * A task whose worker fails rejects, and the worker is replaced.
 */
export function createWorkerPool(size = 2) {
  const slots: Slot[] = [];
  const waiting: ((slot: Slot) => void)[] = [];
  let nextId = 1;
  let closed = false;

  function acquire(): Promise<Slot> {
    const free = slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      clearTimeout(free.idle);
      return Promise.resolve(free);
    }
    if (slots.length < size) {
      const slot = { worker: spawn(), busy: true };
      slot.worker.unref();
      slots.push(slot);
      return Promise.resolve(slot);
    }
    return new Promise((resolve) => waiting.push(resolve));
  }

  function release(slot: Slot, broken: boolean) {
    if (broken) {
      slots.splice(slots.indexOf(slot), 1);
      void slot.worker.terminate();
      const next = waiting.shift();
      if (next && !closed) void acquire().then(next);
      return;
    }
    const next = waiting.shift();
    if (next) return next(slot);
    slot.busy = false;
    slot.idle = setTimeout(() => {
      if (slot.busy) return;
      slots.splice(slots.indexOf(slot), 1);
      void slot.worker.terminate();
    }, IDLE_MS);
    slot.idle.unref();
  }

  return {
    /** Starts a task on a worker; its input is pushed in chunks, then ended. */
    run<R>(task: TaskName, args: unknown): Task<R> {
      const id = nextId++;
      const pending: { message: ToWorker; transfer: ArrayBuffer[] }[] = [
        { message: { type: 'start', id, task, args }, transfer: [] },
      ];
      let slot: Slot | null = null;
      let chunkHandler: (chunk: unknown) => void = () => undefined;
      const send = (message: ToWorker, transfer: ArrayBuffer[] = []) => {
        if (slot) slot.worker.postMessage(message, transfer);
        else pending.push({ message, transfer });
      };
      const result = new Promise<R>((resolve, reject) => {
        if (closed) return reject(new Error('worker pool closed'));
        void acquire().then((acquired) => {
          slot = acquired;
          const worker = acquired.worker;
          worker.ref();
          const finish = (broken: boolean) => {
            worker.off('message', onMessage);
            worker.off('error', onError);
            worker.off('exit', onExit);
            worker.unref();
            release(acquired, broken);
          };
          const onMessage = (message: ToMain) => {
            if (message.id !== id) return;
            if (message.type === 'chunk') chunkHandler(message.chunk);
            else if (message.type === 'done') {
              finish(false);
              resolve(message.result as R);
            } else {
              finish(false);
              reject(
                Object.assign(new Error(message.message), { code: message.code, status: message.status }),
              );
            }
          };
          const onError = (error: Error) => {
            finish(true);
            reject(error);
          };
          const onExit = (code: number) => {
            finish(true);
            reject(new Error(`worker exited with code ${code}`));
          };
          worker.on('message', onMessage);
          worker.on('error', onError);
          worker.on('exit', onExit);
          for (const p of pending.splice(0)) worker.postMessage(p.message, p.transfer);
        });
      });
      return {
        push: (chunk, transfer) => send({ type: 'chunk', id, chunk }, transfer),
        end: () => send({ type: 'end', id }),
        onChunk(handler) {
          chunkHandler = handler;
        },
        result,
      };
    },
    /** Stops every worker (the app's close). */
    async close() {
      closed = true;
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}

export type WorkerPool = ReturnType<typeof createWorkerPool>;

let shared: WorkerPool | undefined;

/** The process's pool (two threads: the exports' limit; imports queue behind them). */
export function heavyWork(): WorkerPool {
  shared ??= createWorkerPool(2);
  return shared;
}
