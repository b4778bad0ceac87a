import type { DepositDetail, DepositEntry, EntryInput } from '@tempora/contracts';
import { formatStructured } from '@tempora/domain';
import * as payRepo from '../../payments/port.ts';
import { expireOrders } from '../confirm.ts';
import { assessEntry } from '../entry-rules.ts';
import * as repo from '../repository.ts';
import { type Actor, type DepositsContext, deadlineOf, settingsOf } from './shared.ts';

/**
 * A deposit as one actor sees it (issue 18): its entries with what each misses, its orders and
 * what is paid, the totals. A member sees their own entry's email and no join code nor members.
 * Reads only (expired orders are expired first).
 */
export function createDetail(ctx: DepositsContext) {
  const { database, now } = ctx;

  async function detail(id: string, actor: Actor): Promise<DepositDetail> {
    await expireOrders(database, now());
    const deposit = (await repo.findDeposit(database, id)) as repo.DepositRow;
    const settings = await settingsOf(database, deposit.eventId);
    const deadline = deadlineOf(settings, deposit);
    const races = new Map((await repo.racesOfEvent(database, deposit.eventId)).map((r) => [r.id, r]));
    const entries = await repo.entriesOf(database, id);
    const orders = await payRepo.ordersWhere(database, 'o.deposit_id = $1::bigint', [id]);
    const lines = await payRepo.linesOf(
      database,
      orders.map((o) => o.id),
    );
    const orderOfEntry = new Map<string, { orderId: string; amountCents: number; paid: boolean }>();
    for (const l of lines) {
      const order = orders.find((o) => o.id === l.orderId);
      if (!order || order.state === 'expired' || order.state === 'cancelled') continue;
      orderOfEntry.set(l.entryId, {
        orderId: l.orderId,
        amountCents: l.amountCents,
        paid: order.state === 'paid',
      });
    }
    const view: DepositEntry[] = entries.map((e) => {
      const a = assessEntry(e, races.get(e.raceId ?? ''));
      const o = orderOfEntry.get(e.id);
      return {
        id: e.id,
        state: e.state as DepositEntry['state'],
        memberSub: e.memberSub,
        mine: e.memberSub === actor.sub,
        raceId: e.raceId,
        raceName: races.get(e.raceId ?? '')?.name ?? null,
        firstName: e.firstName,
        lastName: e.lastName,
        gender: e.gender,
        birthDate: e.birthDate,
        email: actor.role === 'member' && e.memberSub !== actor.sub ? '' : e.email,
        nationality: e.nationality,
        category: e.category,
        bib: e.bib,
        missing: e.state === 'cancelled' ? [] : a.missing,
        substitution: (e.substitution as EntryInput | null) ?? null,
        orderId: o?.orderId ?? null,
        paid: o?.paid ?? false,
        priceCents: o?.amountCents ?? (e.raceId ? (settings?.fees[e.raceId] ?? 0) : null),
      };
    });
    const live = view.filter((e) => e.state !== 'cancelled');
    const seesAll = actor.role !== 'member';
    return {
      id,
      eventId: deposit.eventId,
      eventName: deposit.eventName,
      organisationName: deposit.organisationName,
      vat: deposit.vat,
      type: deposit.type as DepositDetail['type'],
      payerMode: deposit.payerMode as DepositDetail['payerMode'],
      companyCap: deposit.companyCap,
      companyUntil: deposit.companyUntil,
      minTeamSize: deposit.minTeamSize,
      state: deposit.state as DepositDetail['state'],
      captainSub: deposit.captainSub,
      captainName: deposit.captainName || deposit.captainEmail,
      role: actor.role,
      joinCode: seesAll ? deposit.joinCode : null,
      editable: deposit.state === 'collecting' && (actor.role === 'staff' || now() < deadline),
      deadline: deadline.toISOString(),
      currency: settings?.currency ?? 'EUR',
      iban: settings?.iban ?? '',
      beneficiary: settings?.beneficiary ?? '',
      members: seesAll ? await repo.membersOf(database, id) : [],
      entries: view,
      orders: orders.map((o) => ({
        id: o.id,
        // A deposit's orders always have a payer (only a document's order has none).
        payerSub: o.payerSub ?? '',
        payerName: o.payerName || o.payerEmail,
        company: o.company,
        state: o.state,
        amountCents: o.amountCents,
        paidCents: o.paidCents,
        refundedCents: o.refundedCents,
        currency: o.currency,
        structured: formatStructured(o.structured),
        expiresAt: o.expiresAt,
        mine: o.payerSub === actor.sub,
      })),
      totals: {
        entries: live.length,
        placeholders: live.filter((e) => e.state === 'placeholder').length,
        missing: live.filter((e) => e.missing.length > 0).length,
        amountCents: live.reduce((s, e) => s + (e.priceCents ?? 0), 0),
        paidCents: orders.filter((o) => o.state === 'paid').reduce((s, o) => s + o.paidCents, 0),
      },
      createdAt: deposit.createdAt,
      submittedAt: deposit.submittedAt,
    };
  }

  return { detail };
}
