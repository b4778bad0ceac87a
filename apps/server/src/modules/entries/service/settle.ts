import type { Sql } from '../../../db/database.ts';
import { enrolEntrant, moveEntrant, updateEntrant, withdrawEntrant } from '../../participants/port.ts';
import { assignInvoice } from '../../payments/port.ts';
import { confirmUnits, eachUnit, releaseUnits, takeLateEntry, untakeUnits } from '../counters.ts';
import * as repo from '../repository.ts';
import { keepCreditPlaceAgain, recordCredit, yieldCreditPlace } from './credits.ts';
import { auditEntry } from './shared.ts';

/**
 * What a paid entry order settles (issue 38), inside the payment's transaction (payments'
 * `settle`): each held entry is confirmed (its held units taken) and becomes a participant; an
 * entry whose hold expired before the money came takes its units again if they are left, else it
 * is marked for an automatic refund (made after the transaction, `refundDue`); a pending change
 * paid by this order (a move, a transfer, a deferral) is applied. Idempotent: entries are locked
 * and only `held` and `expired` ones are looked at, and the payments module calls this once per
 * payment recorded. Returns the contexts whose live state must be reloaded: only those of changes
 * (a confirmed entry is a participant without a bib, not in the live state until it gets one).
 */
export async function settleEntryOrder(
  sql: Sql,
  orderId: string,
  actorSub: string | null = null,
): Promise<string[]> {
  const entries = await repo.entriesWhere(sql, 'e.order_id = $1::bigint', [orderId], true);
  const races = new Set<string>();
  for (const entry of entries) {
    if (entry.state === 'held') {
      await eachUnit(sql, repo.unitsOf(entry), confirmUnits);
      await confirmEntry(sql, entry, actorSub);
    } else if (entry.state === 'expired' && !entry.refundDue) {
      // An entry with a credit's code whose place went back to the credit takes that place.
      const kept = entry.codeId ? await yieldCreditPlace(sql, entry.codeId, entry.raceId) : false;
      if (await takeLateEntry(sql, repo.unitsOf(entry))) await confirmEntry(sql, entry, actorSub);
      else {
        if (kept && entry.codeId) await keepCreditPlaceAgain(sql, entry.codeId, entry.raceId);
        await repo.setEntry(sql, entry.id, { refundDue: true });
        await auditEntry(sql, entry, 'late_payment_no_place', actorSub);
      }
    }
  }
  let changed = false;
  for (const change of await repo.pendingChanges(sql, 'order_id = $1::bigint', [orderId])) {
    const [entry] = await repo.entriesWhere(sql, 'e.id = $1::bigint', [change.entryId], true);
    if (!entry) continue;
    await applyChange(sql, entry, change, actorSub);
    changed = true;
    races.add(entry.raceId);
    if (change.action === 'move') races.add(String(change.payload.raceId));
  }
  // Paid: the order gets its invoice number now, in this transaction (a payment rolled back
  // takes its number back). Not for an order refunded for want of a place, nor a free one.
  const [order] = await sql.query<{ state: string; amountCents: number; confirmed: boolean }>(
    `SELECT state, amount_cents AS "amountCents", EXISTS (SELECT 1 FROM registration_entries
       WHERE order_id = $1::bigint AND state IN ('confirmed', 'deferred', 'cancelled') AND NOT refund_due) AS confirmed
       FROM orders WHERE id = $1::bigint`,
    [orderId],
  );
  if (order?.state === 'paid' && order.amountCents > 0 && (order.confirmed || changed))
    await assignInvoice(sql, orderId);
  return contextsOf(sql, [...races]);
}

/** The contexts (results databases) of races. */
export async function contextsOf(sql: Sql, raceIds: readonly string[]): Promise<string[]> {
  if (!raceIds.length) return [];
  const rows = await sql.query<{ db: string }>('SELECT DISTINCT db FROM races WHERE id = ANY($1::text[])', [
    raceIds,
  ]);
  return rows.map((r) => r.db);
}

