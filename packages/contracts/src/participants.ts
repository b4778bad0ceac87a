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

export const participantPageSchema = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  rows: z.array(consoleParticipantSchema),
});
export type ParticipantPage = z.infer<typeof participantPageSchema>;

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

export const participantAuditEntrySchema = z.object({
  id: z.number(),
  action: z.enum(['create', 'update', 'delete', 'import', 'bib', 'chip']),
  changes: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })),
  actorEmail: z.string(),
  at: z.string(),
});
export type ParticipantAuditEntry = z.infer<typeof participantAuditEntrySchema>;

const bibRangeSchema = z.object({ first: z.number().int(), last: z.number().int() }).nullable();
export const raceSummarySchema = z.object({
  id: z.string(),
  db: z.string(),
  name: z.string(),
  date: z.string(),
  categories: z.array(z.object({ id: z.string(), name: z.string() })),
  participants: z.number().int(),
  withoutBib: z.number().int(),
  bibRange: bibRangeSchema,
});
export type RaceSummary = z.infer<typeof raceSummarySchema>;

export const assignBibsSchema = z
  .object({
    raceId: z.string().min(1).max(100),
    first: z.number().int().min(1).max(9_999_999),
    last: z.number().int().min(1).max(9_999_999),
  })
  .refine((r) => r.last >= r.first, { message: 'the last bib comes after the first', path: ['last'] })
  .refine((r) => r.last - r.first < 200_000, { message: 'at most 200,000 bibs', path: ['last'] });

export const uploadInfoSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx']),
  sheets: z.array(
    z.object({
      name: z.string(),
      header: z.array(z.string()),
      rows: z.number().int(),
      sample: z.array(z.array(z.string())),
      /**
       * The first few distinct non-empty values of each column (same order as `header`), read
       * further down than `sample`: what the mapping screen shows beside each choice (issue 29).
       */
      columnSamples: z.array(z.array(z.string())),
      /** A first mapping: the organisation's last one where its columns exist, else by header names. */
      guess: z.partialRecord(z.enum(participantFields), z.string()),
    }),
  ),
  /** The mapping the organisation used last for this kind of file, if any. */
  rememberedMapping: z.partialRecord(z.enum(participantFields), z.string()).nullable(),
});
export type UploadInfo = z.infer<typeof uploadInfoSchema>;

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

export const rowIssueCodes = [
  'MISSING_FIELD',
  'BAD_DATE',
  'BAD_AGE',
  'UNKNOWN_GENDER',
  'BAD_NATIONALITY',
  'BAD_EMAIL',
  'BAD_BIB',
  'DUPLICATE_BIB',
  'DUPLICATE_PERSON',
  'DUPLICATE_EMAIL',
  'NO_CATEGORY',
] as const;
export type RowIssueCode = (typeof rowIssueCodes)[number];

export const rowIssueSchema = z.object({
  code: z.enum(rowIssueCodes),
  field: z.enum(participantFields).nullable(),
  /** What was read, to show beside the message. */
  value: z.string().optional(),
  /** A duplicate's other row in the file (`DUPLICATE_BIB`, `DUPLICATE_PERSON`): "also on line 12". */
  otherLine: z.number().int().optional(),
  /** A duplicate's runner already registered (`DUPLICATE_BIB`): "belongs to Jane Doe". */
  otherName: z.string().optional(),
});
export type RowIssue = z.infer<typeof rowIssueSchema>;

export const previewRowSchema = z.object({
  /** Line in the file (1 = header). */
  line: z.number().int(),
  values: z.partialRecord(z.enum(participantFields), z.string()),
  errors: z.array(rowIssueSchema),
  warnings: z.array(rowIssueSchema),
});
export type PreviewRow = z.infer<typeof previewRowSchema>;

export const importPreviewSchema = z.object({
  total: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  warned: z.number().int(),
  /** Every row with an error or a warning, in file order. */
  problems: z.array(previewRowSchema),
  /** The first valid rows, as they will be stored. */
  sample: z.array(previewRowSchema),
  /**
   * Said once for the whole file (issue 29), not per row: how many valid rows have no bib and the
   * race's range they will get one from (null: the race has none), and whether the race has
   * categories (none: no runner gets one).
   */
  race: z.object({ withoutBib: z.number().int(), bibRange: bibRangeSchema, categories: z.number().int() }),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importOutcomeSchema = z.object({
  /** The import's history entry (refused rows, undo). */
  importId: z.string(),
  imported: z.number().int(),
  skipped: z.number().int(),
  total: z.number().int(),
});
export type ImportOutcome = z.infer<typeof importOutcomeSchema>;

/** A row an import refused, as the file held it (the refused-rows download). */
export interface RefusedRow {
  line: number;
  cells: string[];
  errors: RowIssue[];
}

/** One import in the event's history (newest first). */
export const importHistoryEntrySchema = z.object({
  id: z.string(),
  fileName: z.string(),
  raceId: z.string(),
  raceName: z.string(),
  imported: z.number().int(),
  refused: z.number().int(),
  total: z.number().int(),
  actorEmail: z.string(),
  at: z.string(),
  /** When it was undone (null: still in place), and by whom. */
  undoneAt: z.string().nullable(),
  undoneBy: z.string().nullable(),
});
export type ImportHistoryEntry = z.infer<typeof importHistoryEntrySchema>;

export const importUndoOutcomeSchema = z.object({
  /** Runners the import created, now removed. */
  removed: z.number().int(),
  /** Runners whose fields the import changed, now as before. */
  restored: z.number().int(),
});
export type ImportUndoOutcome = z.infer<typeof importUndoOutcomeSchema>;

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

export const chipImportOutcomeSchema = z.object({
  rows: z.number().int(),
  applied: z.number().int(),
  issues: z.array(
    z.object({
      line: z.number().int(),
      code: z.enum(['CHIP_USED_TWICE', 'UNKNOWN_BIB', 'MISSING_FIELD']),
      bib: z.string(),
      chip: z.string(),
    }),
  ),
});
export type ChipImportOutcome = z.infer<typeof chipImportOutcomeSchema>;

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

export const resultImportOutcomeSchema = z.object({
  raceId: z.string().optional(),
  participants: z.number().int().optional(),
  passings: z.number().int(),
  /** Rows the import could not read: each listed with its line. */
  refused: z.number().int(),
  issues: z.array(z.object({ line: z.number().int(), message: z.string() })),
});
export type ResultImportOutcome = z.infer<typeof resultImportOutcomeSchema>;

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

export const participantBulkOutcomeSchema = z.object({
  updated: z.number().int(),
  unchanged: z.number().int(),
  refused: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      bib: z.string().nullable(),
      code: z.string(),
      message: z.string(),
    }),
  ),
});
export type ParticipantBulkOutcome = z.infer<typeof participantBulkOutcomeSchema>;

/** `POST participants/bibs`: bibs given, and runners still without one (the range ran out). */
export const bibsAssignedSchema = z.object({ assigned: z.number().int(), left: z.number().int() });
/** `GET participants/access`: what the caller may do (the console hides what the server would refuse). */
export const participantsAccessSchema = z.object({ canManage: z.boolean(), canImportResults: z.boolean() });
/** `GET participants/contexts`: the event's contexts (timing databases), for result-list imports. */
export const participantContextsSchema = z.array(z.object({ db: z.string(), name: z.string() }));
export type BibsAssigned = z.infer<typeof bibsAssignedSchema>;
export type ParticipantsAccess = z.infer<typeof participantsAccessSchema>;
export type ParticipantContexts = z.infer<typeof participantContextsSchema>;

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
