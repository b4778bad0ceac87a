import type { EntryOrder, EntryOrderInput } from '@tempora/contracts';
import { entryOrderInputSchema } from '@tempora/contracts';
import { holdExpiresAt } from '@tempora/domain';
import type { Sql } from '../../../db/database.ts';
import { AppError, errors } from '../../../errors.ts';
import { freeStructured, insertOrder, nextOrderId, ordersWhere } from '../../payments/port.ts';
import { holdEntry } from '../counters.ts';
import * as repo from '../repository.ts';
import * as settingsRepo from '../settings-repository.ts';
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

/**
 * Entering (issue 38): one order for one or several runners (a family), each checked and priced
 * alone, then — in one transaction — the order, its entries and their holds (add-ons, code use,
 * then the place, last, so the race's row is locked only for the end of the transaction). A
 * stock that ran out rolls everything back: bad input changes nothing. A free order is confirmed
 * at once; others wait for their payment until the hold expires.
 */
export function createEnter(ctx: EntriesContext) {
  const { database, now } = ctx;

  /**
   * The event's terms and rules, read at most once per second per node: when a popular race
   * opens, thousands of requests a second would otherwise read the same rows, and the runners
   * refused because the race is full would cost the database as much as those who enter. The
   * counts in them only spare the database a hopeless transaction: the holds in the transaction
   * are what count (a place freed less than a second ago is offered at the next read).
   */
  const cache = new Map<string, { at: number; terms: settingsRepo.EventTerms | null; rules: EntryRules }>();
  async function rulesOf(eventId: string, at: Date, reread = false) {
    const hit = cache.get(eventId);
    if (!reread && hit && at.getTime() - hit.at < 1000 && at.getTime() >= hit.at)
      return { ...hit, cached: true };
    const fresh = {
      at: at.getTime(),
      terms: await settingsRepo.eventTerms(database, eventId),
      rules: await entryRules(database, eventId),
    };
    cache.set(eventId, fresh);
    return { ...fresh, cached: false };
  }

  async function placeOrder(
    user: { sub: string; email: string },
    eventId: string,
    raw: EntryOrderInput,
    team?: TeamOrder,
  ): Promise<EntryOrder> {
    const input = entryOrderInputSchema.parse(raw);
    const at = now();
    const first = await rulesOf(eventId, at);
    try {
      return await place(user, eventId, input, at, first, team);
    } catch (error) {
      // A refusal for a stock that ran out, from counts read less than a second ago: read them
      // again before refusing (a place freed meanwhile — a cancellation, an expiry — is offered).
      const stale =
        first.cached && error instanceof AppError && error.status === 409 && STOCK.has(error.code);
      if (!stale) throw error;
      const fresh = await rulesOf(eventId, at, true);
      return place(user, eventId, input, at, fresh, team);
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
    if (problems.length) throw fieldProblem(problems.every((p) => STOCK.has(p.code)) ? 409 : 400, problems);
    // A fast refusal for a full race without a transaction (the rush: most requests end here).
    // The hold below is what counts; this read only spares the database the losers' writes.
    for (const [n, r] of checked.entries()) {
      const invited = input.invitation && n === checked.findIndex((c) => c.race.raceId === r.race.raceId);
      if (!invited && r.race.capacity != null && r.race.capacity - r.race.taken - r.race.held <= 0)
        throw fieldProblem(409, [{ field: `runners.${n}.raceId`, code: 'RACE_FULL' }]);
    }
    const total = checked.reduce((s, r) => s + r.totalCents, 0);
    const expires = holdExpiresAt(at, terms.holdMinutes);
    const codes = checked.map(() => repo.newEntryCode());
    const { orderId, contexts } = await database.transaction(async (sql) => {
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
          waitlistId = await takeInvitation(sql, input.invitation, r.race.raceId, at);
          if (waitlistId) invitationUsed = true;
        }
        const code = codes[n] as string;
        const units = {
          raceId: r.race.raceId,
          addOns: r.addOns.map((a) => ({ id: a.id, quantity: a.quantity })),
          codeId: r.code?.id ?? null,
        };
        const out = await holdEntry(sql, units, !waitlistId);
        if (out)
          throw fieldProblem(409, [
            {
              field: `runners.${n}.${out === 'race' ? 'raceId' : out === 'addOn' ? 'addOns' : 'discountCode'}`,
              code: STOCK_CODES[out],
            },
          ]);
        await repo.insertEntry(sql, {
          code,
          eventId,
          raceId: r.race.raceId,
          orderId,
          accountSub: team?.accounts?.[n] !== undefined ? (team.accounts[n] ?? null) : user.sub,
          email: r.details.email || user.email,
          lang: input.lang,
          state: 'held',
          details: { ...r.details, email: r.details.email || user.email },
          answers: r.answers,
          addOns: r.addOns,
          codeId: r.code?.id ?? null,
          memberCode: r.memberCode,
          entryCents: r.entryCents,
          discountCents: r.discountCents,
          addOnsCents: r.addOnsCents,
          waiverVersion: rules.waiver?.version ?? null,
          holdExpiresAt: expires,
          waitlistId,
          teamId: team?.id ?? null,
          source: 'online',
        });
        if (team) await team.entered(sql, n, code);
        await auditEntry(sql, { code, eventId }, 'held', user.sub, { orderId, totalCents: r.totalCents });
      }
      if (input.invitation && !invitationUsed)
        throw fieldProblem(409, [{ field: 'invitation', code: 'INVITATION_INVALID' }]);
      const contexts = total === 0 ? await settleEntryOrder(sql, orderId, user.sub) : [];
      return { orderId, contexts };
    });
    for (const db of contexts) await ctx.results.reload(db);
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

  return { placeOrder, orderView, payOnSite };
}
