import { describe, expect, it } from 'vitest';
import { type ReadLike, selectRead, selectTime } from './read-selection.ts';

const reads = (...times: number[]): ReadLike[] => times.map((timeMs, k) => ({ id: `r${k}`, timeMs }));
const select = (list: ReadLike[], takeLast: boolean, minTime = Number.NaN, strict = false) =>
  selectRead(list, null, 0, list.length, takeLast, 5_000, minTime, strict);

describe('read selection at one mat', () => {
  it('takes the first read, or the last within the re-read window of the first', () => {
    const burst = reads(104_000, 100_000, 103_000, 200_000);
    expect(select(burst, false)).toBe(100_000);
    expect(select(burst, true)).toBe(104_000);
    expect(
      selectTime(
        Float64Array.from([104_000, 100_000, 103_000, 200_000]),
        0,
        4,
        true,
        5_000,
        Number.NaN,
        false,
      ),
    ).toBe(104_000);
  });

  it('ignores reads before the start (a runner on the mat before the gun, a test read)', () => {
    expect(select(reads(90_000, 100_000), false, 100_000)).toBe(100_000);
    expect(select(reads(100_000), false, 100_000, true)).toBeNaN();
  });

  it('drops every copy of a deleted read, whichever arrives first', () => {
    const deleted: ReadLike = { id: 'r1', timeMs: 100_000, deleted: true };
    const copy: ReadLike = { id: 'other', timeMs: 100_000 };
    expect(select([deleted, ...reads(150_000, 100_000), copy], false)).toBe(150_000);
    expect(select([deleted], false)).toBeNaN();
  });
});
