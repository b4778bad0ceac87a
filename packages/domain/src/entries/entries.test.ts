import { describe, expect, it } from 'vitest';
import { eligibilityErrors } from './eligibility.ts';
import { actionAllowed, actionQuote, allowedActions } from './policies.ts';
import { ageOn, discountCents, entryPrice, priceAt } from './pricing.ts';

describe('entries: prices by date, age and member code', () => {
  const tiers = [
    { from: '2026-03-01T00:00:00.000Z', cents: 3000 },
    { from: '2026-01-01T00:00:00.000Z', cents: 2500 },
  ];
  it('gives the price now and the next one with its date', () => {
    expect(priceAt(tiers, '2026-02-10T10:00:00.000Z')).toEqual({
      cents: 2500,
      next: { cents: 3000, from: '2026-03-01T00:00:00.000Z' },
    });
    expect(priceAt(tiers, '2026-03-01T00:00:00.000Z')).toEqual({ cents: 3000, next: null });
    expect(priceAt(tiers, '2025-12-01T00:00:00.000Z').cents).toBe(2500);
  });
  it('takes the lower of the tier and a matching age or member price', () => {
    const prices = {
      tiers,
      agePrices: [{ maxAge: 15, cents: 1000 }],
      memberPrices: [{ code: 'FRBA', cents: 2000 }],
    };
    expect(
      entryPrice(prices, { at: '2026-04-01T00:00:00Z', raceDay: '2026-09-20', birthDate: '2011-09-21' }),
    ).toBe(1000);
    expect(
      entryPrice(prices, { at: '2026-04-01T00:00:00Z', raceDay: '2026-09-20', birthDate: '2010-09-20' }),
    ).toBe(3000);
    expect(
      entryPrice(prices, { at: '2026-04-01T00:00:00Z', raceDay: '2026-09-20', memberCode: ' frba ' }),
    ).toBe(2000);
    expect(ageOn('2000-02-29', '2026-02-28')).toBe(25);
  });
  it('discounts a percent rounded down or an amount, never below zero', () => {
    expect(discountCents(2599, { kind: 'percent', value: 10 })).toBe(259);
    expect(discountCents(1000, { kind: 'amount', value: 1500 })).toBe(1000);
  });
});

describe('entries: eligibility', () => {
  const rules = {
    raceDay: '2026-09-20',
    minAge: 16,
    maxAge: 80,
    required: ['gender' as const],
    guardianForMinors: true,
    waiverVersion: 2,
  };
  const runner = {
    firstName: 'Ana',
    lastName: 'Lee',
    email: 'ana@example.org',
    birthDate: '2000-01-01',
    gender: 'F',
    waiverVersion: 2,
  };
  it('accepts an eligible runner', () => expect(eligibilityErrors(rules, runner)).toEqual([]));
  it('names each field in error', () => {
    expect(eligibilityErrors(rules, { ...runner, birthDate: '2012-01-01' })).toContainEqual({
      field: 'birthDate',
      code: 'AGE_TOO_LOW',
    });
    expect(eligibilityErrors(rules, { ...runner, birthDate: '2009-01-01' }).map((e) => e.field)).toEqual([
      'guardianName',
      'guardianEmail',
    ]);
    expect(eligibilityErrors(rules, { ...runner, waiverVersion: 1 })).toEqual([
      { field: 'waiver', code: 'WAIVER_NOT_ACCEPTED' },
    ]);
    expect(eligibilityErrors(rules, { ...runner, gender: '' })).toEqual([
      { field: 'gender', code: 'REQUIRED' },
    ]);
  });
});

describe('entries: policies', () => {
  const policy = {
    editUntil: '2026-09-01',
    moveUntil: '2026-08-01',
    transferUntil: '2026-08-01',
    transferFeeCents: 500,
    cancelUntil: '2026-06-01',
    refund: {
      kind: 'tiers' as const,
      tiers: [
        { until: '2026-05-01', percent: 100 },
        { until: '2026-06-01', percent: 50 },
      ],
    },
  };
  it('allows each action until its date', () => {
    expect(allowedActions(policy, '2026-05-15')).toEqual(['edit', 'move', 'transfer', 'cancel']);
    expect(actionAllowed(policy, 'cancel', '2026-06-02')).toBe(false);
    expect(actionAllowed(policy, 'defer', '2026-01-01')).toBe(false);
  });
  it('quotes refunds by date, fees and price differences', () => {
    expect(actionQuote(policy, 'cancel', '2026-04-30', { paidCents: 3000 })).toEqual({
      payCents: 0,
      refundCents: 3000,
    });
    expect(actionQuote(policy, 'cancel', '2026-05-20', { paidCents: 3000 })).toEqual({
      payCents: 0,
      refundCents: 1500,
    });
    expect(actionQuote(policy, 'transfer', '2026-05-20', { paidCents: 3000 })).toEqual({
      payCents: 500,
      refundCents: 0,
    });
    expect(
      actionQuote(policy, 'move', '2026-05-20', {
        paidCents: 3000,
        paidEntryCents: 3000,
        newEntryCents: 4500,
      }),
    ).toEqual({ payCents: 1500, refundCents: 0 });
    expect(
      actionQuote(policy, 'move', '2026-05-20', {
        paidCents: 3000,
        paidEntryCents: 3000,
        newEntryCents: 2000,
      }),
    ).toEqual({ payCents: 0, refundCents: 1000 });
  });
});
