/**
 * The work of one device connection, in arrival order, one step at a time: received items (lines,
 * frames) and tasks (a query at connection time). Items that arrive while an earlier step runs
 * are handed over together at the next step — many received chunks become one store, one
 * transaction, one acknowledgement round — up to `maxBatch` items a step. A failing step calls
 * `onError` and drops what was queued behind it: the connection closes and the device's protocol
 * sends again what was not acknowledged (or Tempora fetches it again).
 */
export class OrderedQueue<T> {
  /**
   * Whether received items join the step queued last (on). Off, every push is its own step — how
   * the connectors stored before the queue existed: the connectors benchmark measures both in
   * one run.
   */
  static joining = true;

  private readonly queue: ({ items: T[] } | { task: () => Promise<void> })[] = [];
  private busy = false;
  private done: Promise<void> = Promise.resolve();

  constructor(
    private readonly handle: (items: T[]) => Promise<void>,
    private readonly onError: (err: unknown) => void,
    private readonly maxBatch = 2_000,
  ) {}

  /** Queues received items (joined to the items queued last when they still fit). */
  push(items: readonly T[]) {
    if (!items.length) return;
    const last = this.queue[this.queue.length - 1];
    if (OrderedQueue.joining && last && 'items' in last && last.items.length + items.length <= this.maxBatch)
      for (const item of items) last.items.push(item);
    else this.queue.push({ items: items.slice() });
    this.kick();
  }

  /** Queues a task, run after everything queued before it. */
  task(task: () => Promise<void>) {
    this.queue.push({ task });
    this.kick();
  }

  /** Resolves once everything queued so far has run. */
  async drained() {
    while (this.busy) await this.done;
  }

  private kick() {
    if (this.busy) return;
    this.busy = true;
    this.done = this.run();
  }

  private async run() {
    try {
      for (let step = this.queue.shift(); step; step = this.queue.shift()) {
        try {
          if ('task' in step) await step.task();
          else await this.handle(step.items);
        } catch (err) {
          this.queue.length = 0;
          this.onError(err);
        }
      }
    } finally {
      // Set in the same turn as the empty check: a push after this starts a new run.
      this.busy = false;
    }
  }
}
