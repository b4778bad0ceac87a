import { interpolate, sharedLocales } from '@tempora/contracts/locales';
import {
  canMoveDeposit,
  type DepositState,
  draftOrders,
  formatStructured,
  orderExpiresAt,
  type PayerMode,
  placesLeft,
} from '@tempora/domain';
import { errors } from '../../../errors.ts';
import * as payRepo from '../../payments/port.ts';
import { settleDeposit } from '../confirm.ts';
import * as repo from '../repository.ts';
import {
  type DepositsContext,
  deadlineOf,
  htmlOf,
  requireBeforeDeadline,
  requireState,
  settingsOf,
} from './shared.ts';

/**
 * A deposit's submission (issue 18): every entry complete and places left, then prices frozen
 * into orders (one per payer, by the payer mode) in one transaction, the results reloaded, and
 * each payer mailed what to transfer.
 */
export function createSubmission(ctx: DepositsContext) {
  const { database, outbox, results, now, link } = ctx;

  async function submit(deposit: repo.DepositRow) {
    requireState(deposit, ['collecting']);
    if (!canMoveDeposit(deposit.state as DepositState, 'submitted'))
      throw errors.conflict('DEPOSIT_STATE', deposit.state);
    const settings = await settingsOf(database, deposit.eventId);
    const deadline = deadlineOf(settings, deposit);
    requireBeforeDeadline(now, deadline, 'captain');
    if (!settings?.open) throw errors.conflict('DEPOSITS_CLOSED', 'This event takes no group entries (now)');
    const entries = (await repo.entriesOf(database, deposit.id)).filter((e) => e.state !== 'cancelled');
    const paidLines = await database.query<{ entryId: string }>(
      `SELECT l.entry_id::text AS "entryId" FROM order_lines l JOIN orders o ON o.id = l.order_id
        WHERE o.deposit_id = $1::bigint AND o.state = 'paid'`,
      [deposit.id],
    );
    const alreadyPaid = new Set(paidLines.map((l) => l.entryId));
    const toPay = entries.filter((e) => !alreadyPaid.has(e.id));
    if (!toPay.length) throw errors.conflict('DEPOSIT_EMPTY', 'No entry to submit');
    const incomplete = toPay.filter((e) => !e.raceId || e.state === 'submitted');
    if (incomplete.length) {
      throw errors.badRequest(
        'ENTRIES_INCOMPLETE',
        'Every entry needs a race, and a name only with all its fields (or none: a placeholder)',
        incomplete.map((e) => ({
          field: `entries.${e.id}`,
          message: e.raceId ? 'missing fields' : 'no race',
        })),
      );
    }
    const taken = await repo.placesTaken(database, deposit.eventId);
    const wanted = new Map<string, number>();
    for (const e of toPay) wanted.set(e.raceId as string, (wanted.get(e.raceId as string) ?? 0) + 1);
    for (const [raceId, n] of wanted) {
      if (placesLeft(settings.capacities[raceId], taken.get(raceId) ?? 0, 0) < n) {
        throw errors.conflict('RACE_FULL', `Not enough places left in '${raceId}'`);
      }
    }
    const mode: PayerMode =
      deposit.payerMode === 'company'
        ? { kind: 'company', capMembers: deposit.companyCap, until: deposit.companyUntil }
        : { kind: deposit.payerMode as 'captain' | 'member' };
    const drafts = draftOrders(
      mode,
      deposit.captainSub,
      toPay.map((e) => ({
        id: e.id,
        raceId: e.raceId as string,
        memberSub: e.memberSub,
        createdAt: e.createdAt,
      })),
      (raceId) => settings.fees[raceId] ?? 0,
    );
    const created: { id: string; payerSub: string; amountCents: number; structured: string }[] = [];
    const contexts = await database.transaction(async (sql) => {
      for (const draft of drafts) {
        const id = await payRepo.nextOrderId(sql);
        const structured = await payRepo.freeStructured(sql);
        await payRepo.insertOrder(sql, {
          id,
          depositId: deposit.id,
          eventId: deposit.eventId,
          payerSub: draft.payerSub,
          company: draft.company,
          state: draft.amountCents === 0 ? 'paid' : 'awaiting_payment',
          amountCents: draft.amountCents,
          currency: settings.currency,
          structured,
          expiresAt: orderExpiresAt(now(), settings.orderExpiryDays, deadline),
          lines: draft.lines.map((l) => ({ ...l })),
        });
        created.push({ id, payerSub: draft.payerSub, amountCents: draft.amountCents, structured });
      }
      await repo.updateDeposit(sql, deposit.id, { state: 'awaiting_payment', submitted: true });
      return settleDeposit(sql, deposit.id);
    });
    for (const db of contexts) await results.reload(db);
    await mailOrders(deposit, settings, created);
  }

  async function mailOrders(
    deposit: repo.DepositRow,
    settings: repo.SettingsRow,
    created: { id: string; payerSub: string; amountCents: number; structured: string }[],
  ) {
    for (const order of created.filter((o) => o.amountCents > 0)) {
      const [payer] = await database.query<{ email: string; lng: 'en' | 'fr' }>(
        'SELECT email, lng FROM users WHERE sub = $1',
        [order.payerSub],
      );
      if (!payer) continue;
      // In the payer's language (issue 41: the French words existed, unused).
      const words = sharedLocales[payer.lng].mails.depositOrder;
      const amount = `${(order.amountCents / 100).toFixed(2)} ${settings.currency}`;
      const communication = formatStructured(order.structured);
      const text = [
        `${deposit.eventName} — ${deposit.organisationName}`,
        interpolate(words.order, { id: order.id, amount }),
        interpolate(words.transfer, {
          beneficiary: settings.beneficiary,
          iban: settings.iban,
          communication,
        }),
        link(`/deposit/${deposit.eventId}/${deposit.id}/paymentok`),
      ].join('\n');
      await outbox.send({
        to: payer.email,
        subject: interpolate(words.subject, {
          event: deposit.eventName,
          amount,
          communication,
        }),
        text,
        html: htmlOf(text),
      });
    }
  }

  return { submit };
}
