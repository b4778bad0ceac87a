import type { PickupList, PickupOp, PickupRunner } from '@tempora/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { getPickupList, postPickupOps } from '../api/pickup.ts';
import { newOpId, opsOf, putOps, type QueuedOp, saveList, storedList } from '../offline-store.ts';

const BATCH = 100;
const RETRY_MS = 3_000;

/** A runner as this phone knows them: the list, then what this phone did not sent yet. */
function applyPending(runner: PickupRunner, ops: readonly QueuedOp[], me: string): PickupRunner {
  let r = runner;
  for (const { op } of ops) {
    if (!('participantId' in op) || op.participantId !== r.id) continue;
    if (op.kind === 'handout' && !r.handedOut) r = { ...r, handedOut: { at: op.at, by: me } };
    if (op.kind === 'chip' && !r.chips.includes(op.chip)) r = { ...r, chips: [...r.chips, op.chip] };
    if (op.kind === 'bib' && op.bib) r = { ...r, bib: op.bib };
    if (op.kind === 'pay') r = { ...r, unpaidCents: Math.max(0, r.unpaidCents - op.amountCents) };
  }
  return r;
}

/** The list with the runners the server answered with (a late entry: a new runner). */
function withRunners(list: PickupList, runners: readonly PickupRunner[]): PickupList {
  if (!runners.length) return list;
  const byId = new Map(runners.map((r) => [r.id, r]));
  const known = new Set(list.runners.map((r) => r.id));
  return {
    ...list,
    runners: [...list.runners.map((r) => byId.get(r.id) ?? r), ...runners.filter((r) => !known.has(r.id))],
  };
}

/**
 * The volunteer's pickup state (issue 39): the event's list (from the network, kept on the phone;
 * from the phone when offline), the operations made here (written to IndexedDB first, sent in
 * batches at once, on `online` and every 3 s while some wait), their answers applied to the list.
 */
export function usePickup(eventId: string, me: string) {
  const [list, setList] = useState<PickupList | null>(null);
  const [fromPhone, setFromPhone] = useState(false);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [ops, setOps] = useState<QueuedOp[]>([]);
  const [sendError, setSendError] = useState<string | null>(null);
  const sending = useRef(false);
  const listRef = useRef<PickupList | null>(null);

  const keep = useCallback(async (next: PickupList) => {
    listRef.current = next;
    setList(next);
    await saveList(next);
  }, []);

  const reloadOps = useCallback(async () => setOps(await opsOf(eventId)), [eventId]);

  const sync = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    try {
      for (;;) {
        const pending = (await opsOf(eventId)).filter((o) => o.state === 'pending').slice(0, BATCH);
        if (!pending.length) break;
        const { answers } = await postPickupOps(
          eventId,
          pending.map((o) => o.op),
        );
        const byId = new Map(answers.map((a) => [a.opId, a]));
        const settled = pending
          .map((o) => ({ ...o, answer: byId.get(o.opId) ?? null }))
          .filter((o) => o.answer && o.answer.status !== 'pending')
          .map((o) => ({ ...o, state: 'sent' as const }));
        await putOps(settled);
        const runners = answers.flatMap((a) => (a.runner ? [a.runner] : []));
        if (listRef.current) await keep(withRunners(listRef.current, runners));
        setSendError(null);
        if (settled.length < pending.length) break;
      }
    } catch (e) {
      // Offline or refused as a whole: the operations wait on the phone and go again later.
      setSendError(e instanceof ApiError && !e.isNetwork ? e.message : null);
    } finally {
      sending.current = false;
      await reloadOps();
    }
  }, [eventId, keep, reloadOps]);

  const load = useCallback(async () => {
    try {
      await keep(await getPickupList(eventId));
      setFromPhone(false);
      setLoadError(null);
    } catch (e) {
      const stored = await storedList(eventId);
      if (stored) {
        listRef.current = stored;
        setList(stored);
        setFromPhone(true);
      } else setLoadError(e);
    }
  }, [eventId, keep]);

  useEffect(() => {
    void reloadOps().then(load).then(sync);
    const onOnline = () => void load().then(sync);
    window.addEventListener('online', onOnline);
    const timer = setInterval(() => void sync(), RETRY_MS);
    return () => {
      window.removeEventListener('online', onOnline);
      clearInterval(timer);
    };
  }, [load, reloadOps, sync]);

  /** Records an operation on the phone, then tries to send it. */
  const add = useCallback(
    async (op: DistributiveOmit<PickupOp, 'opId' | 'at'>) => {
      const opId = newOpId();
      const full = { ...op, opId, at: new Date().toISOString() } as PickupOp;
      await putOps([{ opId, eventId, op: full, state: 'pending', answer: null, madeAt: Date.now() }]);
      await reloadOps();
      void sync();
      return opId;
    },
    [eventId, reloadOps, sync],
  );

  const pending = useMemo(() => ops.filter((o) => o.state === 'pending'), [ops]);
  const runners = useMemo(
    () => (list ? list.runners.map((r) => applyPending(r, pending, me)) : []),
    [list, pending, me],
  );
  return { list, runners, fromPhone, loadError, ops, pending: pending.length, add, sync, sendError, load };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
