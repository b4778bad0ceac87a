import type { Sql } from '../../../db/database.ts';
import type { Procedure } from '../../../db/procedure.ts';
import { recordAudit } from '../../../lib/audit.ts';
import { freeStructuredMany, insertRegistrationOrders, nextOrderIds } from '../../payments/port.ts';
import { holdMany as holdStocks, lockStocks } from '../counters.ts';
import * as repo from '../repository.ts';
import type { CheckedRunner, EntryRules } from './runner-check.ts';

/**
 * A paying order of the rush as its batch needs it (`enter.ts` queues them): plain data, so that
 * the batch can run on the database's own thread (`holdBatchProcedure`).
 */
export interface BatchOrder {
  user: { sub: string; email: string };
  eventId: string;
  input: { lang: 'en' | 'fr' };
  checked: CheckedRunner[];
  codes: string[];
  total: number;
  expires: Date;
  currency: string;
  rules: Pick<EntryRules, 'waiver'>;
}

/** An order of the batch held (its order id) or refused (the runner and the stock that ran out). */
export type BatchOutcome = { orderId: string } | { refused: { n: number; out: 'race' | 'addOn' | 'code' } };

/** The units a checked runner's entry holds. */
export const unitsOfChecked = (r: CheckedRunner) => ({
  raceId: r.race.raceId,
  addOns: r.addOns.map((a) => ({ id: a.id, quantity: a.quantity })),
  codeId: r.code?.id ?? null,
});

/** A checked runner's held entry. */
export function newEntry(
  o: {
    eventId: string;
    input: { lang: 'en' | 'fr' };
    expires: Date;
    rules: Pick<EntryRules, 'waiver'>;
    user: { email: string };
  },
  r: CheckedRunner,
  code: string,
  orderId: string,
  accountSub: string | null,
): repo.NewEntry {
  return {
    code,
    eventId: o.eventId,
    raceId: r.race.raceId,
    orderId,
    accountSub,
    email: r.details.email || o.user.email,
    lang: o.input.lang,
    state: 'held',
    details: { ...r.details, email: r.details.email || o.user.email },
    answers: r.answers,
    addOns: r.addOns,
    codeId: r.code?.id ?? null,
    memberCode: r.memberCode,
    entryCents: r.entryCents,
    discountCents: r.discountCents,
    addOnsCents: r.addOnsCents,
    waiverVersion: o.rules.waiver?.version ?? null,
    holdExpiresAt: o.expires,
    waitlistId: null,
    source: 'online',
  };
}

/**
 * One batch of the rush's paying orders in the caller's transaction (see `createEnter`): the
 * stocks' rows locked, the units left given to the orders in their order of arrival (an order
 * gets all its units or none), each row's total held with one conditional UPDATE, then the
 * orders, entries and audit lines inserted with one statement each. A refused order's answer is
 * the runner and the stock that ran out.
 */
export async function holdMany(sql: Sql, batch: readonly BatchOrder[]): Promise<BatchOutcome[]> {
  const runners = batch.flatMap((a) => a.checked);
  const unique = (ids: (string | null | undefined)[]) => [...new Set(ids.filter((i): i is string => !!i))];
  const left = {
    race: await lockStocks(sql, 'registration_races', unique(runners.map((r) => r.race.raceId))),
    addOn: await lockStocks(
      sql,
      'registration_addons',
      unique(runners.flatMap((r) => r.addOns.map((a) => a.id))),
    ),
    code: await lockStocks(sql, 'registration_codes', unique(runners.map((r) => r.code?.id))),
  };
  type Kind = keyof typeof left;
  const want: Record<Kind, Map<string, number>> = { race: new Map(), addOn: new Map(), code: new Map() };
  const answers: (BatchOutcome | null)[] = [];
  for (const a of batch) {
    const mine: Record<Kind, Map<string, number>> = { race: new Map(), addOn: new Map(), code: new Map() };
    const take = (kind: Kind, id: string, n: number) => {
      const have = (left[kind].get(id) ?? 0) - (mine[kind].get(id) ?? 0);
      if (have < n) return false;
      mine[kind].set(id, (mine[kind].get(id) ?? 0) + n);
      return true;
    };
    let refused: BatchOutcome | null = null;
    for (const [n, r] of a.checked.entries()) {
      const out = !take('race', r.race.raceId, 1)
        ? 'race'
        : !r.addOns.every((x) => take('addOn', x.id, x.quantity))
          ? 'addOn'
          : r.code && !take('code', r.code.id, 1)
            ? 'code'
            : null;
      if (out) {
        refused = { refused: { n, out } };
        break;
      }
    }
    answers.push(refused);
    if (refused) continue;
    for (const kind of ['race', 'addOn', 'code'] as const)
      for (const [id, n] of mine[kind]) {
        left[kind].set(id, (left[kind].get(id) ?? 0) - n);
        want[kind].set(id, (want[kind].get(id) ?? 0) + n);
      }
  }
  if (
    !(await holdStocks(sql, 'registration_races', want.race)) ||
    !(await holdStocks(sql, 'registration_addons', want.addOn)) ||
    !(await holdStocks(sql, 'registration_codes', want.code))
  )
    throw new Error('A stock changed under its lock');
  const held = batch.filter((_, k) => !answers[k]);
  const ids = held.length ? await nextOrderIds(sql, held.length) : [];
  const structured = held.length ? await freeStructuredMany(sql, held.length) : [];
  await insertRegistrationOrders(
    sql,
    held.map((a, k) => ({
      id: ids[k] as string,
      eventId: a.eventId,
      payerSub: a.user.sub,
      amountCents: a.total,
      currency: a.currency,
      structured: structured[k] as string,
      expiresAt: a.expires,
    })),
  );
  const entries = held.flatMap((a, k) =>
    a.checked.map((r, n) => ({ a, r, orderId: ids[k] as string, code: a.codes[n] as string })),
  );
  await repo.insertHeldEntries(
    sql,
    entries.map((e) => newEntry(e.a, e.r, e.code, e.orderId, e.a.user.sub)),
  );
  await recordAudit(
    sql,
    entries.map((e) => ({
      subject: 'entry' as const,
      subjectId: e.code,
      eventId: e.a.eventId,
      action: 'held',
      actorSub: e.a.user.sub,
      detail: { orderId: e.orderId, totalCents: e.r.totalCents },
    })),
  );
  let next = 0;
  return answers.map((refused) => refused ?? { orderId: ids[next++] as string });
}

/**
 * The batch as a procedure (db/procedure.ts): with PGlite on its own thread the whole
 * transaction runs there, one message each way instead of one per statement (issue 38: with a
 * message per statement, a batch's thirteen statements each waited for a turn of the busy main
 * thread, and the rush's batches held the database ≈ 0.3–0.9 s while the runners' sign-in reads
 * waited behind them).
 */
export const holdBatchProcedure: Procedure<readonly BatchOrder[], BatchOutcome[]> = {
  name: 'entries.holdBatch',
  run: holdMany,
};
