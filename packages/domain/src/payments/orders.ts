/**
 * Orders of a group deposit (issue 18, product.md "Deposits"): who pays which entry, the lines
 * with their prices frozen at submission, and when an unpaid order expires (its held places are
 * then released).
 */

/** Who pays (product.md): the captain for everyone, each member for themself, or the company
 * up to a cap of members and/or until a date, the rest paying for themselves. */
export type PayerMode =
  | { readonly kind: 'captain' }
  | { readonly kind: 'member' }
  | { readonly kind: 'company'; readonly capMembers?: number | null; readonly until?: string | null };

/** An entry as the order builder sees it. */
export interface PayableEntry {
  readonly id: string;
  readonly raceId: string;
  /** The member who filled it in (null: the captain's, or a placeholder). */
  readonly memberSub: string | null;
  /** When it was created (`YYYY-MM-DD…`), for the company's date limit. */
  readonly createdAt: string;
}

/** One line of an order. */
export interface OrderLine {
  readonly entryId: string;
  readonly raceId: string;
  readonly amountCents: number;
}

/** An order to create: a payer and its lines. */
export interface OrderDraft {
  readonly payerSub: string;
  /** True when the company (the captain's organisation) pays, for the invoice's wording. */
  readonly company: boolean;
  readonly lines: readonly OrderLine[];
  readonly amountCents: number;
}

/**
 * Splits the entries of a submission into orders, one per payer, with prices frozen from
 * `priceOf` (cents per race). Entries without a member (placeholders, those the captain typed)
 * are the captain's. In company mode the company pays the first `capMembers` entries (in
 * creation order) created on or before `until`; the others are each member's.
 */
export function draftOrders(
  mode: PayerMode,
  captainSub: string,
  entries: readonly PayableEntry[],
  priceOf: (raceId: string) => number,
): OrderDraft[] {
  const payers = new Map<string, { company: boolean; lines: OrderLine[] }>();
  const add = (payer: string, company: boolean, entry: PayableEntry) => {
    const key = `${payer}|${company}`;
    const bucket = payers.get(key) ?? { company, lines: [] };
    bucket.lines.push({ entryId: entry.id, raceId: entry.raceId, amountCents: priceOf(entry.raceId) });
    payers.set(key, bucket);
  };
  const sorted = [...entries].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
  let companyCount = 0;
  for (const entry of sorted) {
    const own = entry.memberSub ?? captainSub;
    if (mode.kind === 'captain') add(captainSub, false, entry);
    else if (mode.kind === 'member') add(own, false, entry);
    else {
      const inCap = mode.capMembers == null || companyCount < mode.capMembers;
      const inTime = !mode.until || entry.createdAt.slice(0, 10) <= mode.until;
      if (inCap && inTime) {
        companyCount++;
        add(captainSub, true, entry);
      } else add(own, false, entry);
    }
  }
  return [...payers.entries()].map(([key, { company, lines }]) => ({
    payerSub: key.split('|')[0]!,
    company,
    lines,
    amountCents: lines.reduce((s, l) => s + l.amountCents, 0),
  }));
}

/**
 * When an order created at `createdAt` stops holding its places: `days` later, but never after
 * the entry deadline (an unpaid place cannot outlive the entries).
 */
export function orderExpiresAt(createdAt: Date, days: number, deadline: Date | null): Date {
  const byDays = new Date(createdAt.getTime() + days * 86_400_000);
  return deadline && deadline < byDays ? deadline : byDays;
}

/** Whether an order still awaiting payment has expired at `now`. */
export function isOrderExpired(order: { state: string; expiresAt: Date | string }, now: Date): boolean {
  return order.state === 'awaiting_payment' && new Date(order.expiresAt).getTime() <= now.getTime();
}

/**
 * Places left in a race: its capacity less the confirmed entries and the places held by orders
 * still awaiting payment (expired orders hold nothing). Infinity without a capacity.
 */
export function placesLeft(capacity: number | null | undefined, confirmed: number, held: number): number {
  return capacity == null ? Number.POSITIVE_INFINITY : Math.max(0, capacity - confirmed - held);
}
