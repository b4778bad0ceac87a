/**
 * Entry prices (issue 38, product.md "Entries"): a race's price tiers by date, optional prices by
 * age on race day or by a member code, discount codes (percent or amount) and add-ons. A price is
 * a function of the runner's own request only — the instant it was held, their birth date, their
 * codes and choices — never of other runners' requests: a runner's total does not depend on the
 * order in which requests arrive (the property tests in `pricing.property.test.ts`).
 */

/** A price that applies from `from` (an ISO instant) until the next tier's `from`. */
export interface PriceTier {
  readonly from: string;
  readonly cents: number;
}

/** A price for runners whose age on race day is within `minAge`..`maxAge` (inclusive). */
export interface AgePrice {
  readonly minAge?: number | null;
  readonly maxAge?: number | null;
  readonly cents: number;
}

/** A price for members showing `code` (a club's or federation's code), compared case-blind. */
export interface MemberPrice {
  readonly code: string;
  readonly cents: number;
}

/** A race's prices. `tiers` must not be empty; the first tier applies before its own date too. */
export interface RacePrices {
  readonly tiers: readonly PriceTier[];
  readonly agePrices?: readonly AgePrice[];
  readonly memberPrices?: readonly MemberPrice[];
}

/** A discount code's effect: a percent of the entry price, or an amount off it. */
export type Discount =
  | { readonly kind: 'percent'; readonly value: number }
  | { readonly kind: 'amount'; readonly value: number };

const byDate = (tiers: readonly PriceTier[]) => [...tiers].sort((a, b) => a.from.localeCompare(b.from));

/**
 * The price at `at` (ISO instant) and the next one with the instant it starts (null when none).
 * Tiers are compared as ISO strings in UTC, which orders them like instants.
 */
export function priceAt(
  tiers: readonly PriceTier[],
  at: string,
): { cents: number; next: { cents: number; from: string } | null } {
  const sorted = byDate(tiers);
  if (!sorted.length) return { cents: 0, next: null };
  let index = 0;
  for (let k = 0; k < sorted.length; k++) if (sorted[k]!.from <= at) index = k;
  const next = sorted.slice(index + 1).find((t) => t.from > at) ?? null;
  return { cents: sorted[index]!.cents, next: next ? { cents: next.cents, from: next.from } : null };
}

/** Age in whole years on `day` (`YYYY-MM-DD`) of someone born on `birthDate` (`YYYY-MM-DD`). */
export function ageOn(birthDate: string, day: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** Who asks for a price: when the place was held, and what the runner gave. */
export interface PriceRequest {
  readonly at: string;
  readonly raceDay: string;
  readonly birthDate?: string | null;
  readonly memberCode?: string | null;
}

/**
 * The entry price of one runner: the tier of `at`, replaced by a matching age price or member
 * price when lower (a runner who qualifies for a reduction is never charged more for it).
 */
export function entryPrice(prices: RacePrices, request: PriceRequest): number {
  let cents = priceAt(prices.tiers, request.at).cents;
  if (request.birthDate) {
    const age = ageOn(request.birthDate, request.raceDay);
    for (const p of prices.agePrices ?? []) {
      if ((p.minAge == null || age >= p.minAge) && (p.maxAge == null || age <= p.maxAge))
        cents = Math.min(cents, p.cents);
    }
  }
  const code = request.memberCode?.trim().toLowerCase();
  if (code) {
    for (const p of prices.memberPrices ?? [])
      if (p.code.trim().toLowerCase() === code) cents = Math.min(cents, p.cents);
  }
  return cents;
}

/** The amount a discount takes off an entry price (percent rounded down; never below zero). */
export function discountCents(priceCents: number, discount: Discount | null | undefined): number {
  if (!discount) return 0;
  const off = discount.kind === 'percent' ? Math.floor((priceCents * discount.value) / 100) : discount.value;
  return Math.max(0, Math.min(priceCents, off));
}

/** One runner's line: the entry, its discount, and the add-ons chosen (unit price × quantity). */
export interface LineInput {
  readonly entryCents: number;
  readonly discount?: Discount | null;
  readonly addOns?: readonly { readonly cents: number; readonly quantity: number }[];
}

/** A line's amounts in cents. The discount applies to the entry, not to add-ons. */
export function lineTotal(line: LineInput): {
  entryCents: number;
  discountCents: number;
  addOnsCents: number;
  totalCents: number;
} {
  const off = discountCents(line.entryCents, line.discount);
  const addOnsCents = (line.addOns ?? []).reduce((s, a) => s + a.cents * a.quantity, 0);
  return {
    entryCents: line.entryCents,
    discountCents: off,
    addOnsCents,
    totalCents: line.entryCents - off + addOnsCents,
  };
}

/** An order's total: the sum of its lines, each priced alone (so their order does not matter). */
export function orderTotal(lines: readonly LineInput[]): number {
  return lines.reduce((s, l) => s + lineTotal(l).totalCents, 0);
}

/** Whether a set of prices is usable (null) or what is wrong with it. */
export function checkPrices(prices: RacePrices): string | null {
  if (!prices.tiers.length) return 'at least one price tier';
  const all = [...prices.tiers, ...(prices.agePrices ?? []), ...(prices.memberPrices ?? [])];
  if (all.some((p) => !Number.isInteger(p.cents) || p.cents < 0))
    return 'prices as whole cents, not negative';
  const dates = prices.tiers.map((t) => t.from);
  if (new Set(dates).size !== dates.length) return 'one tier per date';
  return null;
}
