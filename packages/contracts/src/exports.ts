import { z } from 'zod';
import { resultCorrectionSchema } from './corrections.ts';
import { localizedSchema } from './results.ts';

/**
 * Results out (issue 16): exports, printable lists, finisher certificates, TV feeds, webhooks.
 * Paths under `/api/`:
 *
 *   GET  exports/{eventId}/groups/{group}/reports/{report}?format=csv|xlsx|pdf&lng=&sep=&q=&orientation=&sections=
 *   GET  exports/{eventId}/settings                 → ExportAccess (public)
 *   PUT  exports/{eventId}/settings                 (organiser) ExportSettings
 *   GET  exports/{eventId}/certificate              (organiser) → CertificateTemplateInfo
 *   PUT  exports/{eventId}/certificate              (organiser) CertificateTemplate
 *   PUT  exports/{eventId}/certificate/background   (organiser) image/png | image/jpeg body
 *   DELETE exports/{eventId}/certificate/background (organiser)
 *   GET  exports/{eventId}/certificate/background   (organiser) the image
 *   GET  exports/{eventId}/certificate/preview?lng= (organiser) a PDF with the first finisher
 *   GET  certificates/{trackingKey}?lng=            → PDF (the runner has finished; 409 otherwise)
 *   GET  verify/{token}                             → Verification (the result as known now)
 *   GET  feeds/{db}/races/{raceId}/finishers|leaders|hotseat|standings  → FeedRow[] (ETag, max-age 2)
 *   GET  webhooks/events/{eventId}                  (organiser) → Webhook[]
 *   POST webhooks/events/{eventId}                  (organiser) WebhookCreate → WebhookCreated (secret once)
 *   PATCH webhooks/{id}   DELETE webhooks/{id}     (organiser)
 *   GET  webhooks/{id}/deliveries                   (organiser) → WebhookDelivery[]
 *   POST webhooks/{id}/deliveries/{deliveryId}/replay (organiser)
 *   POST webhooks/{id}/test                         (organiser) queues a `ping`
 */

