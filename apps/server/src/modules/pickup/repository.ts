import type { PickupRunner } from '@tempora/contracts';
import { ageOnRaceDay } from '@tempora/domain';
import type { Sql } from '../../db/database.ts';
import { iso } from '../../lib/iso-time.ts';
import { entriesWhere, raceRegistrations } from '../entries/port.ts';
import { ordersWhere } from '../payments/port.ts';

/**
 * SQL of race-day pickup (issue 39; migration 0075_pickup.sql): the runners as a volunteer sees
 * them (participants of the event's races, with what their entry says to hand out and owe), the
 * operations answered once by their id, the handouts and the money taken.
 */

interface RunnerRow {
  id: string;
  raceId: string;
  raceName: string;
  raceDate: string | null;
  wave: string | null;
  bib: string | null;
  chips: string[];
  firstName: string;
  lastName: string;
  birthDate: string | null;
  status: PickupRunner['status'];
  handedAt: string | null;
  handedBy: string | null;
}

/** The event's races (name, bib range, started, whether they take entries). */
export async function racesOf(sql: Sql, eventId: string) {
  const rows = await sql.query<{
    id: string;
    name: string;
    db: string;
    firstBib: number | null;
    lastBib: number | null;
    started: boolean;
  }>(
    `SELECT r.id, r.name, r.db, b.first_bib AS "firstBib", b.last_bib AS "lastBib", r.gun_time_ms IS NOT NULL AS started
       FROM races r JOIN contexts c ON c.db = r.db LEFT JOIN bib_ranges b ON b.race_id = r.id
      WHERE c.event_id = $1 ORDER BY r.race_date, r.name`,
    [eventId],
  );
  const open = new Set((await raceRegistrations(sql, eventId)).map((r) => r.raceId));
  return rows.map((r) => ({ ...r, lateEntries: open.has(r.id) }));
}

/**
 * Runners of an event as pickup shows them: never an address, e-mail, phone or answer. `ids`
 * narrows to some runners (a scanned card, an operation's answer).
 */
export async function runnersOf(sql: Sql, eventId: string, ids?: readonly string[]): Promise<PickupRunner[]> {
  const rows = await sql.query<RunnerRow>(
    `SELECT p.id::text AS id, p.race_id AS "raceId", r.name AS "raceName", to_char(r.race_date, 'YYYY-MM-DD') AS "raceDate",
            p.wave, p.bib, p.chips, p.first_name AS "firstName", p.last_name AS "lastName",
            to_char(p.birth_date, 'YYYY-MM-DD') AS "birthDate", p.status, h.handed_at AS "handedAt", h.actor_email AS "handedBy"
       FROM participants p JOIN races r ON r.id = p.race_id JOIN contexts c ON c.db = r.db
       LEFT JOIN pickup_handouts h ON h.participant_id = p.id AND h.state = 'kept'
      WHERE c.event_id = $1 AND p.deleted_at IS NULL ${ids ? 'AND p.id = ANY($2::uuid[])' : ''}
      ORDER BY r.race_date, r.name, lower(p.last_name), lower(p.first_name), p.id`,
    ids ? [eventId, ids] : [eventId],
  );
  if (!rows.length) return [];
  const entries = await entriesWhere(
    sql,
    ids
      ? `e.event_id = $1 AND e.state = 'confirmed' AND e.participant_id = ANY($2::uuid[])`
      : `e.event_id = $1 AND e.state = 'confirmed' AND e.participant_id IS NOT NULL`,
    ids ? [eventId, ids] : [eventId],
  );
  const byRunner = new Map(entries.map((e) => [e.participantId as string, e]));
  const orderIds = [...new Set(entries.map((e) => e.orderId).filter((o): o is string => Boolean(o)))];
  const owed = new Map<string, number>();
  if (orderIds.length)
    for (const o of await ordersWhere(sql, 'o.id = ANY($1::bigint[])', [orderIds]))
      if (o.state === 'awaiting_payment') owed.set(o.id, Math.max(0, o.amountCents - o.paidCents));
  const guardianRaces = new Set(
    (await raceRegistrations(sql, eventId)).filter((r) => r.guardianForMinors).map((r) => r.raceId),
  );
  return rows.map((p): PickupRunner => {
    const entry = byRunner.get(p.id);
    const age = p.birthDate && p.raceDate ? ageOnRaceDay(p.birthDate, p.raceDate) : undefined;
    return {
      id: p.id,
      raceId: p.raceId,
      raceName: p.raceName,
      wave: p.wave,
      bib: p.bib,
      chips: p.chips,
      firstName: p.firstName,
      lastName: p.lastName,
      code: entry?.code ?? null,
      addOns: (entry?.addOns ?? []).map((a) => ({ key: a.key, name: a.name, quantity: a.quantity })),
      unpaidCents: entry?.orderId ? (owed.get(entry.orderId) ?? 0) : 0,
      guardianMissing:
        guardianRaces.has(p.raceId) && age !== undefined && age < 18 && !entry?.details?.guardianName?.trim(),
      status: p.status,
      handedOut: p.handedAt ? { at: iso(p.handedAt) as string, by: p.handedBy ?? '' } : null,
    };
  });
}

