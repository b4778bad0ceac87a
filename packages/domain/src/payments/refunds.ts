/**
 * Refund policies (issue 18): full, partial (an amount), or date-based tiers such as "100 % until
 * 1 May, 50 % until 15 May, nothing after". Dates are `YYYY-MM-DD`, inclusive, compared in the
 * event's calendar (the caller passes the day of the request there).
 */

/** One tier: `percent` of what was paid, for requests made on or before `until`. */
export interface RefundTier {
  readonly until: string;
  readonly percent: number;
}

export type RefundPolicy =
  | { readonly kind: 'full' }
  | { readonly kind: 'none' }
  | { readonly kind: 'tiers'; readonly tiers: readonly RefundTier[] };

/** The percentage a policy grants on `day` (`YYYY-MM-DD`). */
export function refundPercent(policy: RefundPolicy, day: string): number {
  if (policy.kind === 'full') return 100;
  if (policy.kind === 'none') return 0;
  const tiers = [...policy.tiers].sort((a, b) => a.until.localeCompare(b.until));
  return tiers.find((t) => day <= t.until)?.percent ?? 0;
}

/**
 * What a policy refunds on `day` of an order that was paid `paidCents` and already refunded
 * `refundedCents`: rounded down to the cent, never more than what is left.
 */
export function policyRefundCents(
  policy: RefundPolicy,
  day: string,
  paidCents: number,
  refundedCents = 0,
): number {
  const due = Math.floor((paidCents * refundPercent(policy, day)) / 100);
  return Math.max(0, Math.min(due, paidCents) - refundedCents);
}

/** A partial refund request checked against what is left (null when acceptable). */
export function checkPartialRefund(
  amountCents: number,
  paidCents: number,
  refundedCents: number,
): string | null {
  if (!Number.isInteger(amountCents) || amountCents <= 0) return 'a positive amount in cents';
  if (amountCents > paidCents - refundedCents) return 'more than what is left to refund';
  return null;
}

/** Whether tiers are usable: percents 0–100, distinct dates, not rising over time. */
export function checkPolicy(policy: RefundPolicy): string | null {
  if (policy.kind !== 'tiers') return null;
  const tiers = [...policy.tiers].sort((a, b) => a.until.localeCompare(b.until));
  if (tiers.some((t) => !/^\d{4}-\d{2}-\d{2}$/.test(t.until))) return 'dates as YYYY-MM-DD';
  if (tiers.some((t) => t.percent < 0 || t.percent > 100)) return 'percents between 0 and 100';
  for (let k = 1; k < tiers.length; k++) {
    if (tiers[k]!.until === tiers[k - 1]!.until) return 'one tier per date';
    if (tiers[k]!.percent > tiers[k - 1]!.percent) return 'a later tier never refunds more';
  }
  return null;
}
