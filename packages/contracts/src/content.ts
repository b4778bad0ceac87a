import { z } from 'zod';
import { resultCorrectionSchema } from './corrections.ts';
import { isAllowedStreamUrl, streamKinds } from './media.ts';

/**
 * Content API contract (issue 8). Paths are relative to `eventsApiUrlBase` (default `/api/`):
 *
 *   GET    events?q=&when=live|upcoming|past              → EventSummary[]
 *   GET    events/{id}                                    → EventDetail
 *   PATCH  events/{id}               (organiser)          → EventDetail
 *   GET    events/{id}/cms/tree?db=&lng=                  → CmsNode (root; drafts for organisers)
 *   GET    events/{id}/cms/pages/{key}?db=&preview=1      → CmsPage (body HTML sanitised)
 *   POST   events/{id}/cms/pages     (organiser)          → CmsPage
 *   PATCH  events/{id}/cms/pages/{key}?db= (organiser)    → CmsPage
 *   DELETE events/{id}/cms/pages/{key}?db= (organiser)    → 204
 *   POST   events/{id}/cms/reorder   (organiser)          → CmsNode
 *   GET    events/{id}/contacts                           → Contact[]
 *   POST/PATCH/DELETE events/{id}/contacts[/{contactId}] (organiser)
 *   POST   events/{id}/contact       ContactMessageInput  → { ok: true }  (rate-limited per IP)
 *   GET    events/{id}/streams                            → Stream[] (`current` flagged)
 *   POST/PATCH/DELETE events/{id}/streams[/{streamId}] (organiser)
 *   GET    events/{id}/photos?bib=&q=&limit=              → Photo[] (newest first)
 *   POST   events/{id}/photos        (staff; multipart, field `files`, many) → PhotoUploadResult
 *   PATCH  events/{id}/photos/{photoId} { bibs, caption } (staff) → Photo
 *   DELETE events/{id}/photos/{photoId} (staff)           → 204
 *   GET    photos/{photoId}/{thumb|web}                   → image/webp (immutable cache)
 *   GET    series/{context}                               → SeriesStandings
 *   PUT    series/{context}/races/{raceKey}/results (organiser) → SeriesStandings
 *
 * Realtime: public channel `photos-{eventId}` carries `photo-added` (Photo); `series-{context}`
 * carries `standings-changed` ({ context }).
 */

/** The text of both interface languages. */
export interface Texts {
  en: string;
  fr: string;
}

export const eventStatuses = ['upcoming', 'live', 'finished'] as const;
export type EventStatus = (typeof eventStatuses)[number];

/**
 * An https URL with a host name, as a pattern the API document states (issue 41: `https://` alone
 * passed the document's `uri` and was refused by the server).
 */
const httpsUrl = z
  .url({ protocol: /^https$/, hostname: /^[A-Za-z0-9.-]+$/ })
  .max(500)
  .regex(/^https:\/\/[A-Za-z0-9.-]+(?:[/?#][^\s<>"]*)?$/, 'an https URL');

/** Free-form branding of an event (all optional). */
export const eventBrandingSchema = z
  .object({
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'a #rrggbb colour')
      .optional(),
    logoUrl: httpsUrl.optional(),
    bannerUrl: httpsUrl.optional(),
    tagline: z.string().max(200).optional(),
  })
  .strict();
export type EventBranding = z.infer<typeof eventBrandingSchema>;

export const eventSummarySchema = z.object({
  id: z.string(),
  organisationId: z.string(),
  name: z.string(),
  place: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  status: z.enum(eventStatuses),
  branding: eventBrandingSchema,
  /**
   * The logo the organiser uploaded in the console (`/api/events/{id}/logo?v=…`, public once the
   * event is), else `branding.logoUrl`, else null (issue 29: spectators see the logo).
   */
  logoUrl: z.string().nullable().optional(),
});
export type EventSummary = z.infer<typeof eventSummarySchema>;

export const eventDetailSchema = eventSummarySchema.extend({
  /** The event's IANA time zone: every time of day of the event is shown in it (issue 27). */
  timeZone: z.string().optional(),
  /**
   * Present (true) for a draft, which only its organisers can read: the public pages are their
   * preview, shown under a "Preview — not published" banner (issue 29). Spectators get 404.
   */
  draft: z.literal(true).optional(),
  contexts: z.array(z.object({ db: z.string(), name: z.string() })),
  races: z.array(
    z.object({
      id: z.string(),
      db: z.string(),
      name: z.string(),
      distanceM: z.number(),
      startType: z.string(),
      /** The race's format when not a road race (issue 31): its live table is the laps or legs page. */
      format: z.enum(['laps', 'timeLimited', 'backyard', 'multisport', 'relay']).optional(),
      /**
       * The gun and the first timing point after the start, with when its first times may come
       * (the gun plus that distance at 3:00 a km, in wall time): a live race before its first
       * split says when the first times come instead of a table of blanks (issue 43).
       */
      start: z
        .object({
          gunTimeMs: z.number(),
          firstPoint: z.object({ name: z.string(), nameFr: z.string(), distanceM: z.number() }).nullable(),
          firstTimesMs: z.number().nullable(),
        })
        .optional(),
      /**
       * Where the race's results stand (issue 31): provisional until the timekeeper publishes them,
       * open to protests until `protestEndsMs`, then official.
       */
      publication: z
        .object({
          state: z.enum(['provisional', 'protestOpen', 'official']),
          protestEndsMs: z.number().optional(),
          /** Corrections confirmed since the results were official (issue 43), newest first. */
          corrections: z.array(resultCorrectionSchema).optional(),
        })
        .optional(),
    }),
  ),
  /** Series (challenges) of the event's organisation, for links to their standings. */
  series: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
  /**
   * What is behind the event page's tiles (issue 27: no dead ends): photos, a live stream, a
   * course map (a course or located points), a published information page, group entries open.
   */
  available: z
    .object({
      photos: z.boolean(),
      stream: z.boolean(),
      map: z.boolean(),
      info: z.boolean(),
      groupEntry: z.boolean(),
    })
    .optional(),
});
export type EventDetail = z.infer<typeof eventDetailSchema>;

/** A real calendar date (issue 41: `7505-62-38` passed a pattern and failed in the database: 500). */
const isoDate = z.iso.date({ message: 'a YYYY-MM-DD date' });

/** `PATCH events/{id}`: any subset; endDate must not precede startDate. */
export const eventPatchSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    place: z.string().trim().max(200),
    startDate: isoDate,
    endDate: isoDate,
    status: z.enum(eventStatuses),
    branding: eventBrandingSchema,
  })
  .partial()
  .strict();
