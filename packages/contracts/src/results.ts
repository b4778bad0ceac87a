import { z } from 'zod';

/**
 * Results API contract (issue 6). Paths are relative to the environment's `resultsApiUrlBase`
 * (default `/api/`):
 *
 *   GET  results/{eventId}/reportlist                       → ReportList
 *   GET  results/{eventId}/groups/{group}/reports/{report}  → ReportTable   (?q= &offset= &limit=)
 *   GET  results/contexts/{db}/reports/{report}             → ReportTable   (the context's first group holding it)
 *   GET  results/contexts/{db}/participants?q=              → ParticipantHit[] (exact bib first, ≤ 20)
 *   GET  tracking/{trackingKey}                             → AthleteCard
 *   POST ingest/passings   (header x-device-key; JSON IngestRequest or text/csv `chip;time;point`) → IngestResult
 *   POST results/contexts/{db}/import/boston (organiser; text/csv body)                             → ImportResult
 *
 * Reports answer an ETag; `If-None-Match` gives 304. Live: the public channels of the views
 * (issue 28, `liveChannels`: `results-{db}` for everything, a report's, its top window's, a
 * runner's, the passings feed) carry, after every change and only when occupied, one `results` event (ResultsBundle: the change's report patches,
 * then its accepted reads; split only to keep each event under the protocol's 10 KB). Clients
 * unbundle it into `report-patch` (ReportPatch) and `passing` (PassingEvent) on their bus; a
 * single `report-patch` event is accepted too. A client whose table version differs from a
 * patch's `fromVersion` refetches.
 */

export const localizedSchema = z.object({ en: z.string(), fr: z.string() });
export type Localized = z.infer<typeof localizedSchema>;

/** Cell types of spec §3. */
export const cellTypes = ['text', 'html', 'time', 'image', 'flag', 'favorite', 'spacer'] as const;
export type CellType = (typeof cellTypes)[number];

/** A table column definition, spec §3 field names. */
export const columnDefSchema = z.object({
  FieldIdx: z.number().int().min(0),
  Colspan: z.number().int().min(1),
  Bold: z.boolean(),
  Italic: z.boolean(),
  /** `Center`, `Right`; anything else is left (spec §3). */
  Alignment: z.string(),
  /** Index of the field holding this cell's link, -1 for none. */
  UrlColumnIdx: z.number().int(),
  Settings: z.object({
    Target: z.string().optional(),
    Decimals: z.number().int().min(0).max(3).optional(),
    /**
     * `status`: a cell holding a result status code (`DNF`, `notStarted`…) shows its label.
     * `points`: a cell holding a timing point's name (English) shows it in French from `Names`.
     */
    Labels: z.enum(['status', 'points']).optional(),
    /** With `Labels: 'points'`: English name → French name, where they differ. */
    Names: z.record(z.string(), z.string()).optional(),
    /** `gap`: a time cell holding a gap, written by the domain's `formatGap` (`+0:21`; issue 27). */
    Format: z.enum(['gap']).optional(),
    /**
     * A time column: the field naming the point a running time was taken at (blank once
     * finished), shown beside it (`1:30:11 · 30 km`; issue 27); French names from `Names`.
     */
    At: z.number().int().min(0).optional(),
  }),
  Title: localizedSchema,
  Type: z.enum(cellTypes),
});
export type ColumnDef = z.infer<typeof columnDefSchema>;

export const reportTableSchema = z.object({
  eventId: z.string(),
  db: z.string(),
  group: z.string(),
  report: z.string(),
  title: localizedSchema,
  /** Changes with every change of the rows; patches name the version they apply to. */
  version: z.number().int(),
  /**
   * Names the state the table was built from (version, race epoch, node's load): a status change
   * moves it without moving the version, so a refetch compares it, not the version alone.
   */
  tag: z.string().optional(),
  columns: z.array(columnDefSchema),
  /** Rows as arrays indexed by field (spec §3); time fields hold milliseconds (0 = blank). */
  rows: z.array(z.array(z.unknown())),
  /** Rows in the report (before offset/limit; after search). */
  total: z.number().int(),
  /** row[keyField] is the row's stable string key (favourites are sets of these). */
  keyField: z.number().int(),
  /** Rows are sorted by the number row[orderField], ties by key. */
  orderField: z.number().int(),
});
export type ReportTable = z.infer<typeof reportTableSchema>;

