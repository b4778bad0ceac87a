/** The part of a passing that read selection looks at. */
export interface ReadLike {
  readonly id: string;
  readonly timeMs: number;
  readonly deleted?: boolean;
}

/** Whether a read at `t` may count, given the earliest moment `minTime` (NaN: any). */
export function eligible(t: number, minTime: number, strict: boolean): boolean {
  return !(t < minTime || (strict && t === minTime));
}

/**
 * Selects the time of one crossing from all reads of one runner at one mat: `reads[order[k]]`
 * for k in [from, to), or `reads[k]` when `order` is null. Reads before `minTime` (or at it, when
 * `strict`) never count. A deleted read removes every read here with its id or its time (soft
 * corrections, product.md "Passing": the same read twice is one read, so a correction removes
 * all its copies), whatever the arrival order. The crossing begins at the
 * earliest remaining read; re-reads within `windowMs` of it belong to it, and the first or the
 * last of them counts: a runner waiting on the start mat is read until they leave, so the start
 * takes the last read, while a finish takes the first. Later reads (a runner walking back over a
 * mat) never move the time. NaN when no read counts. A function of the set of reads only:
 * duplicates and order never change it. Positional arguments: it runs 290,000 times per recompute.
 */
export function selectRead(
  reads: readonly ReadLike[],
  order: Int32Array | null,
  from: number,
  to: number,
  takeLast: boolean,
  windowMs: number,
  minTime: number,
  strict: boolean,
): number {
  if (to - from === 1) {
    // One read per runner and mat is the common case: skip the passes below.
    const read = reads[order ? order[from]! : from]!;
    return read.deleted || !eligible(read.timeMs, minTime, strict) ? Number.NaN : read.timeMs;
  }
  let deletedIds: Set<string> | undefined;
  let deletedTimes: Set<number> | undefined;
  for (let k = from; k < to; k++) {
    const read = reads[order ? order[k]! : k]!;
    if (!read.deleted) continue;
    deletedIds ??= new Set();
    deletedTimes ??= new Set();
    deletedIds.add(read.id);
    deletedTimes.add(read.timeMs);
  }
  const dead = (read: ReadLike) =>
    deletedIds !== undefined && (deletedIds.has(read.id) || deletedTimes?.has(read.timeMs) === true);
  let first = Number.POSITIVE_INFINITY;
  for (let k = from; k < to; k++) {
    const read = reads[order ? order[k]! : k]!;
    const t = read.timeMs;
    if (t < first && eligible(t, minTime, strict) && !dead(read)) first = t;
  }
  if (first === Number.POSITIVE_INFINITY) return Number.NaN;
  if (!takeLast) return first;
  const until = first + windowMs;
  let last = first;
  for (let k = from; k < to; k++) {
    const read = reads[order ? order[k]! : k]!;
    const t = read.timeMs;
    if (t > last && t <= until && !dead(read)) last = t;
  }
  return last;
}

/**
 * `selectRead` for a bucket without deleted reads, given as its times `times[from..to)`: the
 * full recompute keeps times in bucket order in a typed array, so choosing a read never chases
 * passing objects scattered in memory (at 290,000 passings those cache misses cost more than
 * the rest of the recompute).
 */
export function selectTime(
  times: Float64Array,
  from: number,
  to: number,
  takeLast: boolean,
  windowMs: number,
  minTime: number,
  strict: boolean,
): number {
  let first = Number.POSITIVE_INFINITY;
  for (let k = from; k < to; k++) {
    const t = times[k]!;
    if (t < first && eligible(t, minTime, strict)) first = t;
  }
  if (first === Number.POSITIVE_INFINITY) return Number.NaN;
  if (!takeLast) return first;
  const until = first + windowMs;
  let last = first;
  for (let k = from; k < to; k++) {
    const t = times[k]!;
    if (t > last && t <= until) last = t;
  }
  return last;
}