export type EventPatch = z.infer<typeof eventPatchSchema>;

/** A page key or a db: URL-safe. */
export const cmsKeySchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lowercase letters, digits, - and _');

/**
 * A node of the CMS navigation tree (spec §3). The root's Id is '' and its DisplayName the
 * event's name. `Childs`: the child nodes in order (recursive). `Folders`: how many children are
 * folders (pages with children of their own); `Leafs`: how many children are plain pages.
 * `DisplayName` is in the asked language (`lng`, default fr); `Titles` holds both.
 */
const textsSchema = z.object({ en: z.string(), fr: z.string() });

export const cmsNodeSchema = z
  .object({
    Id: z.string(),
    DisplayName: z.string(),
    Titles: textsSchema,
    Folders: z.number(),
    Leafs: z.number(),
    get Childs(): z.ZodArray<typeof cmsNodeSchema> {
      return z.array(cmsNodeSchema);
    },
    /** Whether spectators see it (organisers also get drafts). */
    Published: z.boolean(),
  })
  .meta({ id: 'CmsNode' });
export type CmsNode = z.infer<typeof cmsNodeSchema>;

export const cmsPageSchema = z.object({
  key: z.string(),
  db: z.string(),
  parentKey: z.string().nullable(),
  position: z.number(),
  title: textsSchema,
  /** Sanitised HTML. */
  body: textsSchema,
  published: z.boolean(),
  updatedAt: z.string(),
});
export type CmsPage = z.infer<typeof cmsPageSchema>;

const texts = (max: number) => z.object({ en: z.string().max(max), fr: z.string().max(max) }).strict();

export const cmsPageInputSchema = z
  .object({
    key: cmsKeySchema,
    db: cmsKeySchema.default('main'),
    parentKey: cmsKeySchema.nullable().default(null),
    position: z.number().int().min(0).max(10_000).optional(),
    title: z
      .object({ en: z.string().trim().min(1).max(200), fr: z.string().trim().min(1).max(200) })
      .strict(),
    body: texts(200_000).default({ en: '', fr: '' }),
    published: z.boolean().default(false),
  })
  .strict();
export type CmsPageInput = z.input<typeof cmsPageInputSchema>;

export const cmsPagePatchSchema = z
  .object({
    parentKey: cmsKeySchema.nullable(),
    position: z.number().int().min(0).max(10_000),
    title: z
      .object({ en: z.string().trim().min(1).max(200), fr: z.string().trim().min(1).max(200) })
      .strict(),
    body: texts(200_000),
    published: z.boolean(),
  })
  .partial()
  .strict();
export type CmsPagePatch = z.infer<typeof cmsPagePatchSchema>;

/** `POST events/{id}/cms/reorder`: the keys of one parent's children in their new order. */
export const cmsReorderSchema = z
  .object({
    db: cmsKeySchema.default('main'),
    parentKey: cmsKeySchema.nullable().default(null),
    keys: z.array(cmsKeySchema).min(1).max(500),
  })
  .strict();

