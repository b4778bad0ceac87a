import { describe, expect, it } from 'vitest';
import { canMoveDeposit, canMoveEntry } from './deposit-states.ts';
import { draftOrders, isOrderExpired, orderExpiresAt, type PayableEntry, placesLeft } from './orders.ts';

const entries: PayableEntry[] = [
  { id: 'e1', raceId: '10k', memberSub: null, createdAt: '2026-03-01T10:00:00Z' },
  { id: 'e2', raceId: '10k', memberSub: 'ann', createdAt: '2026-03-02T10:00:00Z' },
  { id: 'e3', raceId: '20k', memberSub: 'bob', createdAt: '2026-03-05T10:00:00Z' },
];
const price = (race: string) => (race === '20k' ? 3000 : 2000);

describe('orders of a deposit', () => {
  it('the captain pays for everyone: one order, prices frozen per race', () => {
    const [order, ...rest] = draftOrders({ kind: 'captain' }, 'cap', entries, price);
    expect(rest).toEqual([]);
    expect(order).toMatchObject({ payerSub: 'cap', company: false, amountCents: 7000 });
    expect(order!.lines.map((l) => l.amountCents)).toEqual([2000, 2000, 3000]);
  });

  it('each member pays their own; the captain pays placeholders and those typed in', () => {
    const orders = draftOrders({ kind: 'member' }, 'cap', entries, price);
    expect(orders.map((o) => [o.payerSub, o.amountCents])).toEqual([
      ['cap', 2000],
      ['ann', 2000],
      ['bob', 3000],
    ]);
  });

  it('the company pays up to a cap of members, or until a date; the others pay themselves', () => {
    const capped = draftOrders({ kind: 'company', capMembers: 2 }, 'cap', entries, price);
    expect(capped.map((o) => [o.payerSub, o.company, o.amountCents])).toEqual([
      ['cap', true, 4000],
      ['bob', false, 3000],
    ]);
    const dated = draftOrders({ kind: 'company', until: '2026-03-01' }, 'cap', entries, price);
    expect(dated.map((o) => [o.payerSub, o.company, o.amountCents])).toEqual([
      ['cap', true, 2000],
      ['ann', false, 2000],
      ['bob', false, 3000],
    ]);
  });

  it('expires unpaid orders after the delay, never after the deadline', () => {
    const created = new Date('2026-03-01T00:00:00Z');
    expect(orderExpiresAt(created, 14, null).toISOString()).toBe('2026-03-15T00:00:00.000Z');
    const deadline = new Date('2026-03-10T00:00:00Z');
    expect(orderExpiresAt(created, 14, deadline)).toEqual(deadline);
    const order = { state: 'awaiting_payment', expiresAt: '2026-03-15T00:00:00Z' };
    expect(isOrderExpired(order, new Date('2026-03-14T23:59:59Z'))).toBe(false);
    expect(isOrderExpired(order, new Date('2026-03-15T00:00:00Z'))).toBe(true);
    expect(isOrderExpired({ ...order, state: 'paid' }, new Date('2027-01-01'))).toBe(false);
  });

  it('counts places held by unpaid orders against a race capacity', () => {
    expect(placesLeft(100, 60, 30)).toBe(10);
    expect(placesLeft(100, 80, 30)).toBe(0);
    expect(placesLeft(null, 80, 30)).toBe(Number.POSITIVE_INFINITY);
  });

  it('allows only the documented state moves', () => {
    expect(canMoveDeposit('collecting', 'submitted')).toBe(true);
    expect(canMoveDeposit('awaiting_payment', 'paid')).toBe(true);
    expect(canMoveDeposit('awaiting_payment', 'expired')).toBe(true);
    expect(canMoveDeposit('collecting', 'paid')).toBe(false);
    expect(canMoveDeposit('closed', 'collecting')).toBe(false);
    expect(canMoveDeposit('cancelled', 'collecting')).toBe(false);
    expect(canMoveEntry('placeholder', 'valid')).toBe(true);
    expect(canMoveEntry('valid', 'confirmed')).toBe(true);
    expect(canMoveEntry('confirmed', 'valid')).toBe(false);
    expect(canMoveEntry('cancelled', 'valid')).toBe(false);
  });
});
