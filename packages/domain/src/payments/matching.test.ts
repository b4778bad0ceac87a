import { describe, expect, it } from 'vitest';
import { checkAllocation, type MatchableOrder, matchStatement, structuredInText } from './matching.ts';
import { formatStructured, structuredFromNumber } from './structured-communication.ts';

const A = structuredFromNumber(101);
const B = structuredFromNumber(102);
const C = structuredFromNumber(103);
const orders: MatchableOrder[] = [
  { id: 'a', structured: A, amountCents: 5000, paidCents: 0, state: 'awaiting_payment' },
  { id: 'b', structured: B, amountCents: 2500, paidCents: 0, state: 'awaiting_payment' },
  { id: 'c', structured: C, amountCents: 2500, paidCents: 2500, state: 'paid' },
];

describe('bank line matching', () => {
  it('matches automatically on communication and exact amount', () => {
    const [d] = matchStatement([{ bankRef: '1', amountCents: 5000, structured: A }], orders);
    expect(d).toEqual({ kind: 'matched', orderId: 'a', amountCents: 5000 });
  });

  it('reads one structured communication typed in the free text', () => {
    const [d] = matchStatement(
      [{ bankRef: '1', amountCents: 2500, freeText: `Inscription ${formatStructured(B)} merci` }],
      orders,
    );
    expect(d).toEqual({ kind: 'matched', orderId: 'b', amountCents: 2500 });
  });

  it('sends every other case to the manual queue with its reason', () => {
    const decisions = matchStatement(
      [
        { bankRef: '1', amountCents: 5000, freeText: 'team Acme 20 km' },
        { bankRef: '2', amountCents: 5000, structured: structuredFromNumber(999) },
        { bankRef: '3', amountCents: 5000, structured: '123456789003' },
        { bankRef: '4', amountCents: 7500, freeText: `${formatStructured(A)} + ${formatStructured(B)}` },
        { bankRef: '5', amountCents: 4000, structured: A },
        { bankRef: '6', amountCents: 6000, structured: A },
        { bankRef: '7', amountCents: 2500, structured: C },
      ],
      orders,
    );
    expect(decisions.map((d) => (d.kind === 'manual' ? d.reason : d.kind))).toEqual([
      'NO_REFERENCE',
      'UNKNOWN_REFERENCE',
      'NO_REFERENCE', // a wrong check digit is no reference at all
      'SEVERAL_ORDERS',
      'UNDERPAYMENT',
      'OVERPAYMENT',
      'ALREADY_PAID',
    ]);
    expect(decisions[3]).toMatchObject({ orderIds: ['a', 'b'] });
  });

  it('never matches a movement twice: duplicates in a file, re-imports, a second transfer', () => {
    const lines = [
      { bankRef: 'x', amountCents: 5000, structured: A },
      { bankRef: 'x', amountCents: 5000, structured: A },
      { bankRef: 'y', amountCents: 5000, structured: A },
    ];
    expect(matchStatement(lines, orders).map((d) => (d.kind === 'manual' ? d.reason : d.kind))).toEqual([
      'matched',
      'duplicate',
      'ALREADY_PAID',
    ]);
    expect(matchStatement(lines.slice(0, 1), orders, new Set(['x']))).toEqual([{ kind: 'duplicate' }]);
    expect(orders[0]!.paidCents).toBe(0); // the input is not changed
  });

  it('ignores debits and expired orders need a person', () => {
    const expired: MatchableOrder[] = [{ ...orders[0]!, state: 'expired' }];
    const d = matchStatement(
      [
        { bankRef: '1', amountCents: -5000, structured: A },
        { bankRef: '2', amountCents: 5000, structured: A },
      ],
      expired,
    );
    expect(d).toEqual([{ kind: 'debit' }, { kind: 'manual', reason: 'ORDER_CLOSED', orderIds: ['a'] }]);
  });

  it('finds structured communications in text only when their check holds', () => {
    expect(structuredInText('pay 123/4567/89002 and 123/4567/89003')).toEqual(['123456789002']);
  });

  it('checks a manual allocation of one transfer over several orders', () => {
    expect(
      checkAllocation(7500, [
        { orderId: 'a', amountCents: 5000 },
        { orderId: 'b', amountCents: 2500 },
      ]),
    ).toBeNull();
    expect(
      checkAllocation(7000, [
        { orderId: 'a', amountCents: 5000 },
        { orderId: 'b', amountCents: 2500 },
      ]),
    ).toMatch(/exceed/);
    expect(checkAllocation(7500, [])).toMatch(/at least/);
    expect(checkAllocation(7500, [{ orderId: 'a', amountCents: 0 }])).toMatch(/positive/);
    expect(
      checkAllocation(7500, [
        { orderId: 'a', amountCents: 1 },
        { orderId: 'a', amountCents: 1 },
      ]),
    ).toMatch(/once/);
  });
});
