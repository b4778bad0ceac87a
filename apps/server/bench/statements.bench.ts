/**
 * Bank statements benchmark (issue 18): parsing a statement and matching its lines against the
 * open orders, at the scale of a big Belgian road race (the 20 km de Bruxelles: ~650 teams, plus
 * individual transfers — 20,000 movements against 20,000 orders is well above a day's statement).
 * Baselines measured in the same run: fast-xml-parser's bare parse of the same camt.053 XML, and a
 * bare split of the same CODA file into lines.
 * Run: npm run bench -- statements   (about 40 s)
 */
import { type MatchableOrder, matchStatement, structuredFromNumber } from '@tempora/domain';
import { XMLParser } from 'fast-xml-parser';
import { parseCamt053 } from '../src/modules/payments/statements/camt053.ts';
import { parseCoda } from '../src/modules/payments/statements/coda.ts';
import { sampleCamt053, sampleCoda } from '../src/modules/payments/statements/samples.ts';

const N = 20_000;
const orders: MatchableOrder[] = Array.from({ length: N }, (_, k) => ({
  id: String(k + 1),
  structured: structuredFromNumber(k + 1),
  amountCents: 2500,
  paidCents: 0,
  state: 'awaiting_payment',
}));
// Nine in ten pay right; the rest are the manual queue's cases.
const movements = orders.map((o, k) =>
  k % 10 === 0
    ? { amountCents: 2500, freeText: `team ${k} inscription`, ref: `R${k}` }
    : { amountCents: k % 10 === 1 ? 2000 : 2500, structured: o.structured, ref: `R${k}` },
);
// 5,000 entries (4 MB, four times BODY_LIMIT's default): fast-xml-parser dominates the time.
const camt = sampleCamt053(movements.slice(0, 5_000));
// A CODA statement numbers its movements with 4 digits: at most 9,999 per statement.
const coda = sampleCoda(movements.slice(0, 9_000));

/** Median of `runs` timings of `fn` (ms). */
function time(fn: () => unknown, runs = 5): number {
  fn();
  const t: number[] = [];
  for (let k = 0; k < runs; k++) {
    const start = performance.now();
    fn();
    t.push(performance.now() - start);
  }
  return t.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

const xmlBaseline = time(() => new XMLParser({ ignoreAttributes: false }).parse(camt));
const camtParse = time(() => parseCamt053(camt));
const linesBaseline = time(() => coda.split('\r\n').map((l) => l.slice(0, 1)));
const codaParse = time(() => parseCoda(coda));
const lines = movements.map((m, k) => ({
  bankRef: `R${k}`,
  amountCents: m.amountCents,
  structured: m.structured ?? null,
  freeText: m.freeText ?? '',
}));
const match = time(() => matchStatement(lines, orders));
const decisions = matchStatement(lines, orders);
const matched = decisions.filter((d) => d.kind === 'matched').length;

const rows = [
  [
    'camt.053 parse (5,000 entries, %s MB)'.replace('%s', (camt.length / 1e6).toFixed(1)),
    camtParse,
    xmlBaseline,
    'bare fast-xml-parser parse',
  ],
  ['CODA parse (9,000 movements, 27,000 records)', codaParse, linesBaseline, 'bare split into lines'],
  [`match 20,000 lines × 20,000 orders (${matched} matched)`, match, null, ''],
] as const;
console.log('| case | median ms | baseline ms | ratio | baseline |');
console.log('|---|---:|---:|---:|---|');
for (const [name, value, base, what] of rows) {
  console.log(
    `| ${name} | ${value.toFixed(1)} | ${base === null ? '—' : base.toFixed(1)} | ${base === null ? '—' : `${(value / base).toFixed(2)}×`} | ${what} |`,
  );
}
