export * from './clock-offset.ts';
export * from './console/category-check.ts';
export * from './console/category-templates.ts';
export * from './console/course.ts';
export * from './console/time-zone.ts';
export * from './date-format.ts';
export * from './entries/capacity.ts';
export * from './entries/eligibility.ts';
export * from './entries/policies.ts';
export * from './entries/pricing.ts';
export * from './entries/waitlist.ts';
export * from './formats/cutoffs.ts';
export * from './formats/from-results.ts';
export * from './formats/laps.ts';
export * from './formats/multisport.ts';
export { competitionRanks } from './formats/ranking.ts';
export { bookReads, type ReadBook, type ReadOwner, type ReadRef } from './formats/reads.ts';
export * from './formats/relay.ts';
export * from './formats/review.ts';
export * from './formats/review-field.ts';
export * from './number-format.ts';
export * from './payments/deposit-states.ts';
export * from './payments/matching.ts';
export * from './payments/orders.ts';
export * from './payments/refunds.ts';
export * from './payments/structured-communication.ts';
export * from './results/boston-import.ts';
export * from './results/bulk-ranks.ts';
export * from './results/categories.ts';
export * from './results/compute.ts';
export * from './results/fade-model.ts';
export * from './results/incremental.ts';
export * from './results/live-boards.ts';
export * from './results/pace.ts';
export * from './results/prediction.ts';
export * from './results/queries.ts';
export { GENDERS, type RaceIndex } from './results/race-index.ts';
export * from './results/result-row.ts';
export {
  gunStartOf,
  gunTimeOf,
  netTimeOf,
  type PointRankings,
  type RaceResults,
  rankKeyOf,
} from './results/results-model.ts';
export * from './results/types.ts';
export * from './search/athlete-search.ts';
export * from './search/table-search.ts';
export * from './text/title.ts';
export * from './time-format.ts';
export * from './time-range.ts';
export * from './zoned-date-time.ts';
