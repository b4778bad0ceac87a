import type { EntryActionInput, EntryQuote, MyEntry } from '@tempora/contracts';
import { actionAllowed, actionQuote, allowedActions, type EntryAction, entryPrice } from '@tempora/domain';
import { AppError, errors } from '../../../errors.ts';
import { entrantBibs, updateEntrant, withdrawEntrant } from '../../participants/port.ts';
import { freeStructured, insertOrder, nextOrderId, ordersWhere } from '../../payments/port.ts';
import { eachUnit, holdUnits, untakeUnits } from '../counters.ts';
import * as repo from '../repository.ts';
import * as settingsRepo from '../settings-repository.ts';
import { creditsOf, recordCredit } from './credits.ts';
import type { createMails } from './mails.ts';
import { raceOpen } from './runner-check.ts';
import { applyChange, contextsOf } from './settle.ts';
import { auditEntry, dayIn, type EntriesContext } from './shared.ts';
import { advanceWaitlist, type Invitation } from './waitlist.ts';

const UNTIL: Record<EntryAction, 'editUntil' | 'moveUntil' | 'transferUntil' | 'deferUntil' | 'cancelUntil'> =
  {
    edit: 'editUntil',
    move: 'moveUntil',
    transfer: 'transferUntil',
    defer: 'deferUntil',
    cancel: 'cancelUntil',
  };

/**
 * The runner's own entries (issue 38): My entries, and edit / move / give away / defer / cancel as
 * the organiser's policy allows on today's date in the event's zone, each quoted (fee or refund)
 * before it is confirmed. A fee or a price difference is a new order paid like any other (the
 * change is applied when it is paid; a move holds its place in the other race meanwhile); a
 * refund goes through the payments module's refund.
 */
