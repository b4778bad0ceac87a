import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  confirmHeld,
  hold,
  type Pool,
  releaseHeld,
  releaseTaken,
  takeLate,
  withinCapacity,
} from './capacity.ts';
import { entryPrice, lineTotal, orderTotal, type RacePrices } from './pricing.ts';
import { advanceWaitlist, openInvitations, type WaitItem } from './waitlist.ts';

/**
 * Property tests of issue 38's rules: a runner's total never depends on the order of requests;
 * places + holds ≤ capacity at every moment; the waitlist invites first in, first out, never more
 * than the places free, never anyone twice.
 */

const prices: RacePrices = {
  tiers: [
    { from: '2026-01-01T00:00:00.000Z', cents: 2500 },
    { from: '2026-03-01T00:00:00.000Z', cents: 3000 },
    { from: '2026-05-01T00:00:00.000Z', cents: 3500 },
  ],
  agePrices: [{ maxAge: 15, cents: 1000 }],
  memberPrices: [{ code: 'CLUB', cents: 2000 }],
};

interface Req {
  runner: number;
  at: string;
  birthDate: string;
  member: boolean;
  code: boolean;
  shirt: boolean;
}

const request = (runner: number) =>
  fc.record({
    runner: fc.constant(runner),
    at: fc
      .date({ min: new Date('2026-01-01'), max: new Date('2026-06-30'), noInvalidDate: true })
      .map((d) => d.toISOString()),
    birthDate: fc
      .date({ min: new Date('1950-01-01'), max: new Date('2016-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    member: fc.boolean(),
    code: fc.boolean(),
    shirt: fc.boolean(),
  });

/** A rush processed in the given order against pools: places, T-shirts, code uses. */
function rush(requests: readonly Req[], capacity: number, shirts: number, uses: number) {
  let places: Pool = { capacity, taken: 0, held: 0 };
  let stock: Pool = { capacity: shirts, taken: 0, held: 0 };
  let codes: Pool = { capacity: uses, taken: 0, held: 0 };
  const totals = new Map<number, { total: number; code: boolean; shirt: boolean }>();
  for (const r of requests) {
    // All or nothing: a request asking for a sold-out item or a used-up code changes nothing.
    const p = hold(places);
    const s = r.shirt ? hold(stock) : stock;
    const c = r.code ? hold(codes) : codes;
    if (!p || !s || !c) continue;
    places = confirmHeld(p);
    stock = r.shirt ? confirmHeld(s) : s;
    codes = r.code ? confirmHeld(c) : c;
    const entryCents = entryPrice(prices, {
      at: r.at,
      raceDay: '2026-09-20',
      birthDate: r.birthDate,
      memberCode: r.member ? 'club' : null,
    });
    const total = lineTotal({
      entryCents,
      discount: r.code ? { kind: 'percent', value: 20 } : null,
      addOns: r.shirt ? [{ cents: 1500, quantity: 1 }] : [],
    }).totalCents;
    totals.set(r.runner, { total, code: r.code, shirt: r.shirt });
    expect(withinCapacity(places) && withinCapacity(stock) && withinCapacity(codes)).toBe(true);
  }
  return { totals, places, stock, codes };
}

describe('entries: pricing is independent of the order of requests', () => {
  it('every admitted runner pays what their own request prices alone, in any arrival order', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.nat(), { minLength: 1, maxLength: 40 })
          .chain((xs) =>
            fc.tuple(
              fc.tuple(...xs.map((_, i) => request(i))),
              fc.nat({ max: 30 }),
              fc.nat({ max: 10 }),
              fc.nat({ max: 10 }),
            ),
          ),
        fc.integer(),
        ([requests, capacity, shirts, uses], seed) => {
          const shuffled = fc.sample(
            fc.shuffledSubarray(requests, { minLength: requests.length, maxLength: requests.length }),
            { numRuns: 1, seed },
          )[0]!;
          const a = rush(requests, capacity, shirts, uses);
          const b = rush(shuffled, capacity, shirts, uses);
          // Who gets in may differ (first come, first served), what each pays does not.
          for (const [runner, got] of b.totals) {
            const alone = rush([requests[runner]!], 1, 1, 1).totals.get(runner)!;
            expect(got.total).toBe(alone.total);
          }
          // Places are all given when nothing else runs out; never more than the capacity.
          if (shirts >= requests.length && uses >= requests.length) {
            expect(b.totals.size).toBe(Math.min(capacity, requests.length));
          }
          expect(b.totals.size).toBeLessThanOrEqual(capacity);
          expect(a.places.taken).toBeLessThanOrEqual(capacity);
          expect(b.stock.taken).toBeLessThanOrEqual(shirts);
          expect(b.codes.taken).toBeLessThanOrEqual(uses);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("an order's total is the sum of its lines whatever their order", () => {
    const line = fc.record({
      entryCents: fc.nat({ max: 20_000 }),
      discount: fc.option(
        fc.oneof(
          fc.record({ kind: fc.constant('percent' as const), value: fc.integer({ min: 0, max: 100 }) }),
          fc.record({ kind: fc.constant('amount' as const), value: fc.nat({ max: 30_000 }) }),
        ),
      ),
      addOns: fc.array(
        fc.record({ cents: fc.nat({ max: 5000 }), quantity: fc.integer({ min: 1, max: 3 }) }),
        { maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        const total = orderTotal(lines);
        expect(orderTotal([...lines].reverse())).toBe(total);
        for (const l of lines)
          expect(lineTotal(l).totalCents).toBeGreaterThanOrEqual(lineTotal(l).addOnsCents);
      }),
    );
  });
});

describe('entries: places + holds ≤ capacity at every moment', () => {
  const op = fc.oneof(
    fc.record({ kind: fc.constant('hold' as const), n: fc.integer({ min: 1, max: 3 }) }),
    fc.record({ kind: fc.constant('pay' as const), n: fc.integer({ min: 1, max: 3 }) }),
    fc.record({ kind: fc.constant('expire' as const), n: fc.integer({ min: 1, max: 3 }) }),
    fc.record({ kind: fc.constant('late' as const), n: fc.integer({ min: 1, max: 3 }) }),
    fc.record({ kind: fc.constant('cancel' as const), n: fc.integer({ min: 1, max: 3 }) }),
  );

  it('holds, payments, expiries, late payments and cancellations in any sequence', () => {
    fc.assert(
      fc.property(fc.nat({ max: 20 }), fc.array(op, { maxLength: 200 }), (capacity, ops) => {
        let pool: Pool = { capacity, taken: 0, held: 0 };
        let refunded = 0;
        let confirmed = 0;
        for (const o of ops) {
          if (o.kind === 'hold') pool = hold(pool, o.n) ?? pool;
          else if (o.kind === 'pay') {
            const n = Math.min(o.n, pool.held);
            pool = confirmHeld(pool, n);
            confirmed += n;
          } else if (o.kind === 'expire') pool = releaseHeld(pool, o.n);
          else if (o.kind === 'late') {
            const next = takeLate(pool, o.n);
            if (next) {
              pool = next;
              confirmed += o.n;
            } else refunded += o.n;
          } else {
            const n = Math.min(o.n, pool.taken);
            pool = releaseTaken(pool, n);
            confirmed -= n;
          }
          expect(withinCapacity(pool)).toBe(true);
          expect(pool.taken).toBe(confirmed);
        }
        expect(refunded).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('entries: the waitlist', () => {
  it('invites first in first out, never more than the free places, never anyone twice', () => {
    const step = fc.record({ free: fc.nat({ max: 4 }), minutes: fc.integer({ min: 0, max: 90 }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 15 }), fc.array(step, { maxLength: 30 }), (size, steps) => {
        let items: WaitItem[] = Array.from({ length: size }, (_, k) => ({
          id: `w${k}`,
          seq: k + 1,
          state: 'waiting',
          invitedUntil: null,
        }));
        let clock = Date.parse('2026-04-01T08:00:00Z');
        const everInvited: string[] = [];
        for (const s of steps) {
          clock += s.minutes * 60_000;
          const now = new Date(clock).toISOString();
          const openBefore = openInvitations(items, now).length;
          const { items: next, invited } = advanceWaitlist(items, s.free, now, 30);
          items = next;
          for (const i of invited) {
            expect(everInvited).not.toContain(i.id);
            everInvited.push(i.id);
          }
          // Each open invitation is a place promised: no more of them than the places free.
          expect(openInvitations(items, now).length).toBeLessThanOrEqual(Math.max(s.free, openBefore));
          expect(invited.length).toBeLessThanOrEqual(s.free);
        }
        // First in, first out: invitations went out in order of arrival.
        const seqs = everInvited.map((id) => Number(id.slice(1)));
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });
});
