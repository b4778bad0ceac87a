import type { EntryOrder, EntryOrderInput } from '@tempora/contracts';
import { entryOrderInputSchema } from '@tempora/contracts';
import { holdExpiresAt } from '@tempora/domain';
import type { Sql } from '../../../db/database.ts';
import { AppError, errors } from '../../../errors.ts';
import { freeStructured, insertOrder, nextOrderId, ordersWhere } from '../../payments/port.ts';
import { holdEntry } from '../counters.ts';
import * as repo from '../repository.ts';
import * as settingsRepo from '../settings-repository.ts';
import { takeCreditPlace } from './credits.ts';
import {
  type BatchOrder,
  type BatchOutcome,
  holdBatchProcedure,
  newEntry,
  unitsOfChecked,
} from './hold-batch.ts';
import { type CheckedRunner, checkRunner, type EntryRules, entryRules } from './runner-check.ts';
import { settleEntryOrder } from './settle.ts';
import { auditEntry, type EntriesContext, fieldProblem } from './shared.ts';
import { takeInvitation } from './waitlist.ts';

/**
 * An order of a team's members (teams.ts): its entries carry the team; `reserve` counts the
 * members under the team's lock, `entered` links each member to the entry holding their place;
 * `accounts` are the members' own accounts when the captain pays for them.
 */
export interface TeamOrder {
  id: string;
  accounts?: readonly (string | null)[];
  reserve(sql: Sql, runners: number): Promise<void>;
  entered(sql: Sql, n: number, code: string): Promise<void>;
}

const STOCK_CODES = { race: 'RACE_FULL', addOn: 'ADDON_SOLD_OUT', code: 'CODE_USED_UP' } as const;
const STOCK = new Set<string>(Object.values(STOCK_CODES));

/** The refusal of runner `n`'s stock that ran out, on its field. */
const stockProblem = (n: number, out: 'race' | 'addOn' | 'code') =>
  fieldProblem(409, [
    {
      field: `runners.${n}.${out === 'race' ? 'raceId' : out === 'addOn' ? 'addOns' : 'discountCode'}`,
      code: STOCK_CODES[out],
    },
  ]);

/** A checked order waiting in its event's queue for the next batch (see `createEnter`). */
interface Arrival {
  user: { sub: string; email: string };
  eventId: string;
  at: Date;
  input: ReturnType<typeof entryOrderInputSchema.parse>;
  checked: CheckedRunner[];
  codes: string[];
  total: number;
  expires: Date;
  terms: settingsRepo.EventTerms;
  rules: EntryRules;
  resolve(orderId: string): void;
  reject(error: unknown): void;
}

/** What a queued order's batch needs of it (hold-batch.ts: plain data, sent to the database's thread). */
const batchOrder = (a: Arrival): BatchOrder => ({
  user: { sub: a.user.sub, email: a.user.email },
  eventId: a.eventId,
  input: { lang: a.input.lang },
  checked: a.checked,
  codes: a.codes,
  total: a.total,
  expires: a.expires,
  currency: a.terms.currency,
  rules: { waiver: a.rules.waiver },
});

/**
 * The most orders one batch takes. 256 until 2026-12-05: in the rush a batch's thirteen statements
 * cost about the same whatever its size, and the orders of the opening second waited for batch
 * after batch of 256 (≈ 0.5 s each; 2,048: one batch of 1,700–1,900 orders in 0.3 s once warm).
 */
const BATCH = 2048;

/**
 * How long a refusal's recount waits for the refusals after it to share the read (see `recount`):
 * they are answered that much later, never wrongly.
 */
const RECOUNT_GATHER_MS = 25;

/** Pay steps of entry orders run at once at most (see `payTurn`). */
const PAY_AT_ONCE = 4;
/** The longest a pay step waits for the entries before it (see `payTurn`). */
const PAY_WAIT_MS = 10_000;

/** The event's terms and rules, with the number of the read (reads are numbered as they start). */
interface RulesRead {
  at: number;
  read: number;
  terms: settingsRepo.EventTerms | null;
  rules: EntryRules;
}

