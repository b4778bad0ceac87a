import { committed, databaseOpener, deviceId, resultOf } from '../../lib/idb.ts';

/**
 * The offline desk's queue (issue 15: finish lines have poor networks). Every manual entry is
 * written to IndexedDB at the key press — with its key-press time and a client-made id — before
 * anything is sent; it is marked sent once the server stored it. The server keys a manual read
 * by that id (`m:<clientId>`), so an entry sent twice (a reply lost, a reload mid-send) is one read.
 */
export interface QueuedEntry {
  clientId: string;
  db: string;
  bib: string;
  pointKey: string;
  /** Key-press time, UTC epoch ms (corrected by the server clock's skew when known). */
  timeMs: number;
  state: 'pending' | 'sent';
  /** The server's verdict once sent: false when the bib is nobody's. */
  known: boolean | null;
  name: string | null;
}

const DB_NAME = 'tempora-raceday';
const STORE = 'entries';
/** Sent entries kept on the device for the helper's list. */
const KEEP_SENT = 300;

const open = databaseOpener(DB_NAME, 1, (db) => {
  db.createObjectStore(STORE, { keyPath: 'clientId' }).createIndex('db', 'db');
});
const done = committed;

/** A new client id: random, URL-safe, 22 characters. */
export const newClientId = deviceId;

/** Writes entries (durably, before the caller says "saved"). */
export async function putEntries(entries: QueuedEntry[]): Promise<void> {
  const db = await open();
  const tx = db.transaction(STORE, 'readwrite');
  for (const e of entries) tx.objectStore(STORE).put(e);
  await done(tx);
}

/** Every entry of a context, oldest first. */
export async function entriesOf(context: string): Promise<QueuedEntry[]> {
  const db = await open();
  const rows = await resultOf<QueuedEntry[]>(
    db.transaction(STORE, 'readonly').objectStore(STORE).index('db').getAll(context),
  );
  return rows.sort((a, b) => a.timeMs - b.timeMs);
}

/** Drops the oldest sent entries beyond KEEP_SENT. */
export async function trimSent(context: string): Promise<void> {
  const sent = (await entriesOf(context)).filter((e) => e.state === 'sent');
  if (sent.length <= KEEP_SENT) return;
  const db = await open();
  const tx = db.transaction(STORE, 'readwrite');
  for (const e of sent.slice(0, sent.length - KEEP_SENT)) tx.objectStore(STORE).delete(e.clientId);
  await done(tx);
}

/** Drops entries the helper chose not to send (an official race's, issue 43). */
export async function removeEntries(clientIds: readonly string[]): Promise<void> {
  if (!clientIds.length) return;
  const db = await open();
  const tx = db.transaction(STORE, 'readwrite');
  for (const id of clientIds) tx.objectStore(STORE).delete(id);
  await done(tx);
}
