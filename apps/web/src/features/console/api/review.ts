import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  ConsoleRace,
  CutoffOverrideInput,
  RacePublicationPreview,
  RaceReview,
} from '@tempora/contracts';
import { apiGet, apiPost, apiRequest } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;

/** `GET console/races/{id}/review`: the race's anomalies before results are official. */
export const reviewQuery = (raceId: string) =>
  queryOptions({
    queryKey: ['console', 'race', raceId, 'review'] as const,
    queryFn: ({ signal }) =>
      apiGet<RaceReview>('apiUrlBase', `console/races/${enc(raceId)}/review`, {
        signal,
      }),
  });
export const useReview = (raceId: string) => useQuery(reviewQuery(raceId));

/** The desk's corrections a review fix goes through (`POST raceday/contexts/{db}/corrections`). */
export type ReviewFix =
  | { action: 'void'; passingId: string; reason: string }
  | { action: 'add'; bib: string; pointKey: string; timeMs: number; reason: string };
export const applyReviewFix = (db: string, fix: ReviewFix) =>
  apiPost<unknown>('apiUrlBase', `raceday/contexts/${enc(db)}/corrections`, fix);

/**
 * The desk's status change (`POST raceday/contexts/{db}/races/{race}/status`): reinstate a runner,
 * or mark a review's DNF or DNS candidate, or disqualify (issue 43).
 */
export const setRunnerStatus = (
  db: string,
  raceId: string,
  bib: string,
  status: 'registered' | 'DNF' | 'DNS' | 'DSQ',
  reason: string,
) =>
  apiPost<unknown>('apiUrlBase', `raceday/contexts/${enc(db)}/races/${enc(raceId)}/status`, {
    bib,
    status,
    reason,
  });

/** `PUT console/races/{id}/cutoff-overrides`: reinstate a runner past a cut-off, or undo it. */
export const setCutoffOverride = (raceId: string, body: CutoffOverrideInput) =>
  apiRequest<ConsoleRace>('apiUrlBase', `console/races/${enc(raceId)}/cutoff-overrides`, {
    method: 'PUT',
    body,
  });

/**
 * `GET console/races/{id}/publication`: what "Publish as official" would publish (issue 43: asked
 * first) — finishers, DNF, DNS, open anomalies, the event's zone.
 */
export const publicationPreviewQuery = (raceId: string) =>
  queryOptions({
    queryKey: ['console', 'race', raceId, 'publication'] as const,
    queryFn: ({ signal }) =>
      apiGet<RacePublicationPreview>('apiUrlBase', `console/races/${enc(raceId)}/publication`, { signal }),
  });
