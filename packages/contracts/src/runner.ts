import { z } from 'zod';

/**
 * The runner's own space (issue 40): the results of a signed-in runner across events and
 * organisations (participants linked to their account) and their privacy choices.
 */

/** One result of mine: a participant row linked to my account. */
export const myResultSchema = z.object({
  participantId: z.uuid(),
  eventId: z.string(),
  eventName: z.string(),
  organisationName: z.string(),
  db: z.string(),
  raceId: z.string(),
  raceName: z.string(),
  /** `YYYY-MM-DD`, the race's date. */
  date: z.string(),
  bib: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  trackingKey: z.string(),
  /** My name is hidden from public views for this result ("Hidden runner"). */
  hidden: z.boolean(),
});
export type MyResult = z.infer<typeof myResultSchema>;

export const myResultsSchema = z.object({
  /** Hide my name from every public result, these and the ones linked later. */
  hideAll: z.boolean(),
  results: z.array(myResultSchema),
});
export type MyResults = z.infer<typeof myResultsSchema>;

export const resultPrivacySchema = z.object({ hidden: z.boolean() }).strict();
export const accountPrivacySchema = z.object({ hideAll: z.boolean() }).strict();
export type AccountPrivacy = z.infer<typeof accountPrivacySchema>;
