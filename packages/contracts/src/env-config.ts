import { z } from 'zod';

/** Realtime (Pusher protocol) client settings; host/port point at a self-hosted server. */
export const realtimeSettingsSchema = z.object({
  key: z.string(),
  cluster: z.string().default('eu'),
  /** Host of a self-hosted Pusher-protocol server; null means the page's own host. */
  host: z.string().nullable().default(null),
  port: z.number().int().min(1).max(65535).nullable().default(null),
  forceTLS: z.boolean().nullable().default(null),
});

/** One environment configuration: spec §9's base URLs, realtime key and map key. */
export const environmentConfigSchema = z.object({
  apiUrlBase: z.string(),
  eventsApiUrlBase: z.string(),
  resultsApiUrlBase: z.string(),
  userApiUrlBase: z.string(),
  confirmationApiUrlBase: z.string(),
  trackingApiUrlBase: z.string(),
  realtime: realtimeSettingsSchema,
  /** Map tile key; empty means no tiles (a plain background). */
  mapKey: z.string(),
  /** Blob storage host for static images and flags (spec §7). */
  blobUrlBase: z.string(),
});
export type EnvironmentConfig = z.infer<typeof environmentConfigSchema>;

/** What `GET /api/env-config` answers: the three environments. */
export const environmentsSchema = z.object({
  dev: environmentConfigSchema,
  prod: environmentConfigSchema,
  cis: environmentConfigSchema,
});
export type Environments = z.infer<typeof environmentsSchema>;
