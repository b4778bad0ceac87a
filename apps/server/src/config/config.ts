import path from 'node:path';
import { z } from 'zod';
import { repoRoot } from '../paths.ts';

/** Where relative paths in the configuration are resolved: the directory npm was run from. */
const baseDir = process.env.INIT_CWD ?? process.cwd();

const port = z.coerce.number().int().min(0).max(65535);
const url = (protocols: string[]) =>
  z.url().refine((v) => protocols.some((p) => v.startsWith(`${p}:`)), {
    message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
  });
const commaList = z.string().transform((v) =>
  v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean),
);
const emailList = commaList
  .transform((list) => list.map((e) => e.toLowerCase()))
  .pipe(z.array(z.email({ message: 'must be comma-separated e-mail addresses' })));
const issuerList = commaList
  .transform((list) => list.map((u) => u.replace(/\/+$/, '')))
  .pipe(z.array(url(['http', 'https'])));
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** The environment variables the server reads, with their defaults (README "Configuration"). */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: port.default(8080),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres', 'postgresql']).optional(),
  REDIS_URL: url(['redis', 'rediss']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().min(1).default(path.join(repoRoot, 'apps/web/dist')),
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .max(512 * 1024 * 1024)
    .default(1024 * 1024),
  ENV_CONFIG_FILE: z.string().min(1).optional(),
  PUBLIC_URL: url(['http', 'https']).optional(),
  REALTIME_APP_ID: z.string().min(1).default('tempora'),
  REALTIME_KEY: z.string().min(1).default('tempora-key'),
  REALTIME_SECRET: z.string().min(8).default('tempora-dev-secret-change-me'),
  /** Unset: `redis` when REDIS_URL is set, else `local`. */
  REALTIME_ADAPTER: z.enum(['local', 'redis', 'pusher-http']).optional(),
  REALTIME_UPSTREAM_URL: url(['http', 'https']).optional(),
  REALTIME_REDIS_PREFIX: z.string().min(1).default('tempora:realtime:'),
  REALTIME_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(20_000),
  REALTIME_ACTIVITY_TIMEOUT: z.coerce.number().int().min(1).max(3600).default(120),
  REALTIME_CLIENT_EVENTS: bool.default(false),
  MAP_KEY: z.string().default(''),
  SEED_DEMO: bool.default(true),
  /** Import the Boston 2017 result list as a finished demo event (in the background, after listening). */
  SEED_BOSTON: bool.default(true),
  /** Port of the decoder TCP listener (decoder-tcp.ts: Wiclax-style lines); unset: no listener. */
  DECODER_TCP_PORT: port.optional(),
  /** Address it listens on; HOST when unset. */
  DECODER_TCP_HOST: z.string().min(1).optional(),
  /** Replay the demo's marathon and 10 km live (simulated decoders); false leaves them as seeded. */
  DEMO_REPLAY: bool.default(true),
  /** How much faster than the wall clock the demo's races run (their clock rate, 1–100). */
  DEMO_SPEED: z.coerce.number().min(1).max(100).default(4),
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().min(3).default('Tempora <no-reply@tempora.local>'),
  /** The one account that sees the Confirmation menu (spec §2). */
  CONFIRMATION_ACCOUNT_EMAIL: z
    .email()
    .default('confirmation@tempora.local')
    .transform((v) => v.toLowerCase()),
  /** Operators of this instance: `manage all` (comma-separated e-mails). */
  PLATFORM_STAFF_EMAILS: emailList.default([]),
  /** Extra OIDC issuers whose ID tokens are accepted, verified through `{issuer}/.well-known/jwks.json`. */
  OIDC_TRUSTED_ISSUERS: issuerList.default([]),
  /** Attempts per IP and e-mail per 15 minutes on sign-in, sign-up, resend, forgot and reset. */
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(10),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
});

export type Env = z.infer<typeof envSchema>;

/** The validated configuration the whole server is built from. */
export interface Config extends Env {
  /** Absolute data directory (PGlite database, files, signing keys). */
  dataDir: string;
}

/** Thrown when the environment holds a wrong value; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates the configuration once, at start. Empty strings count as unset so that
 * `FOO=` in a shell behaves like no `FOO` at all.
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = source[key];
    if (value !== undefined && value !== '') cleaned[key] = value;
  }
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? '?'),
        message: issue.message,
      })),
    );
  }
  return { ...result.data, dataDir: path.resolve(baseDir, result.data.DATA_DIR) };
}
