/**
 * The device's own storage for pages that work without network (the desk, issue 15; pickup,
 * issue 39): one IndexedDB database per page, opened once, and the few promise wrappers the
 * browser's callback API needs. What each page stores, and when it counts as durable, is the page's.
 */

/** Opens (and upgrades) a database once per page load; a failed open is tried again next time. */
export function databaseOpener(name: string, version: number, upgrade: (db: IDBDatabase) => void) {
  let opening: Promise<IDBDatabase> | null = null;
  return (): Promise<IDBDatabase> => {
    opening ??= new Promise((resolve, reject) => {
      const request = indexedDB.open(name, version);
      request.onupgradeneeded = () => upgrade(request.result);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => {
        opening = null;
        reject(request.error);
      };
    });
    return opening;
  };
}

/** Resolves once a transaction is committed (durable), rejects if it fails or is aborted. */
export function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** A request's result. */
export function resultOf<T>(request: IDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result as T);
    request.onerror = () => reject(request.error);
  });
}

/** A new id made on the device: random, URL-safe, 22 characters (the server keeps work by it). */
export function deviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