/** An entry confirmed: a participant of its race (the runner's identity moves there). */
export async function confirmEntry(sql: Sql, entry: repo.EntryRow, actorSub: string | null): Promise<void> {
  const d = entry.details;
  // A team member's club on the start list is the team's name (relays, company challenges).
  const [team] = entry.teamId
    ? await sql.query<{ name: string }>('SELECT name FROM registration_teams WHERE id = $1::bigint', [
        entry.teamId,
      ])
    : [];
  const participantId = await enrolEntrant(sql, {
    raceId: entry.raceId,
    firstName: d.firstName,
    lastName: d.lastName,
    gender: d.gender ?? 'X',
    birthDate: d.birthDate,
    nationality: d.nationality,
    club: team?.name ?? d.club,
    email: d.email,
    accountSub: entry.accountSub,
  });
  await repo.setEntry(sql, entry.id, { state: 'confirmed', participantId, confirmedAt: new Date() });
  await auditEntry(sql, entry, 'confirmed', actorSub, { participantId });
}

/** A change paid (or free) applied to a confirmed entry. */
export async function applyChange(
  sql: Sql,
  entry: repo.EntryRow,
  change: Pick<repo.ChangeRow, 'id' | 'action' | 'payload'>,
  actorSub: string | null,
): Promise<void> {
  if (change.action === 'move') {
    const raceId = String(change.payload.raceId);
    // The place in the other race was held when the move was asked: it is taken now, the old one freed.
    await confirmUnits(sql, 'registration_races', raceId);
    await untakeUnits(sql, 'registration_races', entry.raceId);
    if (entry.participantId) await moveEntrant(sql, entry.participantId, raceId);
    await sql.query(
      'UPDATE registration_entries SET race_id = $2, entry_cents = $3, discount_cents = 0, updated_at = now() WHERE id = $1::bigint',
      [entry.id, raceId, Number(change.payload.entryCents)],
    );
    await auditEntry(sql, entry, 'moved', actorSub, { from: entry.raceId, to: raceId });
  } else if (change.action === 'transfer') {
    const to = change.payload.runner as repo.EntryDetails;
    const details = { ...entry.details, ...to };
    if (entry.participantId) {
      await updateEntrant(sql, entry.participantId, {
        firstName: details.firstName,
        lastName: details.lastName,
        gender: details.gender ?? 'X',
        birthDate: details.birthDate,
        nationality: details.nationality,
        club: details.club,
        email: details.email,
        accountSub: null,
      });
    }
    await repo.setEntry(sql, entry.id, { details, email: details.email, accountSub: null });
    await auditEntry(sql, entry, 'transferred', actorSub, { from: entry.email, to: details.email });
  } else {
    await eachUnit(sql, { raceId: entry.raceId, addOns: [], codeId: null }, untakeUnits);
    if (entry.participantId) await withdrawEntrant(sql, entry.participantId);
    await repo.setEntry(sql, entry.id, { state: 'deferred' });
    await auditEntry(sql, entry, 'deferred', actorSub);
    // Its fee paid: the credit (what was paid, less the fee) for the next edition.
    await recordCredit(sql, entry, Number(change.payload.creditCents ?? 0), actorSub);
  }
  if (change.id)
    await sql.query(`UPDATE registration_changes SET state = 'done' WHERE id = $1::bigint`, [change.id]);
}

/**
 * Holds past their time (issue 38): their entries expire and their units are free again; a
 * pending move's place in the other race too. Returns the races that got places back.
 */
export async function expireHolds(sql: Sql, now: Date): Promise<string[]> {
  const lapsed = await repo.entriesWhere(sql, `e.state = 'held' AND e.hold_expires_at <= $1`, [now], true);
  const races = new Set<string>();
  for (const entry of lapsed) {
    await eachUnit(sql, repo.unitsOf(entry), releaseUnits);
    await repo.setEntry(sql, entry.id, { state: 'expired' });
    races.add(entry.raceId);
  }
  const changes = await sql.query<{ id: string; raceId: string | null; action: string }>(
    `SELECT c.id::text AS id, c.payload->>'raceId' AS "raceId", c.action FROM registration_changes c JOIN orders o ON o.id = c.order_id
      WHERE c.state = 'pending' AND o.state = 'awaiting_payment' AND o.expires_at <= $1 FOR UPDATE OF c`,
    [now],
  );
  for (const c of changes) {
    if (c.action === 'move' && c.raceId) {
      await releaseUnits(sql, 'registration_races', c.raceId);
      races.add(c.raceId);
    }
    await sql.query(`UPDATE registration_changes SET state = 'expired' WHERE id = $1::bigint`, [c.id]);
  }
  await sql.query(
    `UPDATE orders SET state = 'expired' WHERE registration AND state = 'awaiting_payment' AND expires_at <= $1`,
    [now],
  );
  return [...races];
}