export const exportFormats = ['csv', 'xlsx', 'pdf'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const exportQuerySchema = z.object({
  format: z.enum(exportFormats),
  lng: z.enum(['en', 'fr']).default('fr'),
  /** CSV separator: `;` (what French Excel opens) or `,`. */
  sep: z.enum([';', ',']).default(';'),
  /** The search of the report page (name or bib, exact bib first), as on screen. */
  q: z.string().max(100).optional(),
  /** PDF page orientation; `auto` chooses landscape when the columns do not fit portrait. */
  orientation: z.enum(['auto', 'portrait', 'landscape']).default('auto'),
  /** PDF: one section per category (a page break and a heading for each). */
  sections: z.enum(['none', 'category']).default('none'),
});
export type ExportQuery = z.infer<typeof exportQuerySchema>;

export const exportSettingsSchema = z.object({
  /** Spectators may download exports of this event's reports (organisers always may). */
  spectatorExports: z.boolean(),
});
export type ExportSettings = z.infer<typeof exportSettingsSchema>;

/** `GET exports/{eventId}/settings`: the setting, and whether the caller organises the event. */
export const exportAccessSchema = exportSettingsSchema.extend({ organiser: z.boolean() });
export type ExportAccess = z.infer<typeof exportAccessSchema>;

/** What a certificate field shows. */
export const certificateFieldKinds = [
  'eventName',
  'raceName',
  'date',
  'name',
  'bib',
  'category',
  'club',
  'netTime',
  'gunTime',
  'rankOverall',
  'rankGender',
  'rankCategory',
  'pace',
  'splits',
  'text',
  'qr',
] as const;
export type CertificateFieldKind = (typeof certificateFieldKinds)[number];

export const certificateFonts = ['sans', 'sansBold', 'serif', 'serifBold'] as const;
export type CertificateFont = (typeof certificateFonts)[number];

/** One field of a certificate: positions in millimetres from the page's top left corner. */
export const certificateFieldSchema = z.object({
  kind: z.enum(certificateFieldKinds),
  /** Label before the value (`Net time: 3:12:04`), per language; the text itself for `text`. */
  label: localizedSchema.default({ en: '', fr: '' }),
  x: z.number().min(0).max(420),
  y: z.number().min(0).max(420),
  /** Width of the text box (mm); the QR code's side. */
  width: z.number().min(5).max(420),
  size: z.number().min(4).max(120),
  font: z.enum(certificateFonts).default('sans'),
  align: z.enum(['left', 'center', 'right']).default('center'),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .default('#000000'),
});
export type CertificateField = z.infer<typeof certificateFieldSchema>;

export const certificateTemplateSchema = z.object({
  orientation: z.enum(['portrait', 'landscape']),
  fields: z.array(certificateFieldSchema).max(40),
});
export type CertificateTemplate = z.infer<typeof certificateTemplateSchema>;

/** A template as the designer loads it. */
export const certificateTemplateInfoSchema = z.object({
  template: certificateTemplateSchema,
  /** Whether a background image is set (GET …/certificate/background serves it). */
  hasBackground: z.boolean(),
  /** False while the organiser never saved one (the default template is shown). */
  saved: z.boolean(),
});
export type CertificateTemplateInfo = z.infer<typeof certificateTemplateInfoSchema>;

/** `GET verify/{token}`: a certificate's result as the server knows it now. */
export const verificationSchema = z.object({
  valid: z.literal(true),
  eventId: z.string(),
  eventName: z.string(),
  race: z.object({ id: z.string(), name: z.string(), date: z.string() }),
  athlete: z.object({ bib: z.string(), name: z.string(), category: z.string().nullable(), club: z.string() }),
  status: z.string(),
  netMs: z.number().nullable(),
  gunMs: z.number().nullable(),
  rankOverall: z.number().nullable(),
  rankGender: z.number().nullable(),
  rankCategory: z.number().nullable(),
  /** When the certificate was issued (epoch ms). */
  issuedAt: z.number(),
  /** The net time printed on the certificate when it was issued (ms). */
  certificateNetMs: z.number(),
  /**
   * When the results were corrected after this certificate was issued (issue 43): it was replaced
   * by a re-issued one (the tracking card's), null while it stands; the corrections since.
   */
  replacedAtMs: z.number().nullable().optional(),
  /** The event's zone, where the dates above are stated. */
  timeZone: z.string().nullable().optional(),
  corrections: z.array(resultCorrectionSchema).optional(),
});
export type Verification = z.infer<typeof verificationSchema>;

/**
 * A row of a broadcast feed (vMix data sources, CasparCG, Singular…): flat, every value a
 * string or number, times also preformatted, so a title template binds fields directly.
 */
export const feedRowSchema = z.record(z.string(), z.union([z.string(), z.number()]));
export type FeedRow = z.infer<typeof feedRowSchema>;

export const webhookTypes = [
  'passing.stored',
  'runner.finished',
  'runner.status',
  'passing.corrected',
  'results.corrected',
] as const;
export type WebhookType = (typeof webhookTypes)[number];

export const webhookCreateSchema = z.object({
  url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .refine((u) => !/^[a-z]+:\/\/[^/]*@/i.test(u), 'no credentials in the URL'),
  types: z.array(z.enum(webhookTypes)).min(1).max(webhookTypes.length),
});
export type WebhookCreate = z.infer<typeof webhookCreateSchema>;

export const webhookUpdateSchema = z.object({
  url: webhookCreateSchema.shape.url.optional(),
  types: webhookCreateSchema.shape.types.optional(),
  active: z.boolean().optional(),
});

export const webhookSchema = z.object({
  id: z.string(),
  eventId: z.string(),
  url: z.string(),
  types: z.array(z.enum(webhookTypes)),
  active: z.boolean(),
  createdAt: z.string(),
  /** Deliveries waiting, delivered, failed (given up after 24 h). */
  counts: z.object({ pending: z.number(), delivered: z.number(), failed: z.number() }),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** Answered once, at creation: the secret is never shown again. */
export const webhookCreatedSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

export const webhookDeliverySchema = z.object({
  id: z.number(),
  type: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  payload: z.unknown(),
  log: z.array(
    z.object({
      at: z.string(),
      status: z.number().nullable(),
      error: z.string().nullable(),
      durationMs: z.number(),
    }),
  ),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** `202` of a replay or a test delivery: queued. */
export const webhookQueuedSchema = z.object({ queued: z.literal(true) });
export type WebhookQueued = z.infer<typeof webhookQueuedSchema>;
