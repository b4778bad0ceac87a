import type { PickupOp, PickupOpAnswer } from '@tempora/contracts';
import { pickupOpSchema } from '@tempora/contracts';
import type { z } from 'zod';
import type { Sql } from '../../../db/database.ts';
import { AppError } from '../../../errors.ts';
import { entriesWhere } from '../../entries/port.ts';
import { assignPickupBib, bindPickupChip } from '../../participants/port.ts';
import { ordersWhere } from '../../payments/port.ts';
import * as repo from '../repository.ts';
import type { PickupActor, PickupDeps } from './shared.ts';

type Op = z.output<typeof pickupOpSchema>;
type Outcome = { answer: PickupOpAnswer; reload?: { db: string; bib: string | null } };

/**
 * A volunteer's operations (issue 39): handouts, bibs, chips, money taken, late entries. Each is
 * done once by its `opId` (claimed in `pickup_operations` and answered from there when sent again:
 * a phone that was offline sends its queue as many times as it needs). A refusal (a chip someone
 * else holds, a bib taken) is an answer too, final and stored; a second handout of a runner is
 * kept as a conflict. Operations of one batch run in order.
 */
export function createOps(deps: PickupDeps) {
  const { database } = deps;

  async function runnerOf(sql: Sql, eventId: string, participantId: string) {
    const [runner] = await repo.runnersOf(sql, eventId, [participantId]);
    if (!runner) throw new AppError(404, 'PARTICIPANT_NOT_FOUND', 'No such runner in this event');
    return runner;
  }

  const refused = (op: Op, code: string, message: string, extra: Partial<PickupOpAnswer> = {}): Outcome => ({
    answer: { opId: op.opId, status: 'refused', code, message, ...extra },
  });

  async function handout(
    sql: Sql,
    eventId: string,
    op: Extract<Op, { kind: 'handout' }>,
    actor: PickupActor,
  ) {
    const runner = await runnerOf(sql, eventId, op.participantId);
    const state = await repo.insertHandout(sql, {
      eventId,
      participantId: runner.id,
      raceId: runner.raceId,
      opId: op.opId,
      items: op.items,
      idNote: op.idNote,
      device: op.device,
      actorSub: actor.sub,
      actorEmail: actor.email,
      handedAt: op.at,
    });
    return {
      answer: {
        opId: op.opId,
        status: state === 'kept' ? 'done' : 'conflict',
        ...(state === 'conflict'
          ? { code: 'ALREADY_HANDED_OUT', message: 'Handed out before: kept as a conflict to resolve' }
          : {}),
        runner: await runnerOf(sql, eventId, runner.id),
      },
    } satisfies Outcome;
  }

  async function bib(sql: Sql, eventId: string, op: Extract<Op, { kind: 'bib' }>, actor: PickupActor) {
    const before = await runnerOf(sql, eventId, op.participantId);
    const out = await assignPickupBib(sql, before.id, op.bib, actor);
    if ('holder' in out)
      return refused(op, 'BIB_TAKEN', `Bib ${op.bib} is ${out.holder.name}'s`, {
        holder: { name: out.holder.name, bib: out.holder.bib },
      });
    if ('refused' in out)
      return refused(
        op,
        out.refused,
        out.refused === 'NO_RANGE'
          ? 'The race has no bib range: type a bib'
          : 'No free bib left in the range',
      );
    const [race] = await sql.query<{ db: string }>('SELECT db FROM races WHERE id = $1', [out.raceId]);
    return {
      answer: { opId: op.opId, status: 'done', runner: await runnerOf(sql, eventId, before.id) },
      ...(out.bib !== before.bib && race ? { reload: { db: race.db, bib: out.bib } } : {}),
    } satisfies Outcome;
  }

  async function chip(sql: Sql, eventId: string, op: Extract<Op, { kind: 'chip' }>, actor: PickupActor) {
    const runner = await runnerOf(sql, eventId, op.participantId);
    const out = await bindPickupChip(sql, runner.id, op.chip, actor);
    if (!out) throw new AppError(404, 'PARTICIPANT_NOT_FOUND', 'No such runner in this event');
    if ('holder' in out)
      return refused(
        op,
        'CHIP_TAKEN',
        `Chip ${op.chip} belongs to ${out.holder.name}${out.holder.bib ? ` (bib ${out.holder.bib})` : ''}`,
        { holder: { name: out.holder.name, bib: out.holder.bib } },
      );
    return {
      answer: { opId: op.opId, status: 'done', runner: await runnerOf(sql, eventId, runner.id) },
      ...(out.bound ? { reload: { db: out.db, bib: runner.bib } } : {}),
    } satisfies Outcome;
  }

  async function pay(sql: Sql, eventId: string, op: Extract<Op, { kind: 'pay' }>, actor: PickupActor) {
    const runner = await runnerOf(sql, eventId, op.participantId);
    const [entry] = await entriesWhere(sql, `e.participant_id = $1::uuid AND e.state = 'confirmed'`, [
      runner.id,
    ]);
    const [order] = entry?.orderId ? await ordersWhere(sql, 'o.id = $1::bigint', [entry.orderId]) : [];
    const owing = order?.state === 'awaiting_payment' && runner.unpaidCents > 0 ? order : null;
    if (!owing) return refused(op, 'NOTHING_OWED', 'Nothing is owed');
    if (op.amountCents > runner.unpaidCents)
      return refused(op, 'AMOUNT_TOO_HIGH', `Owed: ${runner.unpaidCents} cents`);
    await deps.payments.receive(sql, owing, {
      provider: 'bank',
      providerRef: `pickup:${op.opId}`,
      amountCents: op.amountCents,
      actorSub: actor.sub,
      note: `paid on site (${op.method})`,
    });
    await repo.insertPayment(sql, {
      opId: op.opId,
      eventId,
      participantId: runner.id,
      orderId: owing.id,
      method: op.method,
      amountCents: op.amountCents,
      actorSub: actor.sub,
    });
    return {
      answer: { opId: op.opId, status: 'done', runner: await runnerOf(sql, eventId, runner.id) },
    } satisfies Outcome;
  }

  /** A late entry: the entries module's manual entry paid on site, then a bib at once. */
  async function late(
    eventId: string,
    op: Extract<Op, { kind: 'late' }>,
    actor: PickupActor,
  ): Promise<Outcome> {
    const entry = await deps.entries.staff.manual(
      eventId,
      { runner: { ...op.runner, email: op.runner.email || '', answers: {} }, payment: 'on_site' },
      actor.sub,
    );
    if (!entry.participantId) return refused(op, 'ENTRY_NOT_CONFIRMED', 'The entry is not confirmed');
    const participantId = entry.participantId;
    return database.transaction(async (sql) => {
      const out = await assignPickupBib(sql, participantId, undefined, actor);
      if (entry.totalCents > 0)
        await repo.insertPayment(sql, {
          opId: op.opId,
          eventId,
          participantId,
          orderId: entry.orderId,
          method: op.method,
          amountCents: entry.totalCents,
          actorSub: actor.sub,
        });
      const [race] = await sql.query<{ db: string }>('SELECT db FROM races WHERE id = $1', [entry.raceId]);
      const runner = await runnerOf(sql, eventId, participantId);
      return {
        answer: {
          opId: op.opId,
          status: 'done',
          ...('bib' in out ? {} : { code: 'NO_BIB', message: 'Entered; no bib could be given: type one' }),
          runner,
        },
        ...(race ? { reload: { db: race.db, bib: runner.bib } } : {}),
      } satisfies Outcome;
    });
  }

  async function one(eventId: string, op: Op, actor: PickupActor): Promise<PickupOpAnswer> {
    const participantId = 'participantId' in op ? op.participantId : null;
    const claim = await repo.claimOperation(database, {
      opId: op.opId,
      eventId,
      kind: op.kind,
      participantId,
      actorSub: actor.sub,
    });
    if (!claim.claimed) {
      if (claim.eventId !== eventId)
        return { opId: op.opId, status: 'refused', code: 'OP_ID_USED', message: 'This operation id is used' };
      return claim.answer as PickupOpAnswer;
    }
    let outcome: Outcome;
    try {
      outcome =
        op.kind === 'late'
          ? await late(eventId, op, actor)
          : await database.transaction(async (sql) => {
              if (op.kind === 'handout') return handout(sql, eventId, op, actor);
              if (op.kind === 'bib') return bib(sql, eventId, op, actor);
              if (op.kind === 'chip') return chip(sql, eventId, op, actor);
              return pay(sql, eventId, op, actor);
            });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) {
        // Not an answer: the claim goes, so the phone's next try does it.
        await repo.dropClaim(database, op.opId);
        throw error;
      }
      const fields = error.errors?.map((f) => `${f.field}: ${f.message}`).join(', ');
      outcome = refused(op, error.code, fields || error.message);
    }
    await repo.storeAnswer(database, op.opId, outcome.answer);
    if (outcome.reload)
      await deps.results.reload(outcome.reload.db, outcome.reload.bib ? { bibs: [outcome.reload.bib] } : {});
    return outcome.answer;
  }

  /** Runs a batch of operations in order; each answered (done, conflict, refused, or pending). */
  async function run(eventId: string, ops: PickupOp[], actor: PickupActor): Promise<PickupOpAnswer[]> {
    const answers: PickupOpAnswer[] = [];
    for (const raw of ops) answers.push(await one(eventId, pickupOpSchema.parse(raw), actor));
    return answers;
  }

  return { run };
}
