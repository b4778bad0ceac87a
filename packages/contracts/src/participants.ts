import { z } from 'zod';

/**
 * Participants API of the organiser console (issue 14, part B). Paths under `/api/console/events/{eventId}`:
 *
 *   GET    participants?q=&race=&category=&status=&sort=&dir=&offset=&limit=  → ParticipantPage
 *   POST   participants                         (NewParticipant)              → ConsoleParticipant
 *   PATCH  participants/{id}                    (ParticipantPatch)            → ConsoleParticipant
 *   DELETE participants/{id}                    (soft; 409 PARTICIPANT_HAS_PASSINGS)
 *   GET    participants/{id}/audit                                            → ParticipantAuditEntry[]
 *   GET    participants/races                                                 → RaceSummary[]
 *   POST   participants/bibs                    (AssignBibs)                  → { assigned, left }
 *   POST   imports?fileName=  (text/csv or XLSX bytes)                        → UploadInfo
 *   GET    imports/{uploadId}                                                 → UploadInfo
 *   POST   imports/{uploadId}/preview           (ImportRequest)               → ImportPreview
 *   POST   imports/{uploadId}/commit            (ImportRequest + mode)        → ImportOutcome
 *   POST   imports/{uploadId}/chips             (ChipImportRequest)           → ChipImportOutcome
 *   GET    import-history                                                     → ImportHistoryEntry[]
 *   GET    import-history/{importId}/refused?format=csv|xlsx&lng=en|fr        → the refused rows' file
 *   POST   import-history/{importId}/undo       (409 IMPORT_UNDO_REFUSED)     → ImportUndoOutcome
 *   POST   result-imports?format=boston|passings&db=&…  (text/csv)           → ResultImportOutcome
 *
 * Progress of a commit is published on the public channel `import-{uploadId}` (event `progress`,
 * `{ done, total }`): the upload id is a random UUID known only to its uploader.
 */

export const participantStatuses = ['registered', 'DNS', 'DNF', 'DSQ'] as const;
export const participantGenders = ['M', 'F', 'X'] as const;

/** The fields a participant file's columns can be mapped to. */
export const participantFields = [
  'bib',
  'firstName',
  'lastName',
  'gender',
  'birthDate',
  'age',
  'club',
  'nationality',
  'email',
  'chip',
  'category',
  'wave',
] as const;
export type ParticipantField = (typeof participantFields)[number];
/** Fields a row must have (the bib may come later, from the race's range). */
export const requiredParticipantFields: readonly ParticipantField[] = ['firstName', 'lastName', 'gender'];

const text = (max: number) => z.string().trim().max(max);
const bib = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,16}$/, 'letters, digits and - only');

export const consoleParticipantSchema = z.object({
  id: z.string(),
  raceId: z.string(),
  bib: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  gender: z.enum(participantGenders),
  birthDate: z.string().nullable(),
  age: z.number().nullable(),
  club: z.string(),
  nationality: z.string(),
  email: z.string(),
  chips: z.array(z.string()),
  category: z.string().nullable(),
  wave: z.string().nullable(),
  status: z.enum(participantStatuses),
});
export type ConsoleParticipant = z.infer<typeof consoleParticipantSchema>;

export const participantSorts = [
  'bib',
  'lastName',
  'firstName',
  'gender',
  'birthDate',
  'club',
  'nationality',
  'category',
  'status',
  'race',
] as const;
export type ParticipantSort = (typeof participantSorts)[number];

