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

export interface DocumentRowIssue {
  /** The field the issue is about (`row` for whole-row issues such as duplicates). */
  field: RowField | 'row';
  code: IssueCode;
  severity: 'error' | 'warning';
}

/** What a row duplicates: another row of this file, a participant, or a row of another document. */
export type DuplicateLink = { by: 'name' | 'email' } & (
  | { kind: 'row'; rowId: string; position: number }
  | { kind: 'participant'; raceId: string; bib: string; name: string }
  | { kind: 'document'; documentId: string; documentTitle: string; rowId: string; position: number }
);

export type RowDecision = 'pending' | 'confirmed' | 'rejected';

export interface DocumentRow {
  id: string;
  position: number;
  raw: string[];
  fields: Partial<Record<RowField, string>>;
  issues: DocumentRowIssue[];
  duplicateOf: DuplicateLink | null;
  /** Category id by age on race day (null when none matches or not computable). */
  category: string | null;
  decision: RowDecision;
  reason: string | null;
  /** The participant the row became (id, race, bib at confirmation). */
  participant: { id: string | null; raceId: string; bib: string } | null;
  /** Against the previous version of the file (null for the first one). */
  change: 'added' | 'changed' | 'unchanged' | 'removed' | null;
}

export interface HistoryEntry {
  id: number;
  at: string;
  actorEmail: string;
  action: string;
  detail: Record<string, unknown>;
}

export interface VersionDiff {
  version: number;
  added: number[];
  removed: { position: number; name: string; confirmed: boolean }[];
  changed: { position: number; fields: string[] }[];
  unchanged: number;
}

export interface DocumentCounts {
  rows: number;
  confirmed: number;
  rejected: number;
  pending: number;
  /** Pending rows with at least one error. */
  toFix: number;
  /** Pending rows with warnings only (confirmed one by one). */
  toReview: number;
  /** Pending rows without any issue (confirmed in bulk). */
  clean: number;
}

export interface DocumentSummary {
  id: string;
  eventId: string;
  eventName: string;
  title: string;
  senderName: string;
  senderKind: SenderKind;
  contactName: string;
  contactEmail: string;
  status: DocumentStatus;
  version: number;
  receivedOn: string;
  updatedAt: string;
  counts: DocumentCounts;
  /** Fees of the confirmed rows, in cents. */
  feesCents: number;
}

export interface DocumentDetail extends DocumentSummary {
  defaultRaceId: string | null;
  sheet: string | null;
  sheets: string[];
  /** The header row of each sheet of the current file. */
  sheetHeaders: Record<string, string[]>;
  headers: string[];
  mapping: Partial<Record<RowField, string>>;
  /** The mapping remembered for this sender (offered when the document has none yet). */
  suggestedMapping: Partial<Record<RowField, string>>;
  diff: VersionDiff | null;
  rejectReason: string | null;
  history: HistoryEntry[];
  canUndo: boolean;
}

export interface DocumentList {
  documents: DocumentSummary[];
  countsByStatus: Record<DocumentStatus, number>;
}

export interface EventDocuments {
  event: { id: string; name: string };
  documents: DocumentSummary[];
  totals: { rows: number; confirmed: number; toFix: number; feesCents: number };
}

export interface Tariff {
  /** Last day (`YYYY-MM-DD`) of this price; null: no end. */
  until: string | null;
  priceCents: number;
}

export interface RaceSettings {
  bibFrom: number | null;
  bibTo: number | null;
  capacity: number | null;
  tariffs: Tariff[];
}

export interface ConfirmationRace {
  id: string;
  name: string;
  date: string;
  categories: { id: string; name: string }[];
  participants: number;
  settings: RaceSettings;
}

export interface ConfirmationEvent {
  id: string;
  name: string;
  races: ConfirmationRace[];
}

export interface ConfirmResult {
  confirmed: number;
  document: DocumentDetail;
}

/**
 * The order a confirmed document's fees became (issue 29): `GET documents/{id}/order` (404
 * ORDER_NOT_FOUND before confirmation or with nil fees); its invoice is
 * `GET /api/payments/orders/{orderId}/invoice.pdf`.
 */
export interface DocumentOrder {
  orderId: string;
  state: 'awaiting_payment' | 'paid' | 'expired' | 'cancelled' | 'refunded';
  amountCents: number;
  paidCents: number;
  currency: string;
  communication: string;
  invoiceNumber: string;
}

export interface DocumentReport {
  document: DocumentSummary;
  byRace: {
    raceId: string;
    raceName: string;
    confirmed: number;
    /** Confirmed rows merged into a runner registered before (already billed): not billed again. */
    merged: number;
    pending: number;
    rejected: number;
    unitPriceCents: number;
    /** `(confirmed − merged) × unitPriceCents`: only new participants are billed (issue 29). */
    feesCents: number;
  }[];
  byCategory: { raceId: string; raceName: string; category: string; confirmed: number }[];
  errors: { position: number; name: string; issues: DocumentRowIssue[] }[];
  totals: { confirmed: number; merged: number; pending: number; rejected: number; feesCents: number };
}

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