/** Claims an operation id: true when new (the caller does it), else its stored answer. */
export async function claimOperation(
  sql: Sql,
  op: { opId: string; eventId: string; kind: string; participantId: string | null; actorSub: string | null },
): Promise<{ claimed: true } | { claimed: false; eventId: string; answer: Record<string, unknown> }> {
  const rows = await sql.query(
    `INSERT INTO pickup_operations (op_id, event_id, kind, participant_id, answer, actor_sub)
     VALUES ($1, $2, $3, $4::uuid, '{"status":"pending"}'::jsonb, $5::uuid) ON CONFLICT (op_id) DO NOTHING RETURNING op_id`,
    [op.opId, op.eventId, op.kind, op.participantId, op.actorSub],
  );
  if (rows.length) return { claimed: true };
  const [stored] = await sql.query<{ eventId: string; answer: Record<string, unknown> }>(
    'SELECT event_id AS "eventId", answer FROM pickup_operations WHERE op_id = $1',
    [op.opId],
  );
  return { claimed: false, eventId: stored?.eventId ?? '', answer: stored?.answer ?? { status: 'pending' } };
}

export async function storeAnswer(sql: Sql, opId: string, answer: Record<string, unknown>) {
  await sql.query('UPDATE pickup_operations SET answer = $2 WHERE op_id = $1', [
    opId,
    JSON.stringify(answer),
  ]);
}

export async function dropClaim(sql: Sql, opId: string) {
  await sql.query(`DELETE FROM pickup_operations WHERE op_id = $1 AND answer->>'status' = 'pending'`, [opId]);
}

/** A handout: kept when the runner has none, else kept as a conflict. */
export async function insertHandout(
  sql: Sql,
  h: {
    eventId: string;
    participantId: string;
    raceId: string;
    opId: string;
    items: string[];
    idNote: string;
    device: string;
    actorSub: string | null;
    actorEmail: string;
    handedAt: string;
  },
): Promise<'kept' | 'conflict'> {
  const values = [
    h.eventId,
    h.participantId,
    h.raceId,
    h.opId,
    JSON.stringify(h.items),
    h.idNote,
    h.device,
    h.actorSub,
    h.actorEmail,
    h.handedAt,
  ];
  const insert = (state: string, tail: string) =>
    sql.query(
      `INSERT INTO pickup_handouts (event_id, participant_id, race_id, op_id, items, id_note, device, actor_sub, actor_email, handed_at, state, against_id)
       VALUES ($1, $2::uuid, $3, $4, $5, $6, $7, $8::uuid, $9, $10, '${state}',
               ${state === 'conflict' ? `(SELECT id FROM pickup_handouts WHERE participant_id = $2::uuid AND state = 'kept')` : 'NULL'}) ${tail}`,
      values,
    );
  const kept = await insert(
    'kept',
    `ON CONFLICT (participant_id) WHERE state = 'kept' DO NOTHING RETURNING id`,
  );
  if (kept.length) return 'kept';
  await insert('conflict', '');
  return 'conflict';
}

export async function insertPayment(
  sql: Sql,
  p: {
    opId: string;
    eventId: string;
    participantId: string | null;
    orderId: string | null;
    method: 'cash' | 'card';
    amountCents: number;
    actorSub: string | null;
  },
) {
  await sql.query(
    `INSERT INTO pickup_payments (op_id, event_id, participant_id, order_id, method, amount_cents, actor_sub)
     VALUES ($1, $2, $3::uuid, $4::bigint, $5, $6, $7::uuid)`,
    [p.opId, p.eventId, p.participantId, p.orderId, p.method, p.amountCents, p.actorSub],
  );
}
