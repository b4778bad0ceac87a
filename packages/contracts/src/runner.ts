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
  /** The race's distance in metres (personal bests are per distance). */
  distanceM: z.number().nullable(),
  /** `finished`, `onCourse`, `notStarted`, `DNF`, `DNS`, `DSQ`, `registered`. */
  status: z.string(),
  netMs: z.number().nullable(),
  gunMs: z.number().nullable(),
  rankOverall: z.number().nullable(),
  rankGender: z.number().nullable(),
  rankCategory: z.number().nullable(),
  category: z.string().nullable(),
  /** My time at each timing point (net ms; null where I was not read). */
  splits: z.array(
    z.object({ pointKey: z.string(), name: z.string(), nameFr: z.string(), netMs: z.number().nullable() }),
  ),
  /** The finish predicted at my last split (net ms), beside the actual finish. */
  predictedNetMs: z.number().nullable(),
});
export type MyResult = z.infer<typeof myResultSchema>;

/** My best finish at a distance (issue 40: personal bests per distance). */
export const personalBestSchema = z.object({
  distanceM: z.number(),
  netMs: z.number(),
  participantId: z.uuid(),
  eventName: z.string(),
  date: z.string(),
});
export type PersonalBest = z.infer<typeof personalBestSchema>;

export const myResultsSchema = z.object({
  /** Hide my name from every public result, these and the ones linked later. */
  hideAll: z.boolean(),
  /** My public runner page (opt-in) and its short link's slug (`#/r/{slug}`), null while off. */
  publicSlug: z.string().nullable(),
  results: z.array(myResultSchema),
  personalBests: z.array(personalBestSchema),
});
export type MyResults = z.infer<typeof myResultsSchema>;

export const resultPrivacySchema = z.object({ hidden: z.boolean() }).strict();
export const accountPrivacySchema = z.object({ hideAll: z.boolean() }).strict();
export type AccountPrivacy = z.infer<typeof accountPrivacySchema>;

export const publicPageSchema = z.object({ enabled: z.boolean() }).strict();
export const publicPageAnswerSchema = z.object({ publicSlug: z.string().nullable() });

/** A result that may be mine: same name and birth year, not linked to any account. */
export const claimSuggestionSchema = z.object({
  participantId: z.uuid(),
  eventName: z.string(),
  organisationName: z.string(),
  raceName: z.string(),
  date: z.string(),
  bib: z.string().nullable(),
  /** How the claim is proven: a code to the entry's e-mail (shown masked), or the organiser. */
  method: z.enum(['email', 'organiser']),
  maskedEmail: z.string().nullable(),
  /** My claim on it waiting for its code or the organiser, if any. */
  pendingClaimId: z.uuid().nullable(),
});
export type ClaimSuggestion = z.infer<typeof claimSuggestionSchema>;

export const claimRequestSchema = z.object({ participantId: z.uuid() }).strict();
export const claimCreatedSchema = z.object({
  id: z.uuid(),
  method: z.enum(['email', 'organiser']),
  maskedEmail: z.string().nullable(),
});
export type ClaimCreated = z.infer<typeof claimCreatedSchema>;
export const claimCodeSchema = z.object({ code: z.string().trim().min(4).max(12) }).strict();

/** A claim the organiser decides (the entry has no e-mail). */
export const organiserClaimSchema = z.object({
  id: z.uuid(),
  participantId: z.uuid(),
  raceName: z.string(),
  bib: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  birthDate: z.string().nullable(),
  claimantEmail: z.string(),
  claimantName: z.string(),
  claimantBirthDate: z.string().nullable(),
  createdAt: z.string(),
});
export type OrganiserClaim = z.infer<typeof organiserClaimSchema>;
export const claimDecisionSchema = z.object({ approve: z.boolean() }).strict();

/** The public runner page (opt-in): the results whose name the runner did not hide. */
export const publicRunnerSchema = z.object({
  name: z.string(),
  results: z.array(
    myResultSchema.pick({
      eventId: true,
      eventName: true,
      raceName: true,
      date: true,
      distanceM: true,
      status: true,
      netMs: true,
      rankOverall: true,
      trackingKey: true,
    }),
  ),
  personalBests: z.array(personalBestSchema.omit({ participantId: true })),
});
export type PublicRunner = z.infer<typeof publicRunnerSchema>;
