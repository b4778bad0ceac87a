import type { NewParticipant } from '@tempora/contracts';
import type { Sql } from '../../../db/database.ts';
import { errors } from '../../../errors.ts';
import type { ImportedPerson } from '../mapping.ts';
import * as repo from '../repository.ts';
import type { Actor, ParticipantsContext } from './shared.ts';

/**
 * The grid's writes on one runner (issue 14): adding, changing (each change audited, before and
 * after), removing (only without passings), and bibs given from a range. Bibs and chips stay
 * unique in their race; the race's results are reloaded after each.
 */
export function createEdits(ctx: ParticipantsContext) {
  const { database, reload, race, store } = ctx;

  /** Adds one runner (bib unique in its race among those not deleted). */
  async function add(eventId: string, input: NewParticipant & { raceId: string }, actor: Actor) {
    const target = await race(eventId, input.raceId);
    const person: ImportedPerson = {
      line: 0,
      bib: input.bib ?? null,
      firstName: input.firstName,
      lastName: input.lastName,
      gender: input.gender,
      birthDate: input.birthDate ?? null,
      age: input.age ?? null,
      club: input.club ?? '',
      nationality: input.nationality ?? '',
      email: input.email ?? '',
      chips: input.chips ?? [],
      category: input.category ?? null,
      wave: input.wave ?? null,
    };
    const stored = await database.transaction(async (sql) => {
      if (person.bib) await requireFreeBib(sql, target.id, person.bib, null);
      const rows = await store(sql, target.id, [person], actor, 'create');
      await repo.bumpEpoch(sql, [target.id]);
      return rows[0]!;
    });
    await reload(target.db);
    const [row] = await database.query<{ id: string }>(
      'SELECT id FROM participants WHERE tracking_key = $1',
      [stored.trackingKey],
    );
    return (await repo.findParticipant(database, eventId, row!.id))!;
  }

  /** Changes fields of a runner, writing each change (before/after) to the audit. */
  async function update(eventId: string, id: string, patch: Record<string, unknown>, actor: Actor) {
    const current = await repo.findParticipant(database, eventId, id);
    if (!current) throw errors.notFound('PARTICIPANT_NOT_FOUND', `No participant '${id}'`);
    const changes = Object.entries(patch)
      .filter(
        ([field, after]) =>
          JSON.stringify((current as Record<string, unknown>)[field] ?? null) !==
          JSON.stringify(after ?? null),
      )
      .map(([field, after]) => ({
        field,
        before: (current as Record<string, unknown>)[field] ?? null,
        after,
      }));
    if (!changes.length) return current;
    await database.transaction(async (sql) => {
      if (typeof patch.bib === 'string') await requireFreeBib(sql, current.raceId, patch.bib, id);
      if (Array.isArray(patch.chips))
        await requireFreeChips(sql, current.raceId, patch.chips as string[], id);
      await repo.updateParticipant(sql, id, Object.fromEntries(changes.map((c) => [c.field, c.after])));
      await repo.insertAudit(
        sql,
        [{ participantId: id, raceId: current.raceId, action: 'update', changes }],
        actor,
      );
      await repo.bumpEpoch(sql, [current.raceId]);
    });
    await reload(current.db);
    return (await repo.findParticipant(database, eventId, id))!;
  }

  /** Soft-deletes a runner who has no passings (409 PARTICIPANT_HAS_PASSINGS otherwise). */
  async function remove(eventId: string, id: string, actor: Actor) {
    const current = await repo.findParticipant(database, eventId, id);
    if (!current) throw errors.notFound('PARTICIPANT_NOT_FOUND', `No participant '${id}'`);
    const passings = await repo.passingCount(database, current.db, current.bib, current.chips);
    if (passings > 0)
      throw errors.conflict(
        'PARTICIPANT_HAS_PASSINGS',
        `This runner has ${passings} passing(s): set a status instead`,
      );
    await database.transaction(async (sql) => {
      await repo.softDelete(sql, id);
      await repo.insertAudit(
        sql,
        [{ participantId: id, raceId: current.raceId, action: 'delete', changes: [] }],
        actor,
      );
      await repo.bumpEpoch(sql, [current.raceId]);
    });
    await reload(current.db);
  }

  /** Gives runners without a bib the free bibs of the range (remembered as the race's range). */
  async function assignBibs(
    eventId: string,
    input: { raceId: string; first: number; last: number },
    actor: Actor,
  ) {
    const target = await race(eventId, input.raceId);
    const result = await database.transaction(async (sql) => {
      await repo.setBibRange(sql, target.id, input.first, input.last);
      const out = await repo.assignBibs(sql, target.id, input.first, input.last);
      await repo.insertAudit(
        sql,
        out.assigned.map((a) => ({
          participantId: a.id,
          raceId: target.id,
          action: 'bib' as const,
          changes: [{ field: 'bib', before: null, after: a.bib }],
        })),
        actor,
      );
      if (out.assigned.length) await repo.bumpEpoch(sql, [target.id]);
      return out;
    });
    await reload(target.db);
    return { assigned: result.assigned.length, left: result.left };
  }

  return { add, update, remove, assignBibs };
}

/** 409 BIB_TAKEN when another runner of the race (not deleted) has the bib. */
async function requireFreeBib(sql: Sql, raceId: string, bib: string, self: string | null) {
  const taken = await sql.query(
    'SELECT 1 FROM participants WHERE race_id = $1 AND bib = $2 AND deleted_at IS NULL AND id IS DISTINCT FROM $3::uuid',
    [raceId, bib, self],
  );
  if (taken.length) throw errors.conflict('BIB_TAKEN', `Bib ${bib} is already taken in this race`);
}

/**
 * Chips must be unique among the race's runners (the rule of the chip file, issue 14), and a
 * runner's two chips must differ: 409 CHIP_TAKEN naming the chip and its runner's bib.
 */
async function requireFreeChips(sql: Sql, raceId: string, chips: readonly string[], self: string) {
  if (new Set(chips).size !== chips.length)
    throw errors.badRequest('VALIDATION_FAILED', 'Invalid body', [
      { field: 'chips', message: 'the same chip twice' },
    ]);
  if (!chips.length) return;
  const [taken] = await sql.query<{ bib: string | null; chip: string }>(
    `SELECT bib, chip FROM participants, unnest(chips) AS chip
      WHERE race_id = $1 AND deleted_at IS NULL AND id <> $2::uuid AND chip = ANY($3::text[]) LIMIT 1`,
    [raceId, self, chips],
  );
  if (taken)
    throw errors.conflict('CHIP_TAKEN', `Chip ${taken.chip} is already the chip of bib ${taken.bib ?? '—'}`);
}
