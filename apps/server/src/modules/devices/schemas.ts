/** Input schemas of the race-day routes: in packages/contracts (issue 30). */
export * from '@tempora/contracts/raceday-api';
