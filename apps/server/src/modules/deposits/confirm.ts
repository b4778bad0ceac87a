import type { Participant } from '@tempora/domain';
import type { Sql } from '../../db/database.ts';
import { addParticipants } from '../results/port.ts';
import * as repo from './repository.ts';

/**
 * What follows a payment (issue 18): the deposit turns `paid` once no order awaits payment, the
 * valid entries of paid orders become participants with the race's next free bibs (the results
 * module's own registration), and the deposit is `confirmed` once every entry is. Runs inside the
 * caller's transaction; returns the contexts whose live state must be reloaded.
 */
export async function settleDeposit(sql: Sql, depositId: string): Promise<string[]> {
  const deposit = await repo.findDeposit(sql, depositId);
  if (!deposit) return [];
  const orders = await sql.query<{ state: string }>(
    'SELECT state FROM orders WHERE deposit_id = $1::bigint',
    [depositId],
  );
  const awaiting = orders.some((o) => o.state === 'awaiting_payment');
  const paid = orders.some((o) => o.state === 'paid');
  let state = deposit.state;
  if (!awaiting && paid && (state === 'awaiting_payment' || state === 'submitted' || state === 'expired')) {
    state = 'paid';
    await repo.updateDeposit(sql, depositId, { state });
  }
  const contexts = await confirmPaidEntries(sql, deposit);
  if (state === 'paid') {
    const open = await sql.query(
      `SELECT 1 FROM deposit_entries WHERE deposit_id = $1::bigint AND state NOT IN ('confirmed', 'cancelled') LIMIT 1`,
      [depositId],
    );
    if (!open.length) await repo.updateDeposit(sql, depositId, { state: 'confirmed' });
  }
  return contexts;
}

/** Valid entries of paid orders, without a bib yet, become participants. */
async function confirmPaidEntries(sql: Sql, deposit: repo.DepositRow): Promise<string[]> {
  const entries = await sql.query<repo.EntryRow & { db: string }>(
    `SELECT e.id::text AS id, e.race_id AS "raceId", e.first_name AS "firstName", e.last_name AS "lastName", e.gender,
            to_char(e.birth_date, 'YYYY-MM-DD') AS "birthDate", e.nationality, r.db
       FROM deposit_entries e JOIN races r ON r.id = e.race_id
      WHERE e.deposit_id = $1::bigint AND e.state = 'valid' AND e.bib IS NULL AND EXISTS (
        SELECT 1 FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.entry_id = e.id AND o.state = 'paid')
      ORDER BY e.created_at, e.id`,
    [deposit.id],
  );
  const byRace = new Map<string, typeof entries>();
  for (const e of entries) byRace.set(e.raceId as string, [...(byRace.get(e.raceId as string) ?? []), e]);
  const contexts = new Set<string>();
  for (const [raceId, list] of byRace) {
    const [{ top }] = (await sql.query<{ top: number }>(
      `SELECT coalesce(max(bib::bigint), 0)::int AS top FROM participants WHERE race_id = $1 AND bib ~ '^[0-9]{1,9}$'`,
      [raceId],
    )) as [{ top: number }];
    const people: Participant[] = list.map((e, k) => ({
      bib: String(top + k + 1),
      firstName: e.firstName,
      lastName: e.lastName,
      gender: e.gender ?? 'X',
      ...(e.birthDate ? { birthDate: e.birthDate } : {}),
      nationality: e.nationality.toUpperCase(),
      club: deposit.organisationName,
      status: 'registered',
    }));
    await addParticipants(sql, raceId, people);
    await sql.query('UPDATE races SET epoch = epoch + 1 WHERE id = $1', [raceId]);
    await sql.query(
      `UPDATE deposit_entries e SET bib = u.bib, state = 'confirmed', updated_at = now()
         FROM unnest($1::bigint[], $2::text[]) AS u(id, bib) WHERE e.id = u.id`,
      [list.map((e) => e.id), people.map((p) => p.bib)],
    );
    contexts.add(list[0]!.db);
  }
  return [...contexts];
}

/**
 * Orders awaiting payment past their hold expire and release their places (issue 18); a deposit
 * with nothing paid and nothing awaiting turns `expired`. Returns how many orders expired. A
 * confirmation document's order (issue 29) holds no places: it is a debt and does not expire.
 */
export async function expireOrders(sql: Sql, now: Date): Promise<number> {
  const expired = await sql.query<{ depositId: string }>(
    `UPDATE orders SET state = 'expired'
      WHERE state = 'awaiting_payment' AND expires_at <= $1 AND deposit_id IS NOT NULL
     RETURNING deposit_id::text AS "depositId"`,
    [now],
  );
  for (const depositId of new Set(expired.map((e) => e.depositId))) {
    await sql.query(
      `UPDATE deposits SET state = 'expired', updated_at = now()
        WHERE id = $1::bigint AND state IN ('awaiting_payment', 'submitted')
          AND NOT EXISTS (SELECT 1 FROM orders WHERE deposit_id = $1::bigint AND state IN ('awaiting_payment', 'paid'))`,
      [depositId],
    );
  }
  return expired.length;
}
