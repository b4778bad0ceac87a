import { z } from 'zod';

/**
 * Confirmation API contract (issue 17, product.md "Confirmation"). Paths are relative to
 * `confirmationApiUrlBase` (default `/api/`); every route needs a signed-in user whose abilities
 * allow the document's event (the confirmation account and platform staff: all; owners and staff
 * of the event's organisation: their events).
 *
 *   GET    confirmation/events                              → ConfirmationEvent[] (events + races + settings)
 *   PUT    confirmation/races/{raceId}/settings  RaceSettings → RaceSettings
 *   GET    confirmation/documents?q=&eventId=&status=       → DocumentList (documents + counts by status)
 *   POST   confirmation/documents             CreateDocument → DocumentDetail (status uploaded, version 0)
 *   GET    confirmation/documents/{id}                      → DocumentDetail (summary, history, diff)
 *   POST   confirmation/documents/{id}/file?name=           → DocumentDetail (body: the CSV or XLSX bytes; a new version)
 *   PUT    confirmation/documents/{id}/mapping    MappingInput → DocumentDetail (rows mapped and validated)
 *   GET    confirmation/documents/{id}/rows                 → DocumentRow[]
 *   PATCH  confirmation/documents/{id}/rows        RowEdits → DocumentRow[] (revalidated)
 *   POST   confirmation/documents/{id}/rows/bulk   BulkAction → DocumentRow[]
 *   POST   confirmation/documents/{id}/undo                 → DocumentRow[]
 *   POST   confirmation/documents/{id}/rows/{rowId}/merge   → DocumentRow[]
 *   POST   confirmation/documents/{id}/confirm   ConfirmInput → ConfirmResult
 *   POST   confirmation/documents/{id}/reject   RejectInput → DocumentDetail (mail to the contact)
 *   POST   confirmation/documents/{id}/close                → DocumentDetail
 *   GET    confirmation/documents/{id}/report               → DocumentReport
 *   GET    confirmation/documents/{id}/report.pdf | report.xlsx → the report as a file
 *   GET    confirmation/events/{eventId}/documents          → EventDocuments (documents with totals)
 */

export const documentStatuses = [
  'uploaded',
  'mapped',
  'validated',
  'partlyConfirmed',
  'confirmed',
  'closed',
  'rejected',
] as const;
export type DocumentStatus = (typeof documentStatuses)[number];

export const senderKinds = ['club', 'company', 'school'] as const;
export type SenderKind = (typeof senderKinds)[number];

/** The fields a column can be mapped to. */
export const rowFields = [
  'firstName',
  'lastName',
  'gender',
  'birthDate',
  'email',
  'race',
  'bib',
  'nationality',
] as const;
export type RowField = (typeof rowFields)[number];
/** Fields without which a row cannot become a participant. */
export const requiredFields: readonly RowField[] = ['firstName', 'lastName', 'gender', 'birthDate'];

/**
 * What validation finds on a row. Errors block confirmation (fix, merge or reject the row);
 * warnings (a bib outside the race's range, a doubtful e-mail, a duplicate found by e-mail only —
 * siblings often share a parent's address) keep the row out of the bulk confirmation: it is
 * confirmed one by one after a look.
 */
export const issueCodes = [
  'MISSING',
  'INVALID_DATE',
  'UNKNOWN_GENDER',
  'UNKNOWN_RACE',
  'RACE_FULL',
  'AGE_OUTSIDE_CATEGORIES',
  'BIB_TAKEN',
  'BIB_OUTSIDE_RANGE',
  'INVALID_EMAIL',
  'DUPLICATE_IN_FILE',
  'DUPLICATE_PARTICIPANT',
  'DUPLICATE_OTHER_DOCUMENT',
] as const;
export type IssueCode = (typeof issueCodes)[number];

export const documentRowIssueSchema = z.object({
  /** The field the issue is about (`row` for whole-row issues such as duplicates). */
  field: z.enum([...rowFields, 'row']),
  code: z.enum(issueCodes),
  severity: z.enum(['error', 'warning']),
});
export type DocumentRowIssue = z.infer<typeof documentRowIssueSchema>;

const duplicateBy = z.enum(['name', 'email']);
/** What a row duplicates: another row of this file, a participant, or a row of another document. */
export const duplicateLinkSchema = z.discriminatedUnion('kind', [
  z.object({ by: duplicateBy, kind: z.literal('row'), rowId: z.string(), position: z.number() }),
  z.object({
    by: duplicateBy,
    kind: z.literal('participant'),
    raceId: z.string(),
    bib: z.string(),
    name: z.string(),
  }),
  z.object({
    by: duplicateBy,
    kind: z.literal('document'),
    documentId: z.string(),
    documentTitle: z.string(),
    rowId: z.string(),
    position: z.number(),
  }),
]);
export type DuplicateLink = z.infer<typeof duplicateLinkSchema>;

