import type { DepositCreate, DepositOffer, DepositPatch, JoinPreview } from '@tempora/contracts';
import { canMoveDeposit, type DepositState, placesLeft } from '@tempora/domain';
import { errors } from '../../../errors.ts';
import type { DepositRole } from '../access.ts';
import * as repo from '../repository.ts';
import { type DepositsContext, deadlineOf, joinCode, requireState, settingsOf } from './shared.ts';

/**
 * The offer and the deposit itself (issue 18): what an event offers to groups (races, prices,
 * places left, deadline), what a join code shows before joining, and a deposit's creation,
 * edits and moves between states (cancel, reopen, close).
 */
export function createOffers(ctx: DepositsContext) {
  const { database, now } = ctx;

  async function offer(eventId: string): Promise<DepositOffer> {
    const [event] = await database.query<{ name: string; start: string }>(
      `SELECT name, to_char(start_date, 'YYYY-MM-DD') AS start FROM events WHERE id = $1`,
      [eventId],
    );
    if (!event) throw errors.notFound('EVENT_NOT_FOUND', `No event '${eventId}'`);
    const settings = await settingsOf(database, eventId);
    const deadline = deadlineOf(settings, { eventStart: event.start });
    const taken = await repo.placesTaken(database, eventId);
    const races = (await repo.racesOfEvent(database, eventId)).map((r) => {
      const left = placesLeft(settings?.capacities[r.id], taken.get(r.id) ?? 0, 0);
      return {
        id: r.id,
        name: r.name,
        date: r.date,
        priceCents: settings?.fees[r.id] ?? 0,
        placesLeft: Number.isFinite(left) ? left : null,
      };
    });
    return {
      eventId,
      eventName: event.name,
      open: Boolean(settings?.open) && now() < deadline,
      deadline: deadline.toISOString(),
      currency: settings?.currency ?? 'EUR',
      races,
    };
  }

  /**
   * What someone holding a join code sees before joining (issue 25): the event, the team's name,
   * the deadline and whether it still takes members. Not the captain, nor the deposit's id.
   */
  async function joinPreview(deposit: repo.DepositRow): Promise<JoinPreview> {
    const settings = await settingsOf(database, deposit.eventId);
    const deadline = deadlineOf(settings, deposit);
    return {
      eventId: deposit.eventId,
      eventName: deposit.eventName,
      teamName: deposit.organisationName,
      deadline: deadline.toISOString(),
      open: deposit.state === 'collecting' && now() < deadline,
    };
  }

  async function create(sub: string, input: DepositCreate & { payerMode: string; minTeamSize: number }) {
    const available = await offer(input.eventId);
    if (!available.open) throw errors.conflict('DEPOSITS_CLOSED', 'This event takes no group entries (now)');
    for (let attempt = 0; ; attempt++) {
      try {
        return await repo.insertDeposit(database, {
          eventId: input.eventId,
          organisationName: input.organisationName,
          vat: input.vat || null,
          type: input.type,
          captainSub: sub,
          joinCode: joinCode(),
          payerMode: input.payerMode,
          companyCap: input.companyCap ?? null,
          companyUntil: input.companyUntil ?? null,
          minTeamSize: input.minTeamSize,
        });
      } catch (error) {
        // A join code or id collision (40 and 52 bits: rare) draws again.
        if (attempt >= 3 || !/join_code|deposits_pkey/.test(String((error as Error).message))) throw error;
      }
    }
  }

  async function patch(deposit: repo.DepositRow, input: DepositPatch) {
    requireState(deposit, ['collecting']);
    await repo.updateDeposit(database, deposit.id, { ...input, vat: input.vat === '' ? null : input.vat });
  }

  async function move(
    deposit: repo.DepositRow,
    role: DepositRole,
    to: 'cancelled' | 'collecting' | 'closed',
  ) {
    if (!canMoveDeposit(deposit.state as DepositState, to)) {
      throw errors.conflict('DEPOSIT_STATE', `A ${deposit.state} deposit cannot become ${to}`);
    }
    if (to === 'cancelled' && role === 'captain' && ['paid', 'confirmed'].includes(deposit.state)) {
      throw errors.forbidden('After payment only the organiser cancels (and refunds)');
    }
    if (to === 'closed' && role !== 'staff') throw errors.forbidden('The organiser closes a deposit');
    await database.transaction(async (sql) => {
      await repo.updateDeposit(sql, deposit.id, { state: to });
      if (to === 'cancelled') {
        await sql.query(
          `UPDATE orders SET state = 'cancelled' WHERE deposit_id = $1::bigint AND state = 'awaiting_payment'`,
          [deposit.id],
        );
        await sql.query(
          `UPDATE deposit_entries SET state = 'cancelled', updated_at = now() WHERE deposit_id = $1::bigint AND state <> 'confirmed'`,
          [deposit.id],
        );
      }
    });
  }

  return { offer, joinPreview, create, patch, move };
}
