/**
 * A map from strings to numbers (bib or chip → participant) laid out in typed arrays: an
 * open-addressing table of hashes and key numbers, every key's characters packed in one array,
 * and a dense array for keys that are plain decimal numbers, as most bibs are. A full recompute
 * looks up 290,000 passings whose bibs are fresh strings from a database, in arrival order: a
 * `Map` then chases a key string and an entry scattered in the heap on every look-up (≈ 150 ns
 * each here), while these arrays stay in cache (≈ 25 ns). Keys are added once, in one pass:
 * participants loaded from a database lie all over the heap and each visit is a cache miss.
 */
export interface StringTable {
  mask: number;
  /** Per slot: number of the key stored there, -1 when empty; and that key's hash. */
  slotKey: Int32Array;
  slotHash: Int32Array;
  /** Key k's characters are `chars[keyStart[k] .. keyStart[k + 1])`. */
  chars: Uint16Array;
  keyStart: Int32Array;
  values: Int32Array;
  count: number;
  /** Value per canonical decimal key below its length, -1 for none. */
  readonly numeric: Int32Array;
  /** Keys added more than once: the first one keeps its value. */
  readonly duplicates: string[];
}

/** The number a canonical decimal string spells ("12", not "012" or "+12"), or -1. */
function decimalValue(s: string): number {
  const n = s.length;
  if (n === 0 || n > 9) return -1;
  let v = s.charCodeAt(0) - 48;
  if (v < 1 || v > 9) return n === 1 && v === 0 ? 0 : -1;
  for (let k = 1; k < n; k++) {
    const d = s.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** FNV-1a over UTF-16 code units. */
function hashOf(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h;
}

function matchesKey(t: StringTable, key: number, s: string): boolean {
  const from = t.keyStart[key]!;
  if (t.keyStart[key + 1]! - from !== s.length) return false;
  for (let k = 0; k < s.length; k++) if (t.chars[from + k] !== s.charCodeAt(k)) return false;
  return true;
}

/** Slot holding `s` (of hash h), or the empty slot where it would go. */
function probe(t: StringTable, s: string, h: number): number {
  for (let slot = h & t.mask; ; slot = (slot + 1) & t.mask) {
    const key = t.slotKey[slot]!;
    if (key < 0 || (t.slotHash[slot] === h && matchesKey(t, key, s))) return slot;
  }
}

function grown<T extends Int32Array | Uint16Array>(a: T, needed: number): T {
  if (needed <= a.length) return a;
  const bigger = new (a.constructor as new (n: number) => T)(Math.max(needed, a.length * 2));
  bigger.set(a);
  return bigger;
}

/** Doubles the slots (kept at most half full so that probes stay short) and re-places keys. */
function rehash(t: StringTable): void {
  const slotHash = t.slotHash;
  const slotKey = t.slotKey;
  t.mask = slotKey.length * 2 - 1;
  t.slotKey = new Int32Array(slotKey.length * 2).fill(-1);
  t.slotHash = new Int32Array(slotKey.length * 2);
  for (let old = 0; old < slotKey.length; old++) {
    if (slotKey[old]! < 0) continue;
    let slot = slotHash[old]! & t.mask;
    while (t.slotKey[slot]! >= 0) slot = (slot + 1) & t.mask;
    t.slotKey[slot] = slotKey[old]!;
    t.slotHash[slot] = slotHash[old]!;
  }
}

/**
 * An empty table for about `expected` keys. Decimal keys below 4 × expected (bibs numbered 1..n,
 * or by thousands per wave) go to the dense array; the hashed part starts small and grows, as
 * most races have few other bibs: every megabyte allocated costs here (see bench).
 */
export function createStringTable(expected: number): StringTable {
  return {
    mask: 15,
    slotKey: new Int32Array(16).fill(-1),
    slotHash: new Int32Array(16),
    chars: new Uint16Array(64),
    keyStart: new Int32Array(16),
    values: new Int32Array(16),
    count: 0,
    numeric: new Int32Array(Math.min(1 << 22, 4 * expected + 1024)).fill(-1),
    duplicates: [],
  };
}

/** Adds `key` → `value`; a key already present keeps its first value and is listed. */
export function addString(t: StringTable, key: string, value: number): void {
  const v = decimalValue(key);
  if (v >= 0 && v < t.numeric.length) {
    if (t.numeric[v]! >= 0) t.duplicates.push(key);
    else t.numeric[v] = value;
    return;
  }
  const h = hashOf(key);
  const slot = probe(t, key, h);
  if (t.slotKey[slot]! >= 0) {
    t.duplicates.push(key);
    return;
  }
  const k = t.count++;
  const from = t.keyStart[k]!;
  t.keyStart = grown(t.keyStart, k + 2);
  t.chars = grown(t.chars, from + key.length);
  t.values = grown(t.values, k + 1);
  for (let c = 0; c < key.length; c++) t.chars[from + c] = key.charCodeAt(c);
  t.keyStart[k + 1] = from + key.length;
  t.values[k] = value;
  t.slotKey[slot] = k;
  t.slotHash[slot] = h;
  if (t.count * 2 > t.slotKey.length) rehash(t);
}

/** Value of `s`, or -1 when absent. */
export function lookupString(t: StringTable, s: string): number {
  const v = decimalValue(s);
  if (v >= 0 && v < t.numeric.length) return t.numeric[v]!;
  const key = t.slotKey[probe(t, s, hashOf(s))]!;
  return key < 0 ? -1 : t.values[key]!;
}