export const rowDecisions = ['pending', 'confirmed', 'rejected'] as const;
export type RowDecision = (typeof rowDecisions)[number];

/** Values by field (a row's, or a mapping's column names). */
const byField = z.partialRecord(z.enum(rowFields), z.string());

export const documentRowSchema = z.object({
  id: z.string(),
  position: z.number(),
  raw: z.array(z.string()),
  fields: byField,
  issues: z.array(documentRowIssueSchema),
  duplicateOf: duplicateLinkSchema.nullable(),
  /** Category id by age on race day (null when none matches or not computable). */
  category: z.string().nullable(),
  decision: z.enum(rowDecisions),
  reason: z.string().nullable(),
  /** The participant the row became (id, race, bib at confirmation). */
  participant: z.object({ id: z.string().nullable(), raceId: z.string(), bib: z.string() }).nullable(),
  /** Against the previous version of the file (null for the first one). */
  change: z.enum(['added', 'changed', 'unchanged', 'removed']).nullable(),
});
export type DocumentRow = z.infer<typeof documentRowSchema>;

export const historyEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const versionDiffSchema = z.object({
  version: z.number(),
  added: z.array(z.number()),
  removed: z.array(z.object({ position: z.number(), name: z.string(), confirmed: z.boolean() })),
  changed: z.array(z.object({ position: z.number(), fields: z.array(z.string()) })),
  unchanged: z.number(),
});
export type VersionDiff = z.infer<typeof versionDiffSchema>;

export const documentCountsSchema = z.object({
  rows: z.number(),
  confirmed: z.number(),
  rejected: z.number(),
  pending: z.number(),
  /** Pending rows with at least one error. */
  toFix: z.number(),
  /** Pending rows with warnings only (confirmed one by one). */
  toReview: z.number(),
  /** Pending rows without any issue (confirmed in bulk). */
  clean: z.number(),
});
export type DocumentCounts = z.infer<typeof documentCountsSchema>;

export const documentSummarySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventName: z.string(),
  title: z.string(),
  senderName: z.string(),
  senderKind: z.enum(senderKinds),
  contactName: z.string(),
  contactEmail: z.string(),
  status: z.enum(documentStatuses),
  version: z.number(),
  receivedOn: z.string(),
  updatedAt: z.string(),
  counts: documentCountsSchema,
  /** Fees of the confirmed rows, in cents. */
  feesCents: z.number(),
});
export type DocumentSummary = z.infer<typeof documentSummarySchema>;

export const documentDetailSchema = documentSummarySchema.extend({
  defaultRaceId: z.string().nullable(),
  sheet: z.string().nullable(),
  sheets: z.array(z.string()),
  /** The header row of each sheet of the current file. */
  sheetHeaders: z.record(z.string(), z.array(z.string())),
  headers: z.array(z.string()),
  mapping: byField,
  /** The mapping remembered for this sender (offered when the document has none yet). */
  suggestedMapping: byField,
  diff: versionDiffSchema.nullable(),
  rejectReason: z.string().nullable(),
  history: z.array(historyEntrySchema),
  canUndo: z.boolean(),
});
export type DocumentDetail = z.infer<typeof documentDetailSchema>;

export const documentListSchema = z.object({
  documents: z.array(documentSummarySchema),
  countsByStatus: z.record(z.enum(documentStatuses), z.number()),
});
export type DocumentList = z.infer<typeof documentListSchema>;

export const eventDocumentsSchema = z.object({
  event: z.object({ id: z.string(), name: z.string() }),
  documents: z.array(documentSummarySchema),
  totals: z.object({ rows: z.number(), confirmed: z.number(), toFix: z.number(), feesCents: z.number() }),
});
export type EventDocuments = z.infer<typeof eventDocumentsSchema>;

export const tariffSchema = z.object({
  /** Last day (`YYYY-MM-DD`) of this price; null: no end. */
  until: z.string().nullable(),
  priceCents: z.number(),
});
export type Tariff = z.infer<typeof tariffSchema>;

/** A race's confirmation settings as answered (`raceSettingsSchema` checks them as sent). */
export const raceSettingsAnswerSchema = z.object({
  bibFrom: z.number().nullable(),
  bibTo: z.number().nullable(),
  capacity: z.number().nullable(),
  tariffs: z.array(tariffSchema),
});
export type RaceSettings = z.infer<typeof raceSettingsAnswerSchema>;

export const confirmationRaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  date: z.string(),
  categories: z.array(z.object({ id: z.string(), name: z.string() })),
  participants: z.number(),
  settings: raceSettingsAnswerSchema,
});
export type ConfirmationRace = z.infer<typeof confirmationRaceSchema>;

export const confirmationEventSchema = z.object({
  id: z.string(),
  name: z.string(),
  races: z.array(confirmationRaceSchema),
});
export type ConfirmationEvent = z.infer<typeof confirmationEventSchema>;

export const confirmResultSchema = z.object({ confirmed: z.number(), document: documentDetailSchema });
export type ConfirmResult = z.infer<typeof confirmResultSchema>;

