import type { ManualResult } from '@tempora/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, apiPost } from '../../../lib/api-client.ts';
import { entriesOf, newClientId, putEntries, type QueuedEntry, trimSent } from '../offline-queue.ts';

const BATCH = 100;
const RETRY_MS = 3_000;

/** What `POST …/manual` answers (contracts: the route declares it). */
type ManualAnswer = ManualResult;

/**
 * The desk's entries of a context: added to IndexedDB at the key press, sent in batches when the
 * network allows (at once, on `online`, and every 3 s while some are pending).
 */
export function useDeskQueue(db: string | null) {
  const [entries, setEntries] = useState<QueuedEntry[]>([]);
  const [error, setError] = useState<string | null>(null);
  const sending = useRef(false);

  const reload = useCallback(async () => {
    if (db) setEntries(await entriesOf(db));
  }, [db]);

  const sync = useCallback(async () => {
    if (!db || sending.current) return;
    sending.current = true;
    try {
      for (;;) {
        const pending = (await entriesOf(db)).filter((e) => e.state === 'pending').slice(0, BATCH);
        if (!pending.length) break;
        const answer = await apiPost<ManualAnswer>(
          'apiUrlBase',
          `raceday/contexts/${encodeURIComponent(db)}/manual`,
          {
            entries: pending.map(({ clientId, bib, pointKey, timeMs }) => ({
              clientId,
              bib,
              pointKey,
              timeMs,
            })),
          },
        );
        const verdict = new Map(answer.entries.map((e) => [e.clientId, e]));
        await putEntries(
          pending.map((e) => ({
            ...e,
            state: 'sent',
            known: verdict.get(e.clientId)?.known ?? null,
            name: verdict.get(e.clientId)?.name ?? null,
          })),
        );
        setError(null);
      }
      await trimSent(db);
    } catch (e) {
      // Offline or the server refused: entries stay pending and are sent again later.
      setError(e instanceof ApiError && !e.isNetwork ? e.message : null);
    } finally {
      sending.current = false;
      await reload();
    }
  }, [db, reload]);

  useEffect(() => {
    void reload().then(sync);
    const onOnline = () => void sync();
    window.addEventListener('online', onOnline);
    const timer = setInterval(() => void sync(), RETRY_MS);
    return () => {
      window.removeEventListener('online', onOnline);
      clearInterval(timer);
    };
  }, [reload, sync]);

  /** Records entries (key-press times given), then tries to send them. */
  const add = useCallback(
    async (items: { bib: string; pointKey: string; timeMs: number; name: string | null }[]) => {
      if (!db) return;
      await putEntries(
        items.map((i) => ({
          clientId: newClientId(),
          db,
          bib: i.bib,
          pointKey: i.pointKey,
          timeMs: i.timeMs,
          state: 'pending',
          known: null,
          name: i.name,
        })),
      );
      await reload();
      void sync();
    },
    [db, reload, sync],
  );

  return { entries, pending: entries.filter((e) => e.state === 'pending').length, add, sync, error };
}
