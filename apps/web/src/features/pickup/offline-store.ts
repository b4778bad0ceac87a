import type { PickupList, PickupOp, PickupOpAnswer } from '@tempora/contracts';

/**
 * The pickup phone's own storage (issue 39: a sports hall without signal). The event's pickup
 * list is kept after each online load, so the page and its search work offline; every operation
 * (handout, bib, chip, payment, late entry) is written here first, with the id the server keeps
 * it by, and marked sent once answered — a retry, a reload or two phones never make it twice.
 */
export interface QueuedOp {
  opId: string;
  eventId: string;
  op: PickupOp;
  state: 'pending' | 'sent';
  answer: PickupOpAnswer | null;
  /** When it was made on this phone (ms). */
  madeAt: number;
}

const DB_NAME = 'tempora-pickup';
const LISTS = 'lists';
const OPS = 'ops';
let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(LISTS);
      request.result.createObjectStore(OPS, { keyPath: 'opId' }).createIndex('eventId', 'eventId');
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opening = null;
      reject(request.error);
    };
  });
  return opening;
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

function read<T>(request: IDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result as T);
    request.onerror = () => reject(request.error);
  });
}

/** Keeps the event's list (the last one loaded online). */
export async function saveList(list: PickupList): Promise<void> {
  const db = await open();
  const tx = db.transaction(LISTS, 'readwrite');
  tx.objectStore(LISTS).put(list, list.event.id);
  await done(tx);
}

export async function storedList(eventId: string): Promise<PickupList | null> {
  const db = await open();
  return (await read<PickupList | undefined>(db.transaction(LISTS).objectStore(LISTS).get(eventId))) ?? null;
}

export async function putOps(ops: QueuedOp[]): Promise<void> {
  const db = await open();
  const tx = db.transaction(OPS, 'readwrite');
  for (const op of ops) tx.objectStore(OPS).put(op);
  await done(tx);
}

/** Every operation of an event made on this phone, oldest first. */
export async function opsOf(eventId: string): Promise<QueuedOp[]> {
  const db = await open();
  const rows = await read<QueuedOp[]>(db.transaction(OPS).objectStore(OPS).index('eventId').getAll(eventId));
  return rows.sort((a, b) => a.madeAt - b.madeAt);
}

/** A new operation id: random, URL-safe, 22 characters. */
export function newOpId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
