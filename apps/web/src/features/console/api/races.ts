import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  CategoriesReplace,
  ConsoleRace,
  CoursePlacement,
  PointsReplace,
  RaceCreate,
  RaceFormat,
  RacePublication,
  RaceUpdate,
  ReportCreate,
  ReportDefinitionView,
  ReportUpdate,
  ReportVisibility,
  TeamRule,
} from '@tempora/contracts';
import { apiGet, apiPost, apiRequest } from '../../../lib/api-client.ts';

const enc = encodeURIComponent;
const base = 'apiUrlBase' as const;
const race = (raceId: string) => `console/races/${enc(raceId)}`;

/** `GET console/races/{id}`: the race with points, course, categories and team rule. */
export const consoleRaceQuery = (raceId: string) =>
  queryOptions({
    queryKey: ['console', 'race', raceId] as const,
    queryFn: ({ signal }) => apiGet<ConsoleRace>(base, race(raceId), { signal }),
  });
export const useConsoleRace = (raceId: string) => useQuery(consoleRaceQuery(raceId));

export const createRace = (db: string, input: RaceCreate) =>
  apiPost<ConsoleRace>(base, `console/contexts/${enc(db)}/races`, input);
export const updateRace = (raceId: string, patch: RaceUpdate) =>
  apiRequest<ConsoleRace>(base, race(raceId), { method: 'PATCH', body: patch });
export const deleteRace = (raceId: string) => apiRequest<void>(base, race(raceId), { method: 'DELETE' });
export const replacePoints = (raceId: string, body: PointsReplace) =>
  apiRequest<ConsoleRace>(base, `${race(raceId)}/points`, { method: 'PUT', body });

/** `PUT console/races/{id}/course`: a GPX or GeoJSON file as the body. */
export async function uploadCourse(raceId: string, file: File) {
  const text = await file.text();
  const gpx = text.trimStart().startsWith('<');
  return apiRequest<ConsoleRace>(base, `${race(raceId)}/course`, {
    method: 'PUT',
    body: text,
    headers: { 'content-type': gpx ? 'application/gpx+xml' : 'application/geo+json' },
  });
}
export const deleteCourse = (raceId: string) =>
  apiRequest<ConsoleRace>(base, `${race(raceId)}/course`, { method: 'DELETE' });
export const placePoints = (raceId: string, body: CoursePlacement) =>
  apiPost<ConsoleRace>(base, `${race(raceId)}/course/place`, body);
export const replaceCategories = (raceId: string, body: CategoriesReplace) =>
  apiRequest<ConsoleRace>(base, `${race(raceId)}/categories`, { method: 'PUT', body });
export const setTeamRule = (raceId: string, body: TeamRule) =>
  apiRequest<ConsoleRace>(base, `${race(raceId)}/team-rule`, { method: 'PUT', body });

/** `GET console/races/{id}/reports`: the race's report definitions in order. */
export const raceReportsQuery = (raceId: string) =>
  queryOptions({
    queryKey: ['console', 'race', raceId, 'reports'] as const,
    queryFn: ({ signal }) => apiGet<ReportDefinitionView[]>(base, `${race(raceId)}/reports`, { signal }),
  });
export const useRaceReports = (raceId: string) => useQuery(raceReportsQuery(raceId));
export const createReport = (raceId: string, body: ReportCreate) =>
  apiPost<ReportDefinitionView>(base, `${race(raceId)}/reports`, body);
export const updateReport = (raceId: string, key: string, body: ReportUpdate) =>
  apiRequest<ReportDefinitionView>(base, `${race(raceId)}/reports/${enc(key)}`, { method: 'PATCH', body });
export const deleteReport = (raceId: string, key: string) =>
  apiRequest<void>(base, `${race(raceId)}/reports/${enc(key)}`, { method: 'DELETE' });
export const orderReports = (raceId: string, keys: string[]) =>
  apiRequest<ReportDefinitionView[]>(base, `${race(raceId)}/reports/order`, {
    method: 'PUT',
    body: { keys },
  });
/** `POST console/races/{id}/reports/visibility`: shows or hides several reports at once (issue 29). */
export const setReportsVisibility = (raceId: string, body: ReportVisibility) =>
  apiPost<ReportDefinitionView[]>(base, `${race(raceId)}/reports/visibility`, body);

/** `PUT console/races/{id}/fade-prior`: previous editions for the finish prediction (issue 19). */
export const setFadePrior = (raceId: string, body: { csv: string } | { fromRaceId: string }) =>
  apiRequest<ConsoleRace>(base, `${race(raceId)}/fade-prior`, { method: 'PUT', body });
export const deleteFadePrior = (raceId: string) =>
  apiRequest<ConsoleRace>(base, `${race(raceId)}/fade-prior`, { method: 'DELETE' });

/** `PUT console/races/{id}/format`: the race's format and its parameters (issue 31). */
export const setRaceFormat = (raceId: string, body: RaceFormat) =>
  apiRequest<ConsoleRace>(base, `${race(raceId)}/format`, { method: 'PUT', body });

/** `PUT console/races/{id}/publication`: official (with a protest window) or provisional (issue 31). */
export const setRacePublication = (raceId: string, body: RacePublication) =>
  apiRequest<ConsoleRace>(base, `${race(raceId)}/publication`, { method: 'PUT', body });