export const contactSchema = z.object({
  id: z.string(),
  role: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  position: z.number(),
});
export type Contact = z.infer<typeof contactSchema>;

export const contactInputSchema = z
  .object({
    role: z.string().trim().min(1).max(100),
    name: z.string().trim().min(1).max(200),
    email: z.union([z.literal(''), z.string().trim().email().max(254)]).default(''),
    phone: z
      .string()
      .trim()
      .max(40)
      .regex(/^[0-9+() .-]*$/, 'digits, spaces and + ( ) . - only')
      .default(''),
    position: z.number().int().min(0).max(10_000).optional(),
  })
  .strict();
export type ContactInput = z.input<typeof contactInputSchema>;

/** The contact form. `website` is the honeypot: people leave it empty, bots fill it. */
/** `POST /api/events/:id/contact`: the message went to the event's contacts. */
export const contactSentSchema = z.object({ ok: z.literal(true) });
export type ContactSent = z.infer<typeof contactSentSchema>;

export const contactMessageSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    email: z.string().trim().email().max(254),
    subject: z.string().trim().min(1).max(200),
    message: z.string().trim().min(10).max(5_000),
    website: z.string().max(500).optional(),
  })
  .strict();
export type ContactMessageInput = z.infer<typeof contactMessageSchema>;

// Zod-free, in media.ts: the web's public pages import them without the schemas (issue 19 budget).
export {
  isAllowedStreamUrl,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_FILES,
  streamKinds,
  YOUTUBE_HOSTS,
  youtubeVideoId,
} from './media.ts';
export const streamSchema = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(streamKinds),
  url: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** True for the stream on air now (else the next one coming, when none is). */
  current: z.boolean(),
});
export type Stream = z.infer<typeof streamSchema>;

export const streamInputSchema = z
  .object({
    title: z.string().trim().min(1).max(200),
    kind: z.enum(streamKinds),
    url: z.string().trim().max(500),
    startsAt: z.string().datetime({ offset: true }),
    endsAt: z.string().datetime({ offset: true }),
    position: z.number().int().min(0).max(10_000).optional(),
  })
  .strict()
  .refine((s) => isAllowedStreamUrl(s.kind, s.url), {
    path: ['url'],
    message: 'YouTube URLs from youtube.com, youtube-nocookie.com or youtu.be; HLS as an https .m3u8',
  })
  .refine((s) => Date.parse(s.endsAt) > Date.parse(s.startsAt), {
    path: ['endsAt'],
    message: 'ends after it starts',
  });
export type StreamInput = z.input<typeof streamInputSchema>;

/** Bibs may contain letters (product.md: `F3`). */
export const bibSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,12}$/, 'letters, digits and - only');

export const photoSchema = z.object({
  id: z.string(),
  eventId: z.string(),
  fileName: z.string(),
  caption: z.string(),
  bibs: z.array(z.string()),
  width: z.number(),
  height: z.number(),
  takenAt: z.string().nullable(),
  uploadedAt: z.string(),
  /** Relative to the API base. */
  thumbUrl: z.string(),
  webUrl: z.string(),
});
export type Photo = z.infer<typeof photoSchema>;

export const photoUploadResultSchema = z.object({
  photos: z.array(photoSchema),
  /** Files refused, with the reason code (PHOTO_TYPE, PHOTO_TOO_LARGE, PHOTO_UNREADABLE). */
  rejected: z.array(z.object({ fileName: z.string(), code: z.string() })),
});
export type PhotoUploadResult = z.infer<typeof photoUploadResultSchema>;

export const photoPatchSchema = z
  .object({ bibs: z.array(bibSchema).max(50), caption: z.string().trim().max(300) })
  .partial()
  .strict();

export const seriesStandingSchema = z.object({
  rank: z.number(),
  athleteKey: z.string(),
  name: z.string(),
  total: z.number(),
  /** Points per race key (absent: did not score). */
  points: z.record(z.string(), z.number()),
});
export type SeriesStanding = z.infer<typeof seriesStandingSchema>;

export const seriesStandingsSchema = z.object({
  id: z.string(),
  name: z.string(),
  pointsTable: z.array(z.number()),
  races: z.array(z.object({ key: z.string(), name: z.string(), date: z.string(), live: z.boolean() })),
  live: z.boolean(),
  categories: z.array(z.object({ category: z.string(), standings: z.array(seriesStandingSchema) })),
});
export type SeriesStandings = z.infer<typeof seriesStandingsSchema>;

export const seriesResultsInputSchema = z
  .object({
    live: z.boolean().optional(),
    results: z
      .array(
        z
          .object({
            athleteKey: z.string().trim().min(1).max(100),
            name: z.string().trim().min(1).max(200),
            category: z.string().trim().min(1).max(50),
            position: z.number().int().min(1).max(100_000),
          })
          .strict(),
      )
      .max(50_000),
  })
  .strict();
