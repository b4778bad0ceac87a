import { describe, expect, it } from 'vitest';
import { checkPartialRefund, checkPolicy, policyRefundCents, refundPercent } from './refunds.ts';

const tiers = {
  kind: 'tiers' as const,
  tiers: [
    { until: '2026-05-15', percent: 50 },
    { until: '2026-05-01', percent: 100 },
  ],
};

describe('refund policies', () => {
  it('grants 100 % until the first date, 50 % until the second, nothing after (dates inclusive)', () => {
    expect(refundPercent(tiers, '2026-04-01')).toBe(100);
    expect(refundPercent(tiers, '2026-05-01')).toBe(100);
    expect(refundPercent(tiers, '2026-05-02')).toBe(50);
    expect(refundPercent(tiers, '2026-05-15')).toBe(50);
    expect(refundPercent(tiers, '2026-05-16')).toBe(0);
    expect(refundPercent({ kind: 'full' }, '2099-01-01')).toBe(100);
    expect(refundPercent({ kind: 'none' }, '2000-01-01')).toBe(0);
  });

  it('computes amounts down to the cent, less what was already refunded', () => {
    expect(policyRefundCents(tiers, '2026-05-10', 2599)).toBe(1299);
    expect(policyRefundCents(tiers, '2026-04-10', 2599, 1000)).toBe(1599);
    expect(policyRefundCents(tiers, '2026-05-10', 2599, 2000)).toBe(0);
  });

  it('checks partial refunds and policies', () => {
    expect(checkPartialRefund(500, 2500, 0)).toBeNull();
    expect(checkPartialRefund(2600, 2500, 0)).toMatch(/left/);
    expect(checkPartialRefund(500, 2500, 2100)).toMatch(/left/);
    expect(checkPartialRefund(0, 2500, 0)).toMatch(/positive/);
    expect(checkPolicy(tiers)).toBeNull();
    expect(
      checkPolicy({
        kind: 'tiers',
        tiers: [
          { until: '2026-05-01', percent: 50 },
          { until: '2026-05-15', percent: 100 },
        ],
      }),
    ).toMatch(/later/);
    expect(checkPolicy({ kind: 'tiers', tiers: [{ until: '1 May', percent: 50 }] })).toMatch(/YYYY/);
    expect(checkPolicy({ kind: 'tiers', tiers: [{ until: '2026-05-01', percent: 150 }] })).toMatch(/between/);
  });
});
