/**
 * State machines of a deposit and of its entries (issue 18, product.md "Deposits"). Pure tables:
 * the server refuses any other move with 409 and the state's name.
 */

export const depositStates = [
  'collecting',
  'submitted',
  'awaiting_payment',
  'paid',
  'confirmed',
  'closed',
  'expired',
  'cancelled',
] as const;
export type DepositState = (typeof depositStates)[number];

export const entryStates = ['placeholder', 'submitted', 'valid', 'confirmed', 'cancelled'] as const;
export type EntryState = (typeof entryStates)[number];

const depositMoves: Record<DepositState, readonly DepositState[]> = {
  collecting: ['submitted', 'cancelled'],
  // A submission with nothing to pay (all free races) goes straight to paid.
  submitted: ['awaiting_payment', 'paid', 'cancelled'],
  awaiting_payment: ['paid', 'expired', 'cancelled'],
  paid: ['confirmed', 'cancelled'],
  confirmed: ['closed', 'cancelled'],
  // An expired deposit may collect again (its places were released; prices are frozen anew).
  expired: ['collecting', 'cancelled'],
  closed: [],
  cancelled: [],
};

const entryMoves: Record<EntryState, readonly EntryState[]> = {
  placeholder: ['submitted', 'valid', 'cancelled'],
  submitted: ['valid', 'cancelled'],
  valid: ['confirmed', 'submitted', 'cancelled'],
  confirmed: ['cancelled'],
  cancelled: [],
};

/** Whether a deposit may move from `from` to `to`. */
export function canMoveDeposit(from: DepositState, to: DepositState): boolean {
  return depositMoves[from].includes(to);
}

/** Whether an entry may move from `from` to `to`. */
export function canMoveEntry(from: EntryState, to: EntryState): boolean {
  return entryMoves[from].includes(to);
}

/** Whether members and the captain may still add or change entries (before submission). */
export function isCollecting(state: DepositState): boolean {
  return state === 'collecting';
}

/** Whether the deposit's entries have been paid for (changes then need the organiser). */
export function isPaidOrLater(state: DepositState): boolean {
  return state === 'paid' || state === 'confirmed' || state === 'closed';
}
