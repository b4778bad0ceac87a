import { ordersWhere } from '../../payments/port.ts';
import * as repo from '../repository.ts';
import { releaseClosedPlaces, restoreCreditPlaces } from './credits.ts';
import type { createMails } from './mails.ts';
import { expireHolds } from './settle.ts';
import { auditEntry, type EntriesContext } from './shared.ts';
import { advanceWaitlist, type Invitation } from './waitlist.ts';

/**
 * `fn` run at most once at a time: a call made while it runs waits for the next run (one for
 * all the calls made meanwhile), so each call is answered by a run that began after it.
 */
export function coalesced(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const call = (): Promise<void> => {
    if (!running) {
      running = fn().finally(() => {
        running = null;
      });
      return running;
    }
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return call();
      });
    return next;
  };
  return call;
}

/**
 * What runs after payments and on a timer (issue 38): holds past their time expire (their places
 * go to the waitlist first), invitations lapse and pass on, payments that came after their place
 * was gone are refunded in full (through the payments module's refund, by the provider), and
 * confirmations are mailed. Each step is idempotent, so the timer also retries what a crash or a
 * provider's failure left.
 */
export function createSweep(ctx: EntriesContext, mails: ReturnType<typeof createMails>) {
  const { database, now, payments } = ctx;

  /**
   * Expired holds and invitations; the waitlists of races with places back advanced; the runners
   * still waiting in races now closed told once that no place will come (`mailWaitlistClosed`);
   * the runners whose invitation ran out unused told once (`mailInvitationsLapsed`).
   */
  async function expire(eventId?: string) {
    const at = now();
    const { expired, invitations } = await database.transaction(async (sql) => {
      const races = await expireHolds(sql, at);
      // A deferral credit's place taken by an entry that lapsed unpaid goes back to the credit
      // before the waitlist is offered it; a race closed for entries keeps no credit's place.
      await restoreCreditPlaces(sql);
      await releaseClosedPlaces(sql, at);
      const waiting = await sql.query<{ raceId: string; eventId: string; minutes: number }>(
        `SELECT DISTINCT w.race_id AS "raceId", g.event_id AS "eventId", coalesce(t.waitlist_minutes, 1440) AS minutes
           FROM registration_waitlist w JOIN registration_races g ON g.race_id = w.race_id
           LEFT JOIN registration_events t ON t.event_id = g.event_id
          WHERE (w.state = 'waiting' AND w.race_id = ANY($1::text[])) OR (w.state = 'invited' AND w.invited_until <= $2)
             OR (w.state = 'waiting' AND g.capacity - g.taken - g.held > 0 AND (g.closes_at IS NULL OR g.closes_at > $2))
             OR ($3::text IS NOT NULL AND g.event_id = $3 AND w.state = 'waiting')`,
        [races, at, eventId ?? null],
      );
      const invitations: (Invitation & { eventId: string })[] = [];
      for (const w of waiting) {
        for (const inv of await advanceWaitlist(sql, w.raceId, at, w.minutes))
          invitations.push({ ...inv, eventId: w.eventId });
      }
      return { expired: races.length, invitations };
    });
    for (const eventIdOf of new Set(invitations.map((i) => i.eventId))) {
      await mails.mailInvitations(
        eventIdOf,
        invitations.filter((i) => i.eventId === eventIdOf),
      );
    }
    const closed = await mails.mailWaitlistClosed(at);
    const lapsed = await mails.mailInvitationsLapsed(at);
    return { expired, invited: invitations.length, closed, lapsed };
  }

  /** Payments made after their place was gone, refunded in full by the provider (or as a bank refund). */
  async function refundLate(orderId?: string) {
    const due = await repo.entriesWhere(
      database,
      `e.refund_due AND e.state = 'expired' AND ($1::bigint IS NULL OR e.order_id = $1::bigint)`,
      [orderId ?? null],
    );
    for (const orderIdOf of new Set(due.map((e) => e.orderId as string))) {
      const [order] = await ordersWhere(database, 'o.id = $1::bigint', [orderIdOf]);
      if (order?.state !== 'paid') continue;
      const entries = due.filter((e) => e.orderId === orderIdOf);
      const amountCents = entries.reduce((s, e) => s + e.entryCents - e.discountCents + e.addOnsCents, 0);
      const left = order.paidCents - order.refundedCents;
      const amount = Math.min(amountCents, left);
      if (amount > 0) {
        await payments.refund(
          order.eventId,
          order.organisationId,
          {
            orderIds: [order.id],
            kind: 'partial',
            amountCents: amount,
            method: 'provider',
            reason: 'LATE_PAYMENT_NO_PLACE',
          },
          null,
        );
      }
      for (const e of entries) {
        await database.transaction(async (sql) => {
          await repo.setEntry(sql, e.id, { state: 'refunded', refundDue: false });
          await auditEntry(sql, e, 'refunded_late', null, {
            amountCents: e.entryCents - e.discountCents + e.addOnsCents,
          });
        });
        await mails.mailRefund(e, `${(amount / 100).toFixed(2)} ${order.currency}`);
      }
    }
  }

  /**
   * Deferral credits larger than the entry they paid (issue 38, credits.ts): once that entry is
   * confirmed, the rest is refunded on the order that paid the deferred entry, through the
   * payments module's refund (by the provider, else a bank refund for the export). Claimed first
   * (`remainder_cents`), so a retry never refunds twice; a refund that failed is claimed again.
   */
  async function refundRemainders(orderId?: string) {
    const due = await database.query<{ id: string; cents: number; paidOrder: string | null }>(
      `UPDATE registration_credits k SET remainder_cents = k.cents - e.discount_cents
         FROM registration_entries e, registration_entries d
        WHERE e.code_id = k.code_id AND e.state = 'confirmed' AND d.id = k.entry_id
          AND k.remainder_cents IS NULL AND k.cents > e.discount_cents
          AND ($1::bigint IS NULL OR e.order_id = $1::bigint)
        RETURNING k.id::text AS id, k.remainder_cents AS cents, d.order_id::text AS "paidOrder"`,
      [orderId ?? null],
    );
    for (const credit of due) {
      const [order] = credit.paidOrder
        ? await ordersWhere(database, 'o.id = $1::bigint', [credit.paidOrder])
        : [];
      const amount =
        order?.state === 'paid' ? Math.min(credit.cents, order.paidCents - order.refundedCents) : 0;
      if (!order || amount <= 0) continue;
      try {
        const [refund] = await payments.refund(
          order.eventId,
          order.organisationId,
          {
            orderIds: [order.id],
            kind: 'partial',
            amountCents: amount,
            method: 'provider',
            reason: 'CREDIT_REMAINDER',
          },
          null,
        );
        if (refund)
          await database.query(
            'UPDATE registration_credits SET remainder_refund_id = $2::bigint WHERE id = $1::bigint',
            [credit.id, refund.id],
          );
      } catch (error) {
        await database.query('UPDATE registration_credits SET remainder_cents = NULL WHERE id = $1::bigint', [
          credit.id,
        ]);
        throw error;
      }
    }
  }

  /**
   * After payments are recorded: refund what came too late and credits' remainders, mail what is
   * confirmed — for every order at once, in batches (issue 38: the rush's 5,000 payments were ~5
   * statements each here, order by order). A call waits for a pass that began after it; the calls made during a pass
   * share the next one.
   */
  const afterPayments = coalesced(async () => {
    let failed: unknown = null;
    await refundLate().catch((error: unknown) => {
      failed = error;
    });
    await refundRemainders().catch((error: unknown) => {
      failed ??= error;
    });
    await mails.mailConfirmations();
    if (failed) throw failed;
  });

  /** After a payment is recorded (the payments' hook): see `afterPayments`. */
  async function afterPaid(_orderId: string) {
    await afterPayments();
  }

  /** The timer's pass. */
  async function run() {
    await expire();
    await refundLate();
    await refundRemainders();
    await mails.mailConfirmations();
  }

  return { expire, refundLate, refundRemainders, afterPaid, run };
}