export const reportListSchema = z.object({
  event: z.object({ id: z.string(), name: z.string(), status: z.string() }),
  groups: z.array(
    z.object({
      key: z.string(),
      db: z.string(),
      name: localizedSchema,
      reports: z.array(z.object({ key: z.string(), name: localizedSchema })),
    }),
  ),
});
export type ReportList = z.infer<typeof reportListSchema>;

/**
 * A numeric change of one field over rows of the table a patch starts from (issue 20: a new
 * leader moves every rank of the table by one, which full rows would say in 100 KB and a shift in
 * a few bytes). `[field, delta, start, count, mask?]` adds `delta` to row[field] of the rows at
 * `start` … `start + count - 1` of the `fromVersion` table — only those whose bit is set in
 * `mask` when there is one (six bits a base64 character, least significant first: bit k is
 * row `start + k`). A field
 * holding a string of digits (a rank) stays a string. Applied by `applyReportPatch`.
 */
export type RowShift = [field: number, delta: number, start: number, count: number, mask?: string];

/**
 * `report-patch` in `results` bundles on a report's live channels (`liveChannels`): row shifts, upserts and removals from `fromVersion` to
 * `version`, or a request to refetch (at least `version`).
 */
export type ReportPatch =
  | {
      group: string;
      report: string;
      fromVersion: number;
      version: number;
      upserts: unknown[][];
      removes: string[];
      /** Applied first, to the rows of the `fromVersion` table (absent: none). */
      shifts?: RowShift[];
      /**
       * Rows of the `fromVersion` table with some fields replaced, `[key, field, value, field,
       * value, …]` (a runner who passed a point: a dozen fields of thirty), then placed by their
       * order like upserts.
       */
      edits?: unknown[][];
      /**
       * A window patch (issue 28, `liveChannels.reportWindow`): the change of the report's
       * `window` rows from `offset` only, from the window's last change (see `applyWindowPatch`).
       */
      window?: number;
      /**
       * The window's first row (0-based) in the report: rank window k (`liveChannels.reportWindow`)
       * starts at k · `window` (absent: 0, the top window).
       */
      offset?: number;
    }
  | { group: string; report: string; version: number; reload: true };

/** `passing` on a runner's channel, the passings feed and `results-{db}` (`liveChannels`). */
export interface PassingEvent {
  raceId: string;
  bib: string;
  pointKey: string;
  timeOfDay: number;
}

export const participantHitSchema = z.object({
  raceId: z.string(),
  bib: z.string(),
  name: z.string(),
  gender: z.string(),
  category: z.string().nullable(),
  club: z.string(),
  nationality: z.string(),
  status: z.string(),
  trackingKey: z.string(),
});
export type ParticipantHit = z.infer<typeof participantHitSchema>;

// `AthleteCard`: in live-views.ts, with the other live views (a zod schema, issue 30).

/**
 * The latest moment a time may name, 9999-12-31T23:59:59.999Z: beyond it a time is a typo (or a
 * probe), and it must be refused with a 400 before PostgreSQL refuses it with a 500 (issue 13).
 */
export const MAX_TIME_MS = 253_402_300_799_999;
/** A moment as UTC epoch ms or ISO 8601 with an offset, between 1970 and {@link MAX_TIME_MS}. */
export const timeInputSchema = z.union([
  z.number().int().positive().max(MAX_TIME_MS),
  z.iso.datetime({ offset: true }).refine((v) => {
    const ms = Date.parse(v);
    return ms > 0 && ms <= MAX_TIME_MS;
  }, 'out of range'),
]);

/** Ingest (timing devices). `time`: ISO 8601 or UTC epoch ms. */
export const MAX_INGEST_BATCH = 10_000;
export const ingestPassingSchema = z
  .object({
    id: z.string().min(1).max(100).optional(),
    chip: z.string().min(1).max(64).optional(),
    bib: z.string().min(1).max(32).optional(),
    time: timeInputSchema,
    point: z.string().min(1).max(64).optional(),
    deleted: z.boolean().optional(),
  })
  .refine((p) => p.chip !== undefined || p.bib !== undefined, 'chip or bib is required');
export const ingestRequestSchema = z.object({
  passings: z.array(ingestPassingSchema).min(1).max(MAX_INGEST_BATCH),
});
export type IngestRequest = z.infer<typeof ingestRequestSchema>;
export interface IngestResult {
  accepted: number;
  duplicates: number;
}