export function createSelfService(ctx: EntriesContext, mails: ReturnType<typeof createMails>) {
  const { database, now, payments } = ctx;

  async function views(entries: readonly repo.EntryRow[]): Promise<MyEntry[]> {
    if (!entries.length) return [];
    const races = await database.query<{
      id: string;
      name: string;
      raceDate: string;
      db: string;
      eventName: string;
      timeZone: string;
    }>(
      `SELECT r.id, r.name, to_char(r.race_date, 'YYYY-MM-DD') AS "raceDate", r.db, ev.name AS "eventName", ev.time_zone AS "timeZone"
         FROM races r JOIN contexts c ON c.db = r.db JOIN events ev ON ev.id = c.event_id WHERE r.id = ANY($1::text[])`,
      [[...new Set(entries.map((e) => e.raceId))]],
    );
    const byId = new Map(races.map((r) => [r.id, r]));
    // A receipt for an entry its own account paid (a team member the captain paid for has none:
    // the captain's order has it).
    const payers = new Map(
      (
        await database.query<{ id: string; payer: string }>(
          `SELECT id::text AS id, payer_sub::text AS payer FROM orders WHERE id = ANY($1::bigint[]) AND paid_cents > 0`,
          [[...new Set(entries.map((e) => e.orderId).filter((o): o is string => o !== null))]],
        )
      ).map((o) => [o.id, o.payer]),
    );
    const invoiced = new Set(
      (
        await database.query<{ id: string }>(
          'SELECT order_id::text AS id FROM invoices WHERE order_id = ANY($1::bigint[])',
          [[...payers.keys()]],
        )
      ).map((i) => i.id),
    );
    // The credit notes of refunds of those invoices (issue 38), in the organisation's sequence.
    const notes = new Map<string, string[]>();
    for (const n of await database.query<{ orderId: string; number: number }>(
      'SELECT order_id::text AS "orderId", number FROM credit_notes WHERE order_id = ANY($1::bigint[]) ORDER BY number',
      [[...invoiced]],
    ))
      notes.set(n.orderId, [...(notes.get(n.orderId) ?? []), String(n.number).padStart(6, '0')]);
    const credits = await creditsOf(
      database,
      entries.filter((e) => e.state === 'deferred').map((e) => e.id),
    );
    const bibs = await entrantBibs(
      database,
      entries.map((e) => e.participantId).filter((p): p is string => p !== null),
    );
    const out: MyEntry[] = [];
    for (const e of entries) {
      const race = byId.get(e.raceId);
      const terms = await settingsRepo.eventTerms(database, e.eventId);
      const day = dayIn(now(), race?.timeZone ?? 'UTC');
      out.push({
        code: e.code,
        eventId: e.eventId,
        eventName: race?.eventName ?? e.eventId,
        raceId: e.raceId,
        raceName: race?.name ?? e.raceId,
        raceDate: race?.raceDate ?? '',
        timeZone: race?.timeZone ?? 'UTC',
        db: race?.db ?? '',
        state: e.state,
        name: `${e.details.firstName} ${e.details.lastName}`.trim(),
        email: e.email,
        bib: e.participantId ? (bibs.get(e.participantId) ?? null) : null,
        orderId: e.orderId,
        receipt: Boolean(e.orderId && e.accountSub && payers.get(e.orderId) === e.accountSub),
        invoice: Boolean(
          e.orderId && e.accountSub && payers.get(e.orderId) === e.accountSub && invoiced.has(e.orderId),
        ),
        creditNotes:
          e.orderId && e.accountSub && payers.get(e.orderId) === e.accountSub
            ? (notes.get(e.orderId) ?? [])
            : [],
        credit: credits.get(e.id) ?? null,
        totalCents: e.entryCents - e.discountCents + e.addOnsCents,
        currency: terms?.currency ?? 'EUR',
        allowed: e.state === 'confirmed' && terms ? allowedActions(terms.policy, day) : [],
        createdAt: e.createdAt,
      });
    }
    return out;
  }

  async function mine(user: { sub: string; email: string }) {
    return views(
      await repo.entriesWhere(
        database,
        `(e.account_sub = $1::uuid OR lower(e.email) = lower($2)) AND e.state IN ('held', 'confirmed', 'cancelled', 'refunded', 'deferred')`,
        [user.sub, user.email],
      ),
    );
  }

  async function one(entry: repo.EntryRow) {
    return (await views([entry]))[0] as MyEntry;
  }

  /** What an action would cost or refund now, and whether the policy allows it. */
  async function quote(
    entry: repo.EntryRow,
    input: EntryActionInput,
  ): Promise<EntryQuote & { newEntryCents?: number }> {
    const terms = await settingsRepo.eventTerms(database, entry.eventId);
    const [ev] = await database.query<{ timeZone: string }>(
      'SELECT time_zone AS "timeZone" FROM events WHERE id = $1',
      [entry.eventId],
    );
    const day = dayIn(now(), ev?.timeZone ?? 'UTC');
    const policy = terms?.policy ?? {};
    const until = (policy[UNTIL[input.action]] as string | null | undefined) ?? null;
    const [order] = entry.orderId ? await ordersWhere(database, 'o.id = $1::bigint', [entry.orderId]) : [];
    const paidEntry = entry.entryCents - entry.discountCents;
    let newEntryCents: number | undefined;
    if (input.action === 'move') {
      const target = input.raceId ? await settingsRepo.raceRegistration(database, input.raceId) : null;
      if (!target || target.eventId !== entry.eventId || target.raceId === entry.raceId)
        throw new AppError(400, 'RACE_NOT_FOUND', 'Another race of this event', [
          { field: 'raceId', message: 'RACE_NOT_FOUND' },
        ]);
      newEntryCents = entryPrice(target.prices, {
        at: now().toISOString(),
        raceDay: target.raceDate,
        birthDate: entry.details.birthDate,
        memberCode: null,
      });
    }
    // What this entry was paid (an order may hold a family: its own share, no more than the order's).
    const paid =
      order?.state === 'paid'
        ? Math.min(paidEntry + entry.addOnsCents, order.paidCents - order.refundedCents)
        : 0;
    const q = actionQuote(policy, input.action, day, {
      paidCents: paid,
      paidEntryCents: paidEntry,
      newEntryCents,
    });
    return {
      action: input.action,
      allowed: entry.state === 'confirmed' && actionAllowed(policy, input.action, day),
      until,
      payCents: q.payCents,
      refundCents: input.action === 'cancel' || input.action === 'move' ? Math.min(q.refundCents, paid) : 0,
      creditCents: q.creditCents ?? 0,
      ...(newEntryCents !== undefined ? { newEntryCents } : {}),
    };
  }

  /** A change order (a fee, a difference): awaiting payment for the hold's time. */
  async function changeOrder(
    sql: Parameters<typeof insertOrder>[0],
    entry: repo.EntryRow,
    sub: string,
    cents: number,
  ) {
    const terms = await settingsRepo.eventTerms(sql, entry.eventId);
    const id = await nextOrderId(sql);
    await insertOrder(sql, {
      id,
      depositId: null,
      registration: true,
      eventId: entry.eventId,
      payerSub: sub,
      company: false,
      state: 'awaiting_payment',
      amountCents: cents,
      currency: terms?.currency ?? 'EUR',
      structured: await freeStructured(sql),
      expiresAt: new Date(now().getTime() + (terms?.holdMinutes ?? 15) * 60_000),
      lines: [],
    });
    return id;
  }

  /**
   * `erasure` (issue 40, "Delete my account"): the entry is cancelled whatever the policy's
   * dates, refunded as the policy says (nothing once it no longer allows cancelling).
   */
  async function act(
    entry: repo.EntryRow,
    input: EntryActionInput,
    actor: { sub: string },
    { erasure = false } = {},
  ) {
    const quoted = await quote(entry, input);
    const forced = erasure && input.action === 'cancel' && !quoted.allowed && entry.state === 'confirmed';
    const q = forced ? { ...quoted, allowed: true, refundCents: 0 } : quoted;
    if (!q.allowed)
      throw errors.conflict(
        'ACTION_NOT_ALLOWED',
        `The organiser's policy does not allow ${input.action} now`,
      );
    let orderId: string | null = null;
    let invitations: Invitation[] = [];
    const contexts = await database.transaction(async (sql) => {
      const [locked] = await repo.entriesWhere(sql, 'e.id = $1::bigint', [entry.id], true);
      if (locked?.state !== 'confirmed') throw errors.conflict('ENTRY_STATE', 'The entry changed meanwhile');
      if (input.action === 'edit') {
        const details = { ...locked.details, ...clean(input.runner) };
        if (locked.participantId)
          await updateEntrant(sql, locked.participantId, { ...pick(details), gender: details.gender ?? 'X' });
        await repo.setEntry(sql, locked.id, { details });
        await auditEntry(sql, locked, 'edited', actor.sub, { fields: Object.keys(clean(input.runner)) });
      } else if (input.action === 'cancel' || (input.action === 'defer' && q.payCents === 0)) {
        await eachUnit(sql, repo.unitsOf(locked), untakeUnits);
        if (locked.participantId) await withdrawEntrant(sql, locked.participantId);
        await repo.setEntry(sql, locked.id, { state: input.action === 'cancel' ? 'cancelled' : 'deferred' });
        await auditEntry(sql, locked, input.action === 'cancel' ? 'cancelled' : 'deferred', actor.sub, {
          refundCents: q.refundCents,
          ...(erasure ? { erasure: true } : {}),
        });
        // A deferral: what was paid, less the fee, is a credit for the next edition.
        if (input.action === 'defer') await recordCredit(sql, locked, q.creditCents, actor.sub);
        const terms = await settingsRepo.eventTerms(sql, locked.eventId);
        invitations = await advanceWaitlist(sql, locked.raceId, now(), terms?.waitlistMinutes ?? 1440);
      } else if (input.action === 'move') {
        const raceId = input.raceId as string;
        const target = await settingsRepo.raceRegistration(sql, raceId);
        if (!target || !raceOpen(target, now()) || !(await holdUnits(sql, 'registration_races', raceId)))
          throw new AppError(409, 'RACE_FULL', 'No place left in that race', [
            { field: 'raceId', message: 'RACE_FULL' },
          ]);
        const change = {
          id: '',
          action: 'move' as const,
          payload: { raceId, entryCents: q.newEntryCents ?? 0 },
        };
        if (q.payCents > 0) {
          orderId = await changeOrder(sql, locked, actor.sub, q.payCents);
          await sql.query(
            'INSERT INTO registration_changes (entry_id, order_id, action, payload) VALUES ($1::bigint, $2::bigint, $3, $4)',
            [locked.id, orderId, 'move', JSON.stringify(change.payload)],
          );
          await auditEntry(sql, locked, 'move_asked', actor.sub, {
            to: raceId,
            orderId,
            payCents: q.payCents,
          });
        } else {
          await applyChange(sql, locked, change, actor.sub);
          const terms = await settingsRepo.eventTerms(sql, locked.eventId);
          invitations = await advanceWaitlist(sql, locked.raceId, now(), terms?.waitlistMinutes ?? 1440);
        }
      } else {
        const runner = input.action === 'transfer' ? { ...clean(input.runner) } : {};
        if (input.action === 'transfer' && (!runner.firstName || !runner.lastName || !runner.email))
          throw new AppError(400, 'REQUIRED', 'The new runner’s name and e-mail', [
            { field: 'runner', message: 'REQUIRED' },
          ]);
        const change = {
          id: '',
          action: input.action as 'transfer' | 'defer',
          payload: { runner, ...(input.action === 'defer' ? { creditCents: q.creditCents } : {}) },
        };
        if (q.payCents > 0) {
          orderId = await changeOrder(sql, locked, actor.sub, q.payCents);
          await sql.query(
            'INSERT INTO registration_changes (entry_id, order_id, action, payload) VALUES ($1::bigint, $2::bigint, $3, $4)',
            [locked.id, orderId, input.action, JSON.stringify(change.payload)],
          );
          await auditEntry(sql, locked, `${input.action}_asked`, actor.sub, {
            orderId,
            payCents: q.payCents,
          });
        } else await applyChange(sql, locked, change, actor.sub);
      }
      return contextsOf(sql, [locked.raceId, ...(input.raceId ? [input.raceId] : [])]);
    });
    for (const db of contexts) await ctx.results.reload(db);
    await mails.mailInvitations(entry.eventId, invitations);
    if (
      q.refundCents > 0 &&
      (input.action === 'cancel' || (input.action === 'move' && q.payCents === 0)) &&
      entry.orderId
    ) {
      const [order] = await ordersWhere(database, 'o.id = $1::bigint', [entry.orderId]);
      if (order)
        await payments.refund(
          order.eventId,
          order.organisationId,
          {
            orderIds: [order.id],
            kind: 'partial',
            amountCents: q.refundCents,
            method: 'provider',
            reason: `ENTRY_${input.action.toUpperCase()}`,
          },
          actor.sub,
        );
    }
    const [after] = await repo.entriesWhere(database, 'e.id = $1::bigint', [entry.id]);
    return {
      entry: await one(after as repo.EntryRow),
      orderId,
      payCents: q.payCents,
      refundCents: q.refundCents,
    };
  }

  return { mine, one, quote, act };
}

type RunnerPatch = NonNullable<EntryActionInput['runner']>;

/** The fields a runner gave, trimmed, without those left out. */
function clean(runner: RunnerPatch | undefined): Partial<repo.EntryDetails> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(runner ?? {})) {
    if (v === undefined) continue;
    out[k] = typeof v === 'string' ? (k === 'email' ? v.trim().toLowerCase() : v.trim()) : v;
  }
  return out as Partial<repo.EntryDetails>;
}

/** The participant's own fields of an entry's details. */
function pick(d: repo.EntryDetails) {
  return {
    firstName: d.firstName,
    lastName: d.lastName,
    birthDate: d.birthDate,
    nationality: d.nationality,
    club: d.club,
    email: d.email,
  };
}
