import { parseStructured } from './structured-communication.ts';

/**
 * Automatic matching of bank statement lines to orders (issue 18): a credit whose structured
 * communication names an open order and whose amount is exactly what that order still owes is
 * matched; everything else goes to the staff's manual queue with the reason, so nothing is
 * guessed. The check digits make a mistyped reference land on another order with odds ~1/97.
 */

/** An order as the matcher sees it. */
export interface MatchableOrder {
  readonly id: string;
  /** Its 12-digit structured communication. */
  readonly structured: string;
  readonly amountCents: number;
  readonly paidCents: number;
  readonly state: 'awaiting_payment' | 'paid' | 'expired' | 'cancelled' | 'refunded';
}

/** One movement of a statement, already parsed (CODA or camt.053). */
export interface StatementLine {
  /** The bank's own reference of the movement: the same reference twice is one movement. */
  readonly bankRef: string;
  /** Positive for a credit, negative for a debit. */
  readonly amountCents: number;
  /** The structured communication the bank carried as such, if any (12 digits). */
  readonly structured?: string | null | undefined;
  /** Free-text communication. */
  readonly freeText?: string | undefined;
}

/** Why a line waits for a person. */
export type ManualReason =
  | 'NO_REFERENCE'
  | 'UNKNOWN_REFERENCE'
  | 'SEVERAL_ORDERS'
  | 'UNDERPAYMENT'
  | 'OVERPAYMENT'
  | 'ALREADY_PAID'
  | 'ORDER_CLOSED';

export type MatchDecision =
  | { readonly kind: 'matched'; readonly orderId: string; readonly amountCents: number }
  | { readonly kind: 'manual'; readonly reason: ManualReason; readonly orderIds: readonly string[] }
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'debit' };

const STRUCTURED_IN_TEXT = /(?:\+\+\+|\*\*\*)?\s*\d{3}\s*\/?\s*\d{4}\s*\/?\s*\d{5}\s*(?:\+\+\+|\*\*\*)?/g;

/** The valid structured communications written in a free-text communication. */
export function structuredInText(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(STRUCTURED_IN_TEXT)) {
    const digits = parseStructured(m[0]);
    if (digits) found.add(digits);
  }
  return [...found];
}

/** The references a line names: the bank's structured field, else those written in the text. */
export function referencesOf(line: StatementLine): string[] {
  const structured = line.structured ? parseStructured(line.structured) : null;
  if (structured) return [structured];
  return structuredInText(line.freeText ?? '');
}

/**
 * Decides every line of a statement in order. `seenBankRefs` are the movements imported before
 * (a statement imported twice matches nothing twice); a match updates the order's paid amount
 * for the following lines, so a second transfer for the same order is ALREADY_PAID.
 */
export function matchStatement(
  lines: readonly StatementLine[],
  orders: readonly MatchableOrder[],
  seenBankRefs: ReadonlySet<string> = new Set(),
): MatchDecision[] {
  const byRef = new Map(orders.map((o) => [o.structured, { ...o }]));
  const seen = new Set(seenBankRefs);
  return lines.map((line): MatchDecision => {
    if (seen.has(line.bankRef)) return { kind: 'duplicate' };
    seen.add(line.bankRef);
    if (line.amountCents <= 0) return { kind: 'debit' };
    const refs = referencesOf(line);
    if (refs.length === 0) return { kind: 'manual', reason: 'NO_REFERENCE', orderIds: [] };
    const known = refs.map((r) => byRef.get(r)).filter((o) => o !== undefined);
    if (known.length === 0) return { kind: 'manual', reason: 'UNKNOWN_REFERENCE', orderIds: [] };
    if (known.length > 1)
      return { kind: 'manual', reason: 'SEVERAL_ORDERS', orderIds: known.map((o) => o.id) };
    const order = known[0]!;
    const ids = [order.id];
    if (order.state === 'paid' || order.state === 'refunded') {
      return { kind: 'manual', reason: 'ALREADY_PAID', orderIds: ids };
    }
    if (order.state !== 'awaiting_payment') return { kind: 'manual', reason: 'ORDER_CLOSED', orderIds: ids };
    const due = order.amountCents - order.paidCents;
    if (line.amountCents < due) return { kind: 'manual', reason: 'UNDERPAYMENT', orderIds: ids };
    if (line.amountCents > due) return { kind: 'manual', reason: 'OVERPAYMENT', orderIds: ids };
    order.paidCents += line.amountCents;
    order.state = 'paid';
    return { kind: 'matched', orderId: order.id, amountCents: line.amountCents };
  });
}

/** A manual match: parts of one line given to orders. */
export interface Allocation {
  readonly orderId: string;
  readonly amountCents: number;
}

/**
 * Checks a manual match of one line (one transfer for several orders, or an under- or
 * over-payment accepted by staff): every part positive, the parts not above the line's amount.
 * Returns the problem, or null when it is acceptable; an unallocated rest stays on the line.
 */
export function checkAllocation(lineAmountCents: number, parts: readonly Allocation[]): string | null {
  if (parts.length === 0) return 'at least one order';
  if (new Set(parts.map((p) => p.orderId)).size !== parts.length) return 'each order once';
  if (parts.some((p) => !Number.isInteger(p.amountCents) || p.amountCents <= 0)) return 'positive amounts';
  const total = parts.reduce((s, p) => s + p.amountCents, 0);
  return total > lineAmountCents ? 'the parts exceed the amount received' : null;
}
