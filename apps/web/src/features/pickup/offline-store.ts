import type { PickupList, PickupOp, PickupOpAnswer } from '@tempora/contracts';
import { committed, databaseOpener, deviceId, resultOf } from '../../lib/idb.ts';

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
const open = databaseOpener(DB_NAME, 1, (db) => {
  db.createObjectStore(LISTS);
  db.createObjectStore(OPS, { keyPath: 'opId' }).createIndex('eventId', 'eventId');
});
const done = committed;
const read = resultOf;

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
export const newOpId = deviceId;
