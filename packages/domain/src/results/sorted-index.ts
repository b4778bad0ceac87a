/**
 * Sorted keys in a typed array: ranks are a binary search and an insert is one `copyWithin` (a
 * memmove), not an object shuffle. Gender and category rankings are such multisets of times:
 * a rank only counts the faster ones, so who holds a time does not matter there.
 */
export interface SortedKeys {
  keys: Float64Array;
  size: number;
}

/**
 * Sorted (key, participant) pairs: the overall ranking of one timing point. Ordered by key, then
 * participant index, so that equal keys sit in a fixed order and an incremental update lands
 * exactly where a full recompute puts it.
 */
export interface SortedIndex extends SortedKeys {
  ids: Int32Array;
}

/** An empty multiset able to hold `capacity` keys before growing. */
export function createSortedKeys(capacity: number): SortedKeys {
  return { keys: new Float64Array(Math.max(4, capacity)), size: 0 };
}

/** An empty index able to hold `capacity` entries before growing. */
export function createSortedIndex(capacity: number): SortedIndex {
  const cap = Math.max(4, capacity);
  return { keys: new Float64Array(cap), ids: new Int32Array(cap), size: 0 };
}

/** A deep copy, so that an incremental state never writes into the results it started from. */
export function cloneSortedKeys(sorted: SortedKeys): SortedKeys {
  return { keys: sorted.keys.slice(), size: sorted.size };
}

/** A deep copy of an index. */
export function cloneSortedIndex(index: SortedIndex): SortedIndex {
  return { keys: index.keys.slice(), ids: index.ids.slice(), size: index.size };
}

/** First position whose key is ≥ `key`: the number of entries strictly smaller. */
export function lowerBound(sorted: SortedKeys, key: number): number {
  const { keys } = sorted;
  let lo = 0;
  let hi = sorted.size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First position whose key is > `key`. */
export function upperBound(sorted: SortedKeys, key: number): number {
  const { keys } = sorted;
  let lo = 0;
  let hi = sorted.size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rank among the entries: 1 + the number strictly smaller, so ties share a rank (1, 2, 2, 4). */
export function rankOf(sorted: SortedKeys, key: number): number {
  return lowerBound(sorted, key) + 1;
}

/** Adds a key to the multiset. */
export function insertKey(sorted: SortedKeys, key: number): void {
  if (sorted.size === sorted.keys.length) {
    const keys = new Float64Array(sorted.keys.length * 2);
    keys.set(sorted.keys);
    sorted.keys = keys;
  }
  const pos = upperBound(sorted, key);
  sorted.keys.copyWithin(pos + 1, pos, sorted.size);
  sorted.keys[pos] = key;
  sorted.size++;
}

/** Removes one occurrence of a key; false when absent. */
export function removeKey(sorted: SortedKeys, key: number): boolean {
  const pos = lowerBound(sorted, key);
  if (pos >= sorted.size || sorted.keys[pos] !== key) return false;
  sorted.keys.copyWithin(pos, pos + 1, sorted.size);
  sorted.size--;
  return true;
}

/** Position of the pair (key, id), or where it would go. */
function pairPosition(index: SortedIndex, key: number, id: number): number {
  const { keys, ids } = index;
  let lo = 0;
  let hi = index.size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid]!;
    if (k < key || (k === key && ids[mid]! < id)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts (key, id); grows the arrays if needed. */
export function insertEntry(index: SortedIndex, key: number, id: number): void {
  if (index.size === index.keys.length) {
    const keys = new Float64Array(index.keys.length * 2);
    const ids = new Int32Array(index.ids.length * 2);
    keys.set(index.keys);
    ids.set(index.ids);
    index.keys = keys;
    index.ids = ids;
  }
  const pos = pairPosition(index, key, id);
  index.keys.copyWithin(pos + 1, pos, index.size);
  index.ids.copyWithin(pos + 1, pos, index.size);
  index.keys[pos] = key;
  index.ids[pos] = id;
  index.size++;
}

/** Removes (key, id); false when absent. */
export function removeEntry(index: SortedIndex, key: number, id: number): boolean {
  const pos = pairPosition(index, key, id);
  if (pos >= index.size || index.keys[pos] !== key || index.ids[pos] !== id) return false;
  index.keys.copyWithin(pos, pos + 1, index.size);
  index.ids.copyWithin(pos, pos + 1, index.size);
  index.size--;
  return true;
}
