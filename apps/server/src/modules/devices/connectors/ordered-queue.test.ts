import { describe, expect, it } from 'vitest';
import { OrderedQueue } from './ordered-queue.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('OrderedQueue', () => {
  it('runs items and tasks in arrival order, joining items that arrive while a step runs', async () => {
    const steps: string[] = [];
    let release: () => void = () => undefined;
    const q = new OrderedQueue<number>(
      async (items) => {
        steps.push(`items ${items.join(',')}`);
        if (items[0] === 1) await new Promise<void>((r) => (release = r));
      },
      () => steps.push('error'),
    );
    q.push([1]);
    q.push([2, 3]); // the first step is busy: these wait…
    q.push([4]); // …together with this one
    q.task(async () => {
      steps.push('task');
    });
    q.push([5]);
    await tick();
    release();
    await q.drained();
    expect(steps).toEqual(['items 1', 'items 2,3,4', 'task', 'items 5']);
  });

  it('caps a step at maxBatch items', async () => {
    const sizes: number[] = [];
    let release: () => void = () => undefined;
    const q = new OrderedQueue<number>(
      async (items) => {
        sizes.push(items.length);
        if (sizes.length === 1) await new Promise<void>((r) => (release = r));
      },
      () => undefined,
      3,
    );
    q.push([0]);
    for (let k = 1; k <= 7; k++) q.push([k]);
    await tick();
    release();
    await q.drained();
    expect(sizes).toEqual([1, 3, 3, 1]);
  });

  it('a failing step reports once and drops what was queued behind it; later pushes run', async () => {
    const seen: number[][] = [];
    const errors: string[] = [];
    let release: () => void = () => undefined;
    const q = new OrderedQueue<number>(
      async (items) => {
        seen.push(items);
        if (items[0] === 1) {
          await new Promise<void>((r) => (release = r));
          throw new Error('store failed');
        }
      },
      (err) => errors.push((err as Error).message),
    );
    q.push([1]);
    q.push([2]);
    await tick();
    release();
    await q.drained();
    q.push([3]);
    await q.drained();
    expect(errors).toEqual(['store failed']);
    expect(seen).toEqual([[1], [3]]);
  });
});
