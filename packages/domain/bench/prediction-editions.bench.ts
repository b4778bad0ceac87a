/// <reference types="node" />
// `npm run bench -- prediction-editions` (issue 41): the finish predicted at half-way, made live,
// on every published marathon of `fixtures/marathon-splits/` and on Boston 2017 — median absolute
// and signed error, share of finishes inside the stated 80 % interval. PREDICTION_POINT picks
// another point (default Half); BOSTON_EVERY keeps 1 Boston runner in N (default 1: all 26,410).
// Then the median signed error by pace band (the bias by pace, issue 41), and what the runners
// ahead show of the day when the mid-pack passes that point
// (`conditionsAtPoint`, the last CONDITIONS_WINDOW minutes, default 15; and how their slowing
// grows with the time they ran, per hour: the results README's seventh pass) beside what the prediction
// missed, and the signed error of men and women: the data a live conditions correction would
// read (PREDICTION_CONDITIONS=0 skips it).
import {
  conditionsAtPoint,
  conditionsTable,
  editionNames,
  loadBoston2017,
  loadEdition,
  paceTable,
  scoreEdition,
  scoreTable,
} from '../test/marathon-editions.ts';

const point = process.env.PREDICTION_POINT ?? 'Half';
const window = Number(process.env.CONDITIONS_WINDOW ?? 15);
const editions = () => [
  loadBoston2017(Number(process.env.BOSTON_EVERY ?? 1)),
  ...editionNames().map((name) => loadEdition(name)),
];
const started = performance.now();
const scores = editions().map((edition) => scoreEdition(edition, point));
console.log(
  `Finish predicted at ${point}, replayed live (${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
);
console.log(scoreTable(scores));
console.log(`\nMedian signed error (min) by the time at ${point} brought to half-way (runners):\n`);
console.log(paceTable(scores));
if (process.env.PREDICTION_CONDITIONS !== '0') {
  console.log(`\nThe middle half of the field at ${point} (median of its runners), live:\n`);
  console.log(
    conditionsTable(
      editions().map((edition) => conditionsAtPoint(edition, point, window)),
      window,
    ),
  );
}