/**
 * The order a confirmed document's fees became (issue 29): `GET documents/{id}/order` (404
 * ORDER_NOT_FOUND before confirmation or with nil fees); its invoice is
 * `GET /api/payments/orders/{orderId}/invoice.pdf`.
 */
export const documentOrderSchema = z.object({
  orderId: z.string(),
  state: z.enum(['awaiting_payment', 'paid', 'expired', 'cancelled', 'refunded']),
  amountCents: z.number(),
  paidCents: z.number(),
  currency: z.string(),
  communication: z.string(),
  invoiceNumber: z.string(),
});
export type DocumentOrder = z.infer<typeof documentOrderSchema>;

export const documentReportSchema = z.object({
  document: documentSummarySchema,
  byRace: z.array(
    z.object({
      raceId: z.string(),
      raceName: z.string(),
      confirmed: z.number(),
      /** Confirmed rows merged into a runner registered before (already billed): not billed again. */
      merged: z.number(),
      pending: z.number(),
      rejected: z.number(),
      unitPriceCents: z.number(),
      /** `(confirmed − merged) × unitPriceCents`: only new participants are billed (issue 29). */
      feesCents: z.number(),
    }),
  ),
  byCategory: z.array(
    z.object({ raceId: z.string(), raceName: z.string(), category: z.string(), confirmed: z.number() }),
  ),
  errors: z.array(
    z.object({ position: z.number(), name: z.string(), issues: z.array(documentRowIssueSchema) }),
  ),
  totals: z.object({
    confirmed: z.number(),
    merged: z.number(),
    pending: z.number(),
    rejected: z.number(),
    feesCents: z.number(),
  }),
});
export type DocumentReport = z.infer<typeof documentReportSchema>;

const text = (max: number) => z.string().trim().max(max);
const dateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

export const confirmationDocumentParams = z.object({ id: z.uuid() });
export const confirmationRowParams = confirmationDocumentParams.extend({ rowId: z.uuid() });

export const createDocumentSchema = z.object({
  eventId: text(100).min(1),
  title: text(200).min(1),
  senderName: text(200).min(1),
  senderKind: z.enum(senderKinds),
  contactName: text(200).default(''),
  contactEmail: z.email().max(320),
  defaultRaceId: text(100).min(1).nullable().default(null),
});
export type CreateDocument = z.input<typeof createDocumentSchema>;

export const documentListQuery = z.object({
  q: text(100).default(''),
  eventId: text(100).optional(),
  status: z.enum(documentStatuses).optional(),
});

export const documentUploadQuery = z.object({ name: text(200).min(1).default('upload') });

export const columnMappingSchema = z.partialRecord(z.enum(rowFields), text(200).min(1));
export const mappingInputSchema = z.object({
  sheet: text(200).min(1).optional(),
  mapping: columnMappingSchema,
  defaultRaceId: text(100).min(1).nullable().optional(),
});
export type MappingInput = z.input<typeof mappingInputSchema>;

export const rowEditsSchema = z.object({
  edits: z
    .array(z.object({ rowId: z.uuid(), field: z.enum(rowFields), value: text(200) }))
    .min(1)
    .max(10_000),
});
export type RowEdits = z.input<typeof rowEditsSchema>;

export const bulkActionSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('setRace'),
    rowIds: z.array(z.uuid()).min(1).max(50_000),
    raceId: text(100).min(1),
  }),
  z.object({
    action: z.literal('reject'),
    rowIds: z.array(z.uuid()).min(1).max(50_000),
    reason: text(500).default(''),
  }),
  z.object({ action: z.literal('restore'), rowIds: z.array(z.uuid()).min(1).max(50_000) }),
]);
export type BulkAction = z.input<typeof bulkActionSchema>;

export const confirmInputSchema = z.object({
  /** Absent: every clean pending row (bulk). Present: these rows, warnings acknowledged (one by one). */
  rowIds: z.array(z.uuid()).min(1).max(50_000).optional(),
});
export type ConfirmInput = z.input<typeof confirmInputSchema>;

export const rejectInputSchema = z.object({ reason: text(2000).min(1) });

export const raceSettingsSchema = z
  .object({
    bibFrom: z.int().min(1).max(9_999_999).nullable(),
    bibTo: z.int().min(1).max(9_999_999).nullable(),
    capacity: z.int().min(0).max(1_000_000).nullable(),
    tariffs: z
      .array(z.object({ until: dateString.nullable(), priceCents: z.int().min(0).max(10_000_000) }))
      .max(20),
  })
  .refine((s) => s.bibFrom === null || s.bibTo === null || s.bibFrom <= s.bibTo, {
    message: 'bibFrom must not exceed bibTo',
    path: ['bibTo'],
  });
export const confirmationRaceParams = z.object({ raceId: text(100).min(1) });
export const confirmationEventParams = z.object({ eventId: text(100).min(1) });
