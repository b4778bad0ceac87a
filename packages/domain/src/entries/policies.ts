import { policyRefundCents, type RefundPolicy } from '../payments/refunds.ts';

/**
 * What a runner may do with their entry, by date and with fees (issue 38): edit their details,
 * move to another race of the event (the price difference paid or refunded), give their place to
 * someone else (a fee), defer to the next edition (a fee), cancel with a refund by date (the
 * refund policies of issue 18). Days are `YYYY-MM-DD` in the event's calendar, inclusive.
 */
export interface EntryPolicy {
  readonly editUntil?: string | null;
  readonly moveUntil?: string | null;
  readonly transferUntil?: string | null;
  readonly transferFeeCents?: number;
  readonly deferUntil?: string | null;
  readonly deferFeeCents?: number;
  readonly cancelUntil?: string | null;
  readonly refund?: RefundPolicy;
}

export type EntryAction = 'edit' | 'move' | 'transfer' | 'defer' | 'cancel';

const untilOf: Record<EntryAction, keyof EntryPolicy> = {
  edit: 'editUntil',
  move: 'moveUntil',
  transfer: 'transferUntil',
  defer: 'deferUntil',
  cancel: 'cancelUntil',
};

/** Whether `action` is allowed on `day`: a date is set for it and the day is not past it. */
export function actionAllowed(policy: EntryPolicy, action: EntryAction, day: string): boolean {
  const until = policy[untilOf[action]] as string | null | undefined;
  return typeof until === 'string' && day <= until;
}

/** The actions allowed on `day`, for the runner's page. */
export function allowedActions(policy: EntryPolicy, day: string): EntryAction[] {
  return (Object.keys(untilOf) as EntryAction[]).filter((a) => actionAllowed(policy, a, day));
}

/**
 * A move to another race: what the runner pays (the new price is higher) or gets back (lower),
 * from what the entry was paid and what the other race costs now.
 */
export function moveDifference(
  paidEntryCents: number,
  newEntryCents: number,
): { payCents: number; refundCents: number } {
  const diff = newEntryCents - paidEntryCents;
  return { payCents: Math.max(0, diff), refundCents: Math.max(0, -diff) };
}

/** What a cancellation on `day` refunds of `paidCents` (nothing without a refund policy). */
export function cancelRefundCents(
  policy: EntryPolicy,
  day: string,
  paidCents: number,
  refundedCents = 0,
): number {
  return policyRefundCents(policy.refund ?? { kind: 'none' }, day, paidCents, refundedCents);
}

/**
 * A deferral to the next edition: the entry becomes a credit of what was paid for it minus the
 * policy's fee; the runner pays only the part of the fee the credit does not cover (an entry
 * comped or paid less than the fee).
 */
export function deferCredit(
  policy: EntryPolicy,
  paidCents: number,
): { payCents: number; creditCents: number } {
  const fee = policy.deferFeeCents ?? 0;
  return { payCents: Math.max(0, fee - paidCents), creditCents: Math.max(0, paidCents - fee) };
}

/** What an action costs (+) or refunds (−) on `day`, shown before the runner confirms it. */
export function actionQuote(
  policy: EntryPolicy,
  action: EntryAction,
  day: string,
  p: { paidCents: number; refundedCents?: number; paidEntryCents?: number; newEntryCents?: number },
): { payCents: number; refundCents: number; creditCents?: number } {
  switch (action) {
    case 'edit':
      return { payCents: 0, refundCents: 0 };
    case 'transfer':
      return { payCents: policy.transferFeeCents ?? 0, refundCents: 0 };
    case 'defer': {
      const { payCents, creditCents } = deferCredit(policy, p.paidCents);
      return { payCents, refundCents: 0, creditCents };
    }
    case 'cancel':
      return { payCents: 0, refundCents: cancelRefundCents(policy, day, p.paidCents, p.refundedCents ?? 0) };
    case 'move':
      return moveDifference(p.paidEntryCents ?? 0, p.newEntryCents ?? 0);
  }
}
