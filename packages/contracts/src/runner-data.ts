import { z } from 'zod';

/**
 * The runner's data (issue 40, GDPR articles 15 and 17): "Download my data" (everything Tempora
 * holds about the signed-in runner), "Delete my account" (a preview of what happens, then the
 * erasure), and the organiser's retention of an event's personal data.
 */

const row = z.record(z.string(), z.unknown());

/** Everything held about me, section by section (JSON download; the PDF prints the same). */
export const myDataSchema = z.object({
  /** ISO 8601, when this copy was made. */
  generatedAt: z.string(),
  account: row,
  /** Roles in organisations. */
  memberships: z.array(row),
  /** My choices: hidden name, public page, alerts about me, e-mail verified. */
  consents: row,
  /** My results (participants linked to my account), with times and ranks. */
  results: z.array(row),
  /** My online entries, with their answers and waiver acceptances. */
  entries: z.array(row),
  orders: z.array(row),
  payments: z.array(row),
  refunds: z.array(row),
  claims: z.array(row),
  /** The alerts I asked for about runners I follow (by my e-mail address). */
  follows: z.array(row),
  /** How many followers asked for alerts about me (their addresses are theirs, not mine). */
  alertsAboutMe: z.object({ subscriptions: z.number().int() }),
  groupDeposits: z.array(row),
  /** Team entries: teams I lead or joined. */
  teams: z.array(row),
  waitlists: z.array(row),
  /** E-mails sent to my address (subject and date). */
  mails: z.array(row),
  /** The audit trail's lines about me or made by me. */
  audit: z.array(row),
});
export type MyData = z.infer<typeof myDataSchema>;

export const myDataPdfQuerySchema = z.object({ lng: z.enum(['en', 'fr']).optional() });

/** An entry still to be run that the erasure cancels first, and the refund the policy gives. */
export const erasureEntrySchema = z.object({
  code: z.string(),
  eventName: z.string(),
  raceName: z.string(),
  raceDate: z.string(),
  state: z.string(),
  /** Cancelled within the organiser's policy (else cancelled without refund). */
  policyAllows: z.boolean(),
  refundCents: z.number().int(),
  currency: z.string(),
});

/** What "Delete my account" will do (shown before it is confirmed). */
export const erasurePreviewSchema = z.object({
  email: z.string(),
  entriesToCancel: z.array(erasureEntrySchema),
  /** Results kept as anonymous rows (same times, same ranks). */
  resultsKeptAnonymous: z.number().int(),
  claims: z.number().int(),
  follows: z.number().int(),
  alertSubscriptionsAboutMe: z.number().int(),
  /** Why it cannot be done now (empty: it can): `SOLE_OWNER`, `DEPOSIT_CAPTAIN`, `TEAM_CAPTAIN`. */
  blockers: z.array(z.enum(['SOLE_OWNER', 'DEPOSIT_CAPTAIN', 'TEAM_CAPTAIN'])),
});
export type ErasurePreview = z.infer<typeof erasurePreviewSchema>;

/** The erasure asks for the account's e-mail address, typed again. */
export const erasureRequestSchema = z.object({ confirmEmail: z.string().trim().min(1).max(320) });

export const erasureResultSchema = z.object({
  entriesCancelled: z.number().int(),
  refundedCents: z.number().int(),
  resultsKeptAnonymous: z.number().int(),
});
export type ErasureResult = z.infer<typeof erasureResultSchema>;

/** One line of an event's personal-data log: what was removed and when, counts only. */
export const privacyLogEntrySchema = z.object({
  action: z.enum(['account-erased', 'retention-anonymised']),
  at: z.string(),
  detail: z.record(z.string(), z.number()),
});
export type PrivacyLogEntry = z.infer<typeof privacyLogEntrySchema>;

/** An event's retention of personal data (console). */
export const eventRetentionSchema = z.object({
  /** Days after the event's last day; null: kept until deleted. */
  retentionDays: z.number().int().nullable(),
  endDate: z.string(),
  /** When the data will be (or was) anonymised: `YYYY-MM-DD`, null without a retention. */
  anonymiseOn: z.string().nullable(),
  anonymisedAt: z.string().nullable(),
  log: z.array(privacyLogEntrySchema),
});
export type EventRetention = z.infer<typeof eventRetentionSchema>;

export const eventRetentionInputSchema = z.object({
  retentionDays: z.number().int().min(0).max(3650).nullable(),
});