/**
 * Entering (issue 38): one order for one or several runners (a family), each checked and priced
 * alone, then its order, entries and holds written in one transaction. A stock that ran out
 * rolls the order back: bad input changes nothing. A free order is confirmed at once; others
 * wait for their payment until the hold expires.
 *
 * The rush (issue 38, product.md: 20,000 runners for 5,000 places): paying orders wait in their
 * event's queue, in order of arrival, and are written in batches — while one batch is in the
 * database (or waits for it) the next arrivals queue, and the next batch takes them all (at most
 * `BATCH`) when its transaction begins: one
 * transaction locks the stocks' rows, gives the units left to the orders in their order of
 * arrival (an order gets all its units or none), holds each row's total with one conditional
 * UPDATE (`holdMany`; the CHECK constraints stay the last word) and inserts the orders, entries
 * and audit lines with one statement each. On PGlite's one thread that is ~9 statements for a
 * batch instead of ~8 per order. A batch that fails for another reason (a deadlock between two
 * nodes) is done again order by order. Team orders, invitations and free orders go alone.
 */
export function createEnter(ctx: EntriesContext) {
  const { database, now } = ctx;

  /**
   * The event's terms and rules, read at most once per second per node: when a popular race
   * opens, thousands of requests a second would otherwise read the same rows, and the runners
   * refused because the race is full would cost the database as much as those who enter. The
   * counts in them only spare the database a hopeless transaction: the holds in the transaction
   * are what count. A runner refused by counts read before their arrival is checked again
   * against counts read after it (a place freed meanwhile — a cancellation, an expiry — is
   * offered); all the runners waiting for such a read share one.
   */
  const cache = new Map<string, RulesRead>();
  const reading = new Map<string, Promise<RulesRead>>();
  /** Reads started so far (a read numbered above a request's arrival began after it). */
  let reads = 0;
  /** The reads started when an event's settings changed (none of them is kept). */
  const forgotten = new Map<string, number>();

  function read(eventId: string): Promise<RulesRead> {
    const number = ++reads;
    const promise = (async () => {
      const fresh: RulesRead = {
        at: 0,
        read: number,
        terms: await settingsRepo.eventTerms(database, eventId),
        rules: {
          ...(await entryRules(database, eventId)),
          codes: new Map(
            (await settingsRepo.codesOf(database, eventId)).map((c) => [c.code.trim().toUpperCase(), c]),
          ),
        },
      };
      // The second counts from the end of the read: when the database is slow (the rush on
      // PGlite's one thread), a read longer than a second must not make the next request read again.
      fresh.at = now().getTime();
      if ((cache.get(eventId)?.read ?? 0) < number && (forgotten.get(eventId) ?? 0) < number)
        cache.set(eventId, fresh);
      return fresh;
    })();
    reading.set(eventId, promise);
    const done = () => {
      if (reading.get(eventId) === promise) reading.delete(eventId);
    };
    promise.then(done, done);
    return promise;
  }

  /** Rules read in the last second (since the read ended), else those being read, else a new read. */
  async function rulesOf(eventId: string, at: Date): Promise<RulesRead> {
    const hit = cache.get(eventId);
    if (hit && at.getTime() - hit.at < 1000 && at.getTime() >= hit.at) return hit;
    return reading.get(eventId) ?? read(eventId);
  }

  /**
   * The counts (places, add-on units, code uses) read again in one statement, the rest of the
   * rules kept: the cache gets the new counts, not a new age. One recount at a time per event.
   */
  const counting = new Map<string, Promise<RulesRead>>();
  function recount(eventId: string, base: RulesRead): Promise<RulesRead> {
    const promise = (async () => {
      // The refusals of the next RECOUNT_GATHER_MS share this read (the rush: once the race is
      // full, 15,000 refusals made ~8,500 reads, one each). Numbered when it starts: it serves
      // every request that arrived before.
      await new Promise((r) => setTimeout(r, RECOUNT_GATHER_MS));
      const number = ++reads;
      const rows = await settingsRepo.stockCounts(database, eventId);
      const counts = new Map(rows.map((r) => [`${r.kind}:${r.id}`, r]));
      const fresh = <T extends { capacity: number | null; taken: number; held: number }>(
        kind: string,
        id: string,
        row: T,
      ): T => {
        const c = counts.get(`${kind}:${id}`);
        return c ? { ...row, capacity: c.capacity, taken: c.taken, held: c.held } : row;
      };
      const rules: EntryRules = {
        ...base.rules,
        races: new Map([...base.rules.races].map(([k, r]) => [k, fresh('race', r.raceId, r)])),
        addOns: new Map([...base.rules.addOns].map(([k, a]) => [k, fresh('addOn', a.id, a)])),
        ...(base.rules.codes
          ? { codes: new Map([...base.rules.codes].map(([k, c]) => [k, fresh('code', c.id, c)])) }
          : {}),
      };
      const out: RulesRead = { ...base, read: number, rules };
      const hit = cache.get(eventId);
      if (hit && hit.read < number) cache.set(eventId, { ...out, at: hit.at, terms: hit.terms });
      return out;
    })();
    counting.set(eventId, promise);
    const done = () => {
      if (counting.get(eventId) === promise) counting.delete(eventId);
    };
    promise.then(done, done);
    return promise;
  }

  /** Counts read after `arrival` (the reads counted then): all who wait share one recount. */
  async function rulesAfter(eventId: string, arrival: number, base: RulesRead): Promise<RulesRead> {
    const hit = cache.get(eventId);
    if (hit && hit.read > arrival) return hit;
    const flying = counting.get(eventId);
    if (flying) {
      const r = await flying;
      if (r.read > arrival) return r;
      return rulesAfter(eventId, arrival, base);
    }
    return recount(eventId, hit ?? base);
  }

  /** Refusals from counts read before the transaction (the cache's): worth a fresher look. */
  const fromCounts = new WeakSet<object>();

  async function placeOrder(
    user: { sub: string; email: string },
    eventId: string,
    raw: EntryOrderInput,
    team?: TeamOrder,
  ): Promise<EntryOrder> {
    const input = entryOrderInputSchema.parse(raw);
    const at = now();
    const arrival = reads;
    const first = await rulesOf(eventId, at);
    try {
      return await place(user, eventId, input, at, first, team);
    } catch (error) {
      // A refusal for a stock that ran out, from counts read before this request arrived: the
      // counts are read again before refusing (a place freed meanwhile is offered).
      if (!(first.read <= arrival && error instanceof AppError && fromCounts.has(error))) throw error;
      return place(user, eventId, input, at, await rulesAfter(eventId, arrival, first), team);
    }
  }

  async function place(
    user: { sub: string; email: string },
    eventId: string,
    input: ReturnType<typeof entryOrderInputSchema.parse>,
    at: Date,
    { terms, rules }: { terms: settingsRepo.EventTerms | null; rules: EntryRules },
    team?: TeamOrder,
  ): Promise<EntryOrder> {
    if (!terms) throw errors.notFound('REGISTRATION_NOT_FOUND', 'This event takes no entries online');
    const checked: CheckedRunner[] = [];
    const problems: { field: string; code: string }[] = [];
    for (const [n, runner] of input.runners.entries()) {
      const r = await checkRunner(database, eventId, rules, runner, `runners.${n}.`, at);
      problems.push(...r.errors);
      if (r.runner) checked.push(r.runner);
    }
    // A stock that ran out is a conflict (409) like a full race, whether seen here or at the hold.
    if (problems.length) {
      const stockOnly = problems.every((p) => STOCK.has(p.code));
      const error = fieldProblem(stockOnly ? 409 : 400, problems);
      if (stockOnly) fromCounts.add(error);
      throw error;
    }
    // A fast refusal for a full race without a transaction (the rush: most requests end here).
    // The hold below is what counts; this read only spares the database the losers' writes.
    for (const [n, r] of checked.entries()) {
      const invited = input.invitation && n === checked.findIndex((c) => c.race.raceId === r.race.raceId);
      // A deferral credit's runner has their place kept in this race (credits.ts).
      const kept = r.code?.placeRaceId === r.race.raceId;
      if (!invited && !kept && r.race.capacity != null && r.race.capacity - r.race.taken - r.race.held <= 0) {
        const error = fieldProblem(409, [{ field: `runners.${n}.raceId`, code: 'RACE_FULL' }]);
        fromCounts.add(error);
        throw error;
      }
    }
    const total = checked.reduce((s, r) => s + r.totalCents, 0);
    const expires = holdExpiresAt(at, terms.holdMinutes);
    const codes = checked.map(() => repo.newEntryCode());
    let orderId: string;
    // Orders with a deferral credit's code go alone, like invitations (its place is taken in the order).
    if (!team && !input.invitation && total > 0 && !checked.some((r) => r.code?.ownerEmail)) {
      orderId = await new Promise<string>((resolve, reject) =>
        arrive({ user, eventId, at, input, checked, codes, total, expires, terms, rules, resolve, reject }),
      );
    } else {
      const out = await database.transaction(async (sql) =>
        holdOrder(sql, { user, eventId, at, input, checked, codes, total, expires, rules, terms }, team),
      );
      for (const db of out.contexts) await ctx.results.reload(db);
      orderId = out.orderId;
    }
    if (total === 0) return orderView(orderId);
    // The answer from what is in hand (no second read while the race is rushed).
    return {
      orderId,
      eventId,
      state: 'awaiting_payment',
      amountCents: total,
      paidCents: 0,
      refundedCents: 0,
      currency: terms.currency,
      holdExpiresAt: expires.toISOString(),
      notice: null,
      entries: checked.map((r, n) => ({
        code: codes[n] as string,
        raceId: r.race.raceId,
        raceName: r.race.name,
        name: `${r.details.firstName} ${r.details.lastName}`.trim(),
        state: 'held' as const,
        entryCents: r.entryCents,
        discountCents: r.discountCents,
        addOnsCents: r.addOnsCents,
        totalCents: r.totalCents,
        addOns: r.addOns.map((a) => ({ key: a.key, name: a.name, quantity: a.quantity, cents: a.cents })),
      })),
    };
  }

  /** One order alone in the caller's transaction: the order, its entries and their holds. */
  async function holdOrder(
    sql: Sql,
    o: Pick<
      Arrival,
      'user' | 'eventId' | 'input' | 'checked' | 'codes' | 'total' | 'expires' | 'rules' | 'terms' | 'at'
    >,
    team?: TeamOrder,
  ): Promise<{ orderId: string; contexts: string[] }> {
    const { user, eventId, input, checked, codes, total, expires, terms } = o;
    const orderId = await nextOrderId(sql);
    await insertOrder(sql, {
      id: orderId,
      depositId: null,
      registration: true,
      eventId,
      payerSub: user.sub,
      company: false,
      state: total === 0 ? 'paid' : 'awaiting_payment',
      amountCents: total,
      currency: terms.currency,
      structured: await freeStructured(sql),
      expiresAt: expires,
      lines: [],
    });
    // A team's members are counted under the team's lock (two joining at once never pass its size).
    if (team) await team.reserve(sql, checked.length);
    let invitationUsed = false;
    for (const [n, r] of checked.entries()) {
      let waitlistId: string | null = null;
      if (input.invitation && !invitationUsed) {
        waitlistId = await takeInvitation(sql, input.invitation, r.race.raceId, o.at);
        if (waitlistId) invitationUsed = true;
      }
      const code = codes[n] as string;
      // A deferral credit's place reserved in this race is the entry's (credits.ts).
      const kept =
        !waitlistId && r.code?.ownerEmail ? await takeCreditPlace(sql, r.code.id, r.race.raceId) : false;
      const out = await holdEntry(sql, unitsOfChecked(r), !waitlistId && !kept);
      if (out) throw stockProblem(n, out);
      await repo.insertEntry(sql, {
        ...newEntry(
          o,
          r,
          code,
          orderId,
          team?.accounts?.[n] !== undefined ? (team.accounts[n] ?? null) : user.sub,
        ),
        waitlistId,
        teamId: team?.id ?? null,
      });
      if (team) await team.entered(sql, n, code);
      await auditEntry(sql, { code, eventId }, 'held', user.sub, { orderId, totalCents: r.totalCents });
    }
    if (input.invitation && !invitationUsed)
      throw fieldProblem(409, [{ field: 'invitation', code: 'INVITATION_INVALID' }]);
    const contexts = total === 0 ? await settleEntryOrder(sql, orderId, user.sub) : [];
    return { orderId, contexts };
  }

  // The queue of paying orders per event and whether a batch of it is in the database.
  const queues = new Map<string, Arrival[]>();
  const draining = new Set<string>();

  /**
   * Places first (issue 38, the rush): the way to an entry order's payment page (the pay step:
   * the order read, Mollie or Stripe called, the order updated) starts only while no paying order
   * waits for its batch, and at most `PAY_AT_ONCE` at a time. When a popular race opens, the
   * entries arrive faster than one node can also open their payments; without this, each runner's
   * place waited behind the payments of the runners before them (1,000 places: entry step p99
   * 5.2 s). A place is held for its hold time (15 min by default) from its order: a payment page a
   * few seconds later loses nothing. A pay step waits at most `PAY_WAIT_MS`, then goes anyway.
   */
  const payWaiting: { since: number; start(): void }[] = [];
  let paying = 0;
  let payTimer: NodeJS.Timeout | undefined;
  const entriesWaiting = () => draining.size > 0;
  function pumpPays() {
    while (payWaiting.length && paying < PAY_AT_ONCE) {
      const first = payWaiting[0]!;
      if (entriesWaiting() && performance.now() - first.since < PAY_WAIT_MS) break;
      payWaiting.shift();
      paying++;
      first.start();
    }
    clearTimeout(payTimer);
    payTimer = undefined;
    if (payWaiting.length && paying < PAY_AT_ONCE) {
      const wait = PAY_WAIT_MS - (performance.now() - payWaiting[0]!.since);
      payTimer = setTimeout(pumpPays, Math.max(1, wait));
      payTimer.unref();
    }
  }
  /** Waits for a pay step's turn; call the answer when the step is done. */
  function payTurn(): Promise<() => void> {
    return new Promise((resolve) => {
      let done = false;
      payWaiting.push({
        since: performance.now(),
        start: () =>
          resolve(() => {
            if (done) return;
            done = true;
            paying--;
            pumpPays();
          }),
      });
      pumpPays();
    });
  }

  function arrive(a: Arrival) {
    const queue = queues.get(a.eventId) ?? [];
    queues.set(a.eventId, queue);
    queue.push(a);
    if (!draining.has(a.eventId)) void drain(a.eventId, queue);
  }

  async function drain(eventId: string, queue: Arrival[]) {
    draining.add(eventId);
    try {
      while (queue.length) await holdBatch(queue);
    } finally {
      draining.delete(eventId);
      if (!queue.length && queues.get(eventId) === queue) queues.delete(eventId);
      pumpPays();
    }
  }

  /**
   * One batch: each order held with all its units or refused with the stock that ran out. The
   * batch is taken from the queue once the transaction has its connection (PGlite: its turn on
   * the one thread), so the orders that arrived while it waited are in it.
   */
  async function holdBatch(queue: Arrival[]) {
    let batch: Arrival[] = [];
    let outcome: BatchOutcome[];
    try {
      outcome = await database.procedure(holdBatchProcedure, () => {
        batch = queue.splice(0, BATCH);
        return batch.map(batchOrder);
      });
    } catch (error) {
      if (!batch.length) {
        // The transaction never began (the database is unreachable): the waiting orders fail.
        for (const a of queue.splice(0, BATCH)) a.reject(error);
        return;
      }
      // Not a refusal (those are answers): e.g. a deadlock between two nodes. Each order alone,
      // in order of arrival.
      for (const a of batch) {
        try {
          a.resolve((await database.transaction((sql) => holdOrder(sql, a))).orderId);
        } catch (error) {
          a.reject(error);
        }
      }
      return;
    }
    for (const [k, a] of batch.entries()) {
      const o = outcome[k] as BatchOutcome;
      if ('refused' in o) a.reject(stockProblem(o.refused.n, o.refused.out));
      else a.resolve(o.orderId);
    }
  }

  /** An entries order as its payer sees it: state, amounts, hold, entries. */
  async function orderView(orderId: string): Promise<EntryOrder> {
    const [order] = await ordersWhere(database, 'o.id = $1::bigint AND o.registration', [orderId]);
    if (!order) throw errors.notFound('ORDER_NOT_FOUND', `No order '${orderId}'`);
    const entries = await repo.entriesWhere(database, 'e.order_id = $1::bigint', [orderId]);
    const names = new Map(
      (
        await database.query<{ id: string; name: string }>(
          'SELECT id, name FROM races WHERE id = ANY($1::text[])',
          [entries.map((e) => e.raceId)],
        )
      ).map((r) => [r.id, r.name]),
    );
    const held = entries.filter((e) => e.state === 'held').map((e) => e.holdExpiresAt as string);
    // Deferral credits used here: what the entry left of each is refunded (credits.ts).
    const credits = new Map(
      (
        await database.query<{ codeId: string; cents: number }>(
          'SELECT code_id::text AS "codeId", cents FROM registration_credits WHERE code_id = ANY($1::bigint[])',
          [entries.map((e) => e.codeId).filter((c): c is string => c !== null)],
        )
      ).map((c) => [c.codeId, c.cents]),
    );
    return {
      orderId,
      eventId: order.eventId,
      state: order.state,
      amountCents: order.amountCents,
      paidCents: order.paidCents,
      refundedCents: order.refundedCents,
      currency: order.currency,
      holdExpiresAt: held.length ? (held.sort()[0] as string) : null,
      notice: entries.some((e) => e.refundDue || (e.state === 'refunded' && order.state === 'refunded'))
        ? 'LATE_REFUNDED'
        : null,
      entries: entries.map((e) => ({
        code: e.code,
        raceId: e.raceId,
        raceName: names.get(e.raceId) ?? e.raceId,
        name: `${e.details.firstName} ${e.details.lastName}`.trim(),
        state: e.state,
        entryCents: e.entryCents,
        discountCents: e.discountCents,
        addOnsCents: e.addOnsCents,
        totalCents: e.entryCents - e.discountCents + e.addOnsCents,
        addOns: e.addOns.map((a) => ({ key: a.key, name: a.name, quantity: a.quantity, cents: a.cents })),
        ...(e.codeId && (credits.get(e.codeId) ?? 0) > e.discountCents
          ? { creditRefundCents: (credits.get(e.codeId) as number) - e.discountCents }
          : {}),
      })),
    };
  }

  /** Paying on site, when the organiser allows it: the entries are confirmed, the order stays owed. */
  async function payOnSite(orderId: string, actorSub: string): Promise<EntryOrder> {
    const [order] = await ordersWhere(database, 'o.id = $1::bigint AND o.registration', [orderId]);
    if (!order) throw errors.notFound('ORDER_NOT_FOUND', `No order '${orderId}'`);
    const terms = await settingsRepo.eventTerms(database, order.eventId);
    if (!terms?.payOnSite)
      throw errors.conflict('ON_SITE_NOT_ALLOWED', 'The organiser takes no payment on site');
    if (order.state !== 'awaiting_payment')
      throw errors.conflict('ORDER_STATE', `The order is ${order.state}`);
    const contexts = await database.transaction(async (sql) => {
      // Owed until race day: the order no longer expires with the hold.
      await sql.query(
        `UPDATE orders SET provider = 'bank', expires_at = now() + interval '3650 days' WHERE id = $1::bigint`,
        [orderId],
      );
      const held = await repo.entriesWhere(sql, `e.order_id = $1::bigint AND e.state = 'held'`, [orderId]);
      if (!held.length) throw new AppError(409, 'HOLD_EXPIRED', 'The places were released: enter again');
      return settleEntryOrder(sql, orderId, actorSub);
    });
    for (const db of contexts) await ctx.results.reload(db);
    return orderView(orderId);
  }

  /** Forgets the event's rules kept in hand (its settings changed on this node). */
  function forget(eventId: string) {
    cache.delete(eventId);
    reading.delete(eventId);
    counting.delete(eventId);
    forgotten.set(eventId, reads);
  }

  return { placeOrder, orderView, payOnSite, forget, payTurn };
}
