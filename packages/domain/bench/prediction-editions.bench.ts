/// <reference types="node" />
// `npm run bench -- prediction-editions` (issue 41): the finish predicted at half-way, made live,
// on every published marathon of `fixtures/marathon-splits/` and on Boston 2017 — median absolute
// and signed error, share of finishes inside the stated 80 % interval. PREDICTION_POINT picks
// another point (default Half); BOSTON_EVERY keeps 1 Boston runner in N (default 1: all 26,410).
import {
  editionNames,
  loadBoston2017,
  loadEdition,
  scoreEdition,
  scoreTable,
} from '../test/marathon-editions.ts';

const point = process.env.PREDICTION_POINT ?? 'Half';
const started = performance.now();
const scores = [
  scoreEdition(loadBoston2017(Number(process.env.BOSTON_EVERY ?? 1)), point),
  ...editionNames().map((name) => scoreEdition(loadEdition(name), point)),
];
console.log(
  `Finish predicted at ${point}, replayed live (${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
);
console.log(scoreTable(scores));