export const participantQuerySchema = z.object({
  q: z.string().max(100).optional(),
  race: z.string().max(100).optional(),
  category: z.string().max(64).optional(),
  status: z.enum(participantStatuses).optional(),
  /** `none`: runners still waiting for a bib. */
  bib: z.enum(['none']).optional(),
  sort: z.enum(participantSorts).default('bib'),
  dir: z.enum(['asc', 'desc']).default('asc'),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type ParticipantQuery = z.input<typeof participantQuerySchema>;

export interface ParticipantPage {
  total: number;
  offset: number;
  rows: ConsoleParticipant[];
}

const editable = {
  bib: bib.nullable(),
  firstName: text(80).min(1),
  lastName: text(80).min(1),
  gender: z.enum(participantGenders),
  birthDate: z.iso.date().nullable(),
  age: z.number().int().min(0).max(120).nullable(),
  club: text(120),
  nationality: z.union([z.string().regex(/^[A-Z]{3}$/, 'three capital letters (IOC code)'), z.literal('')]),
  email: z.union([z.email().max(200), z.literal('')]),
  chips: z.array(z.string().trim().min(1).max(64)).max(2),
  category: text(64).nullable(),
  wave: text(40).nullable(),
  status: z.enum(participantStatuses),
};

export const newParticipantSchema = z.object({
  raceId: z.string().min(1).max(100),
  bib: editable.bib.optional(),
  firstName: editable.firstName,
  lastName: editable.lastName,
  gender: editable.gender,
  birthDate: editable.birthDate.optional(),
  age: editable.age.optional(),
  club: editable.club.optional(),
  nationality: editable.nationality.optional(),
  email: editable.email.optional(),
  chips: editable.chips.optional(),
  category: editable.category.optional(),
  wave: editable.wave.optional(),
});
export type NewParticipant = z.input<typeof newParticipantSchema>;

/** An inline edit: any of the editable fields (at least one). */
export const participantPatchSchema = z
  .object(editable)
  .partial()
  .strict()
  .refine((p) => Object.keys(p).length > 0, 'change at least one field');
export type ParticipantPatch = z.input<typeof participantPatchSchema>;

export interface ParticipantAuditEntry {
  id: number;
  action: 'create' | 'update' | 'delete' | 'import' | 'bib' | 'chip';
  changes: { field: string; before: unknown; after: unknown }[];
  actorEmail: string;
  at: string;
}

export interface RaceSummary {
  id: string;
  db: string;
  name: string;
  date: string;
  categories: { id: string; name: string }[];
  participants: number;
  withoutBib: number;
  bibRange: { first: number; last: number } | null;
}

export const assignBibsSchema = z
  .object({
    raceId: z.string().min(1).max(100),
    first: z.number().int().min(1).max(9_999_999),
    last: z.number().int().min(1).max(9_999_999),
  })
  .refine((r) => r.last >= r.first, { message: 'the last bib comes after the first', path: ['last'] })
  .refine((r) => r.last - r.first < 200_000, { message: 'at most 200,000 bibs', path: ['last'] });

export interface UploadInfo {
  id: string;
  fileName: string;
  format: 'csv' | 'xlsx';
  sheets: {
    name: string;
    header: string[];
    rows: number;
    sample: string[][];
    /**
     * The first few distinct non-empty values of each column (same order as `header`), read
     * further down than `sample`: what the mapping screen shows beside each choice (issue 29).
     */
    columnSamples: string[][];
    /** A first mapping: the organisation's last one where its columns exist, else by header names. */
    guess: Partial<Record<ParticipantField, string>>;
  }[];
  /** The mapping the organisation used last for this kind of file, if any. */
  rememberedMapping: Partial<Record<ParticipantField, string>> | null;
}

export const participantMappingSchema = z
  .partialRecord(z.enum(participantFields), z.string().min(1).max(200))
  .refine((m) => requiredParticipantFields.every((f) => m[f] !== undefined), {
    message: 'map the first name, last name and gender columns',
  });

export const importRequestSchema = z.object({
  sheet: z.string().max(200).optional(),
  raceId: z.string().min(1).max(100),
  mapping: participantMappingSchema,
  /** How `01/02/1990` reads: day first (Europe) or month first (US). */
  dateOrder: z.enum(['dmy', 'mdy']).default('dmy'),
});
export type ImportRequest = z.input<typeof importRequestSchema>;

export const commitRequestSchema = importRequestSchema.extend({
  /** `valid`: import the valid rows, skip the others; `all`: all or nothing. */
  mode: z.enum(['valid', 'all']),
});

export type RowIssueCode =
  | 'MISSING_FIELD'
  | 'BAD_DATE'
  | 'BAD_AGE'
  | 'UNKNOWN_GENDER'
  | 'BAD_NATIONALITY'
  | 'BAD_EMAIL'
  | 'BAD_BIB'
  | 'DUPLICATE_BIB'
  | 'DUPLICATE_PERSON'
  | 'DUPLICATE_EMAIL'
  | 'NO_CATEGORY';

export interface RowIssue {
  code: RowIssueCode;
  field: ParticipantField | null;
  /** What was read, to show beside the message. */
  value?: string;
  /** A duplicate's other row in the file (`DUPLICATE_BIB`, `DUPLICATE_PERSON`): "also on line 12". */
  otherLine?: number;
  /** A duplicate's runner already registered (`DUPLICATE_BIB`): "belongs to Jane Doe". */
  otherName?: string;
}

export interface PreviewRow {
  /** Line in the file (1 = header). */
  line: number;
  values: Partial<Record<ParticipantField, string>>;
  errors: RowIssue[];
  warnings: RowIssue[];
}

export interface ImportPreview {
  total: number;
  valid: number;
  invalid: number;
  warned: number;
  /** Every row with an error or a warning, in file order. */
  problems: PreviewRow[];
  /** The first valid rows, as they will be stored. */
  sample: PreviewRow[];
  /**
   * Said once for the whole file (issue 29), not per row: how many valid rows have no bib and the
   * race's range they will get one from (null: the race has none), and whether the race has
   * categories (none: no runner gets one).
   */
  race: {
    withoutBib: number;
    bibRange: { first: number; last: number } | null;
    categories: number;
  };
}

export interface ImportOutcome {
  /** The import's history entry (refused rows, undo). */
  importId: string;
  imported: number;
  skipped: number;
  total: number;
}

/** A row an import refused, as the file held it (the refused-rows download). */
export interface RefusedRow {
  line: number;
  cells: string[];
  errors: RowIssue[];
}

/** One import in the event's history (newest first). */
export interface ImportHistoryEntry {
  id: string;
  fileName: string;
  raceId: string;
  raceName: string;
  imported: number;
  refused: number;
  total: number;
  actorEmail: string;
  at: string;
  /** When it was undone (null: still in place), and by whom. */
  undoneAt: string | null;
  undoneBy: string | null;
}

export interface ImportUndoOutcome {
  /** Runners the import created, now removed. */
  removed: number;
  /** Runners whose fields the import changed, now as before. */
  restored: number;
}

/** Why an undo is refused: each kind of reference to a runner the import created (409 `errors[].field`). */
export const importUndoBlockers = ['results', 'payments', 'confirmation'] as const;
export type ImportUndoBlocker = (typeof importUndoBlockers)[number];

export const refusedRowsQuerySchema = z.object({
  format: z.enum(['csv', 'xlsx']).default('csv'),
  lng: z.enum(['en', 'fr']).default('en'),
});

export const chipImportRequestSchema = z.object({
  sheet: z.string().max(200).optional(),
  raceId: z.string().min(1).max(100),
  mapping: z.object({
    bib: z.string().min(1).max(200),
    chip: z.string().min(1).max(200),
    chip2: z.string().min(1).max(200).optional(),
  }),
  /** false: only check the file and report. */
  apply: z.boolean().default(false),
});

export interface ChipImportOutcome {
  rows: number;
  applied: number;
  issues: {
    line: number;
    code: 'CHIP_USED_TWICE' | 'UNKNOWN_BIB' | 'MISSING_FIELD';
    bib: string;
    chip: string;
  }[];
}

export const resultImportQuerySchema = z.object({
  format: z.enum(['boston', 'passings']),
  db: z.string().min(1).max(100),
  /** Boston: the new race's name and date and its gun time (ISO with offset). */
  name: z.string().trim().min(1).max(120).optional(),
  date: z.iso.date().optional(),
  gun: z.iso.datetime({ offset: true }).optional(),
  /** Boston waves: `firstBib-lastBib@ISO time`, comma separated. */
  waves: z.string().max(2000).optional(),
  /** Passings: columns and the day of times of day. */
  bib: z.string().max(100).optional(),
  chip: z.string().max(100).optional(),
  time: z.string().max(100).optional(),
  point: z.string().max(100).optional(),
  defaultPoint: z.string().max(64).optional(),
  day: z.iso.date().optional(),
});

export interface ResultImportOutcome {
  raceId?: string;
  participants?: number;
  passings: number;
  /** Rows the import could not read: each listed with its line. */
  refused: number;
  issues: { line: number; message: string }[];
}

// ── Issue 29: bulk edit and export of the grid ─────────────────────────────────────────────────

/**
 * `POST participants/bulk`: one change for a selection of runners (race, category, status, club),
 * one request; each runner's change is audited; runners it cannot apply to are refused one by one
 * with a reason (`BIB_TAKEN` in the other race, `PARTICIPANT_HAS_PASSINGS` for a race change,
 * `PARTICIPANT_NOT_FOUND`) while the others change.
 */
export const participantBulkSchema = z
  .object({
    ids: z.array(z.uuid()).min(1).max(5000),
    patch: z
      .object({
        raceId: z.string().min(1).max(100),
        category: editable.category,
        status: editable.status,
        club: editable.club,
      })
      .partial()
      .strict()
      .refine((p) => Object.keys(p).length > 0, 'change at least one field'),
  })
  .strict();
export type ParticipantBulk = z.input<typeof participantBulkSchema>;

export interface ParticipantBulkOutcome {
  updated: number;
  unchanged: number;
  refused: { id: string; name: string; bib: string | null; code: string; message: string }[];
}

/** Columns of the grid an export may hold, in the grid's order. */
export const participantExportColumns = [
  'bib',
  'lastName',
  'firstName',
  'gender',
  'birthDate',
  'club',
  'nationality',
  'chips',
  'category',
  'race',
  'status',
] as const;
export type ParticipantExportColumn = (typeof participantExportColumns)[number];

/**
 * `GET participants/export?format=csv|xlsx&columns=bib,lastName,…&lng=`: the grid as shown — the
 * same filters, search and sort as `GET participants`, the columns on screen in their order.
 */
export const participantExportQuerySchema = participantQuerySchema
  .omit({ offset: true, limit: true })
  .extend({
    format: z.enum(['csv', 'xlsx']).default('csv'),
    lng: z.enum(['en', 'fr']).default('en'),
    columns: z
      .string()
      .max(400)
      .default(participantExportColumns.join(','))
      .transform((s) => s.split(',').filter(Boolean))
      .pipe(z.array(z.enum(participantExportColumns)).min(1)),
  });
