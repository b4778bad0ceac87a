import type { ManualResult } from '@tempora/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, apiPost } from '../../../lib/api-client.ts';
import {
  entriesOf,
  newClientId,
  putEntries,
  type QueuedEntry,
  removeEntries,
  trimSent,
} from '../offline-queue.ts';

const BATCH = 100;
const RETRY_MS = 3_000;

/** What `POST …/manual` answers (contracts: the route declares it). */
type ManualAnswer = ManualResult;

/**
 * Entries held because their race's results are official (issue 43): the server refused them
 * (409 `RACE_OFFICIAL`); the desk asks whether to send them as a correction with a reason (the
 * organiser only: `needsOrganiser` once the server said so) or to drop them. Nothing is sent again
 * meanwhile.
 */
export interface OfficialHold {
  raceId: string | null;
  /** The race's name as the server gave it. */
  race: string | null;
  needsOrganiser: boolean;
}

/**
 * The desk's entries of a context: added to IndexedDB at the key press, sent in batches when the
 * network allows (at once, on `online`, and every 3 s while some are pending) — unless an official
 * race held them (`official`: `confirm` sends them as a correction, `discard` drops them).
 */
export function useDeskQueue(db: string | null) {
  const [entries, setEntries] = useState<QueuedEntry[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [official, setOfficial] = useState<OfficialHold | null>(null);
  const held = useRef(false);
  const sending = useRef(false);

  const reload = useCallback(async () => {
    if (db) setEntries(await entriesOf(db));
  }, [db]);

  const sync = useCallback(
    async (correction?: { reason: string }) => {
      if (!db || sending.current || (held.current && !correction)) return;
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
              ...(correction ? { correction } : {}),
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
        held.current = false;
        setOfficial(null);
        await trimSent(db);
      } catch (e) {
        if (
          e instanceof ApiError &&
          (e.code === 'RACE_OFFICIAL' || e.code === 'CORRECTION_NEEDS_ORGANISER')
        ) {
          // Official results (issue 43): held until the helper confirms a correction or drops them.
          held.current = true;
          setOfficial((was) => ({
            raceId: e.fieldErrors.raceId?.[0] ?? was?.raceId ?? null,
            race: e.fieldErrors.race?.[0] ?? was?.race ?? null,
            needsOrganiser: e.code === 'CORRECTION_NEEDS_ORGANISER',
          }));
          setError(null);
          return;
        }
        // Offline or the server refused: entries stay pending and are sent again later.
        setError(e instanceof ApiError && !e.isNetwork ? e.message : null);
      } finally {
        sending.current = false;
        await reload();
      }
    },
    [db, reload],
  );

  useEffect(() => {
    void reload().then(() => sync());
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

  /** Sends the held entries as a correction of official results, with the organiser's reason. */
  const confirm = useCallback((reason: string) => sync({ reason }), [sync]);

  /** Drops the held entries (not sent): the official results stay as they are. */
  const discard = useCallback(async () => {
    if (!db) return;
    await removeEntries((await entriesOf(db)).filter((e) => e.state === 'pending').map((e) => e.clientId));
    held.current = false;
    setOfficial(null);
    await reload();
  }, [db, reload]);

  return {
    entries,
    pending: entries.filter((e) => e.state === 'pending').length,
    add,
    sync,
    error,
    official,
    confirm,
    discard,
  };
}
