import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { describePortRanges, type PortRanges, parsePortRanges } from '../lib/egress/listen-ports.ts';
import { isPrivateNetwork } from '../lib/egress/policy.ts';
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
/**
 * `OIDC_TRUSTED_ISSUERS`: comma-separated `issuer|audience` pairs (`|aud2` more for several
 * audiences). The audience is required (issue 13: a token a trusted issuer minted for another
 * application must not be accepted here).
 */
const issuerList = commaList.transform((list, ctx) =>
  list.flatMap((entry) => {
    const [issuer = '', ...audiences] = entry.split('|').map((p) => p.trim());
    const normalised = issuer.replace(/\/+$/, '');
    if (!/^https?:\/\/[^\s/]+/.test(normalised) || !URL.canParse(normalised)) {
      ctx.addIssue({ code: 'custom', message: `'${issuer}' is not an http(s) issuer URL` });
      return [];
    }
    if (!audiences.length || audiences.some((a) => !a)) {
      ctx.addIssue({
        code: 'custom',
        message: `'${issuer}' needs its expected audience: issuer|audience (e.g. https://idp.example|tempora)`,
      });
      return [];
    }
    return [{ issuer: normalised, audiences }];
  }),
);
/**
 * `TRUST_PROXY`: which proxies may tell the client's address (`X-Forwarded-For`) and protocol.
 * Unset or `false`: none (the socket's address is the client). A number: that many hops. A comma
 * list of addresses or CIDR ranges: those proxies. `true`: any (only behind a proxy that strips
 * what the client sent). The value Fastify's `trustProxy` option takes.
 */
const trustProxy = z.string().transform((value, ctx): boolean | number | string[] => {
  const v = value.trim().toLowerCase();
  if (v === 'false' || v === '0' || v === 'no') return false;
  if (v === 'true' || v === 'yes') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const bad = list.filter((entry) => {
    const [address = '', bits, extra] = entry.split('/');
    const family = net.isIP(address);
    if (!family || extra !== undefined) return true;
    if (bits === undefined) return false;
    return !/^\d+$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128);
  });
  if (!list.length || bad.length) {
    ctx.addIssue({
      code: 'custom',
      message: `must be true, false, a hop count, or comma-separated addresses/CIDR ranges${bad.length ? ` (not ${bad.join(', ')})` : ''}`,
    });
    return z.NEVER;
  }
  return list;
});
/**
 * `DEVICE_NETWORKS`: comma-separated CIDR ranges (or single addresses) of the private networks
 * device connectors may reach (issue 25: a timer's LAN, `192.168.1.0/24`). Each must lie inside
 * one private range (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7): loopback, link-local and
 * cloud metadata can never be opened this way.
 */
const networkList = z.string().transform((value, ctx) => {
  const out: { address: string; bits: number; family: 'ipv4' | 'ipv6' }[] = [];
  for (const entry of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [address = '', bitsText, extra] = entry.split('/');
    const family = net.isIP(address);
    const max = family === 4 ? 32 : 128;
    const bits = bitsText === undefined ? max : Number(bitsText);
    if (!family || extra !== undefined || !/^\d+$/.test(bitsText ?? String(max)) || bits > max) {
      ctx.addIssue({ code: 'custom', message: `'${entry}' is not an address or CIDR range` });
      continue;
    }
    if (!isPrivateNetwork(address, bits)) {
      ctx.addIssue({
        code: 'custom',
        message: `'${entry}' is not inside a private range (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10, fc00::/7)`,
      });
      continue;
    }
    out.push({ address, bits, family: family === 4 ? 'ipv4' : 'ipv6' });
  }
  return out;
});
/** `DEVICE_LISTEN_PORTS`: ports and ranges (`3097,61611-61620`) listening connectors may use. */
const portRanges = z.string().transform((value, ctx): PortRanges => {
  const parsed = parsePortRanges(value);
  if ('error' in parsed) {
    ctx.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  }
  return parsed.ranges;
});
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Secrets that are publicly known (issue 13: the former development default of REALTIME_SECRET,
 * printed in the README and the code): refused in every mode (issue 42: `npm start` runs in
 * development mode on servers too). Unset, a secret is the install's own, made on first start
 * (`installSecrets`, app.ts). A module adding such a secret adds one line here.
 */
export const KNOWN_SECRETS: Record<string, string[]> = {
  REALTIME_SECRET: ['tempora-dev-secret-change-me'],
};

/** The environment variables the server reads, with their defaults (README "Configuration"). */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: port.default(8080),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres', 'postgresql']).optional(),
  REDIS_URL: url(['redis', 'rediss']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: readable lines in development on a terminal, JSON lines otherwise (lib/log-output.ts). */
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
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
  /** Unset: the install's own, 32 random bytes made on first start and kept in the database. */
  REALTIME_SECRET: z.string().min(8).optional(),
  /** Unset: `redis` when REDIS_URL is set, else `local`. */
  REALTIME_ADAPTER: z.enum(['local', 'redis', 'pusher-http']).optional(),
  REALTIME_UPSTREAM_URL: url(['http', 'https']).optional(),
  REALTIME_REDIS_PREFIX: z.string().min(1).default('tempora:realtime:'),
  /** Prefix of the shared rate-limit counters in Redis (one per deployment sharing a Redis). */
  RATE_LIMIT_REDIS_PREFIX: z.string().min(1).default('tempora:rate:'),
  REALTIME_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(20_000),
  REALTIME_ACTIVITY_TIMEOUT: z.coerce.number().int().min(1).max(3600).default(120),
  REALTIME_CLIENT_EVENTS: bool.default(false),
  /** Pusher-style webhooks (channel_occupied/vacated, member_added/removed, client_event, cache_miss). */
  REALTIME_WEBHOOK_URLS: commaList.pipe(z.array(url(['http', 'https']))).default([]),
  /** `pusher:subscription_count` events on non-presence channels (throttled to one a second). */
  REALTIME_SUBSCRIPTION_COUNT: bool.default(false),
  /** Base64 of 32 bytes: lets /api/realtime/auth give `shared_secret` for `private-encrypted-user-{sub}`. */
  REALTIME_ENCRYPTION_MASTER_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, { message: 'must be 32 bytes in base64' })
    .optional(),
  MAP_KEY: z.string().default(''),
  SEED_DEMO: bool.default(true),
  /** Import the Boston 2017 result list as a finished demo event (in the background, after listening). */
  SEED_BOSTON: bool.default(true),
  /** Port of the decoder TCP listener (decoder-tcp.ts: Wiclax-style lines); unset: no listener. */
  DECODER_TCP_PORT: port.optional(),
  /** Address it listens on; HOST when unset. */
  DECODER_TCP_HOST: z.string().min(1).optional(),
  /**
   * Issue 20: a context's live results are published at most once per this many ms (one
   * `results` event, one patch per changed report for the whole window); 0: after every batch.
   */
  RESULTS_PUBLISH_MS: z.coerce.number().int().min(0).max(60_000).default(250),
  /**
   * Issue 27: finished events' report tables are stored as snapshots and answered from them after
   * a restart (modules/results/report-snapshots.ts). `false`: neither stored nor served (the path
   * before; the cold-start bench's baseline).
   */
  RESULTS_SNAPSHOTS: bool.default(true),
  /**
   * A live results patch larger than this goes out as a reload (every open table then fetches
   * the report again). Through an upstream Pusher service (REALTIME_ADAPTER=pusher-http) 8,000
   * whatever this says: its events are limited to 10 KB.
   */
  RESULTS_PATCH_MAX_BYTES: z.coerce.number().int().min(1_000).max(1_000_000).default(64_000),
  /**
   * Issue 20, one publisher per context across nodes (REALTIME_ADAPTER=redis): the Redis keys of
   * the publisher leases (one per context) start with this (one prefix per deployment sharing a
   * Redis).
   */
  RESULTS_LEASE_REDIS_PREFIX: z.string().min(1).default('tempora:results:lease:'),
  /**
   * How long a context's publisher lease lasts unrenewed: a node that dies stops publishing and
   * another takes over within about this long (renewed every third of it).
   */
  RESULTS_LEASE_MS: z.coerce.number().int().min(300).max(60_000).default(3_000),
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
  /** Extra OIDC issuers and the audience each must name, verified through `{issuer}/.well-known/jwks.json`. */
  OIDC_TRUSTED_ISSUERS: issuerList.default([]),
  /** Attempts per IP and e-mail per 15 minutes on sign-in, sign-up, resend, forgot and reset. */
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(10),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * More handles accepting connections on the HTTP port, 0 for none (lib/accept-handles.ts, issue
   * 38): Node accepts one connection per handle per turn of a busy event loop. 8 measured best in
   * the rush (docs/deployment.md).
   */
  ACCEPT_HANDLES: z.coerce.number().int().min(0).max(256).default(8),
  /**
   * Where the embedded PGlite runs (issue 38, db/pglite-thread.ts): `main`, on the thread that
   * answers requests; `worker`, on a thread of its own. The rush measured both (2026-12-05,
   * docs/deployment.md): `worker` answered the entry step's p99 10–15 % sooner but spent 25 % more
   * CPU and its `/api/health` p99 came near 100 ms; `main` stays the default.
   */
  PGLITE_THREAD: z.enum(['worker', 'main']).default('main'),
  /** Payments (issue 18): Mollie is on when its API key is set; MOLLIE_API_URL overrides its endpoint. */
  MOLLIE_API_KEY: z
    .string()
    .regex(/^(test|live)_\w{10,}$/, 'a Mollie key (test_… or live_…)')
    .optional(),
  MOLLIE_API_URL: url(['http', 'https']).optional(),
  /**
   * Bearer token of `GET /metrics` (issue 41, Prometheus): unset, the route refuses every caller.
   * At least 16 characters; Prometheus sends it as `authorization.credentials`.
   */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** Stripe is on when both its secret key and its webhook signing secret are set. */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_\w+$/, 'a Stripe secret key (sk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'a webhook signing secret (whsec_…)')
    .optional(),
  /**
   * Webhooks may be delivered to loopback, private and link-local addresses (tests, a closed
   * network). Off by default: an organiser's URL must not reach the server's own network (SSRF).
   */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /**
   * Issue 25, device connectors (RaceResult, Wiclax: Tempora connects): private networks they may
   * reach besides the public internet; default none. Loopback, link-local, metadata, unspecified
   * and multicast addresses are refused whatever this says.
   */
  DEVICE_NETWORKS: networkList.default([]),
  /** Connectors may reach loopback (local simulators in development and tests); off by default. */
  DEVICE_ALLOW_LOOPBACK: bool.default(false),
  /**
   * Ports listening connectors (MYLAPS, ChronoTrack) may use, one device per port; default none:
   * such devices are refused.
   */
  DEVICE_LISTEN_PORTS: portRanges.default([]),
  /** The address listening connectors bind to (an IP address; 0.0.0.0 opens them to every network). */
  DEVICE_LISTEN_HOST: z
    .string()
    .refine((v) => net.isIP(v) !== 0, { message: 'must be an IP address (e.g. 127.0.0.1 or 0.0.0.0)' })
    .default('127.0.0.1'),
  /** Proxies trusted for the client's address and protocol (see {@link trustProxy}); default none. */
  TRUST_PROXY: trustProxy.default(false),
});

export type Env = z.infer<typeof envSchema>;

/** The validated configuration the whole server is built from. */
export interface Config extends Omit<Env, 'REALTIME_SECRET'> {
  /**
   * The Pusher app secret: REALTIME_SECRET, else '' until `buildApp` gives the install's own
   * (`installSecrets`: made on first start, kept in the database, so every node of a cluster on
   * one PostgreSQL signs alike).
   */
  REALTIME_SECRET: string;
  /** Absolute data directory (PGlite database, files, signing keys). */
  dataDir: string;
  /**
   * Where the web client is reached, without a trailing slash: links in e-mails are built from it
   * only, never from a request's Host or X-Forwarded-Host. `PUBLIC_URL` (required in production),
   * else `http://<HOST, or localhost for a wildcard>:<PORT>`.
   */
  publicUrl: string;
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
  const env = result.data;
  const problems: { variable: string; message: string }[] = [];
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL)
    problems.push({ variable: 'PUBLIC_URL', message: 'is required in production (links in e-mails)' });
  for (const [variable, known] of Object.entries(KNOWN_SECRETS)) {
    const value = (env as Record<string, unknown>)[variable];
    if (typeof value === 'string' && known.includes(value))
      problems.push({
        variable,
        message: 'is a publicly known secret; unset it (the install makes its own) or set one of your own',
      });
  }
  // An upstream Pusher service signs with its own app's secret: the install's cannot be it.
  if (env.REALTIME_ADAPTER === 'pusher-http' && !env.REALTIME_SECRET)
    problems.push({
      variable: 'REALTIME_SECRET',
      message: "is required with REALTIME_ADAPTER=pusher-http (the upstream app's secret)",
    });
  if (problems.length) throw new ConfigError(problems);
  const clash = [env.PORT, env.DECODER_TCP_PORT].find(
    (p) => p !== undefined && p !== 0 && env.DEVICE_LISTEN_PORTS.some(([from, to]) => p >= from && p <= to),
  );
  if (clash !== undefined)
    throw new ConfigError([
      {
        variable: 'DEVICE_LISTEN_PORTS',
        message: `${describePortRanges(env.DEVICE_LISTEN_PORTS)} includes ${clash}, a port the server itself uses`,
      },
    ]);
  return {
    ...env,
    REALTIME_SECRET: env.REALTIME_SECRET ?? '',
    dataDir: path.resolve(baseDir, env.DATA_DIR),
    publicUrl: publicUrlOf(env),
  };
}

function publicUrlOf(env: Env): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/+$/, '');
  const wildcard = env.HOST === '0.0.0.0' || env.HOST === '::' || env.HOST === '[::]';
  const host = wildcard ? 'localhost' : net.isIPv6(env.HOST) ? `[${env.HOST}]` : env.HOST;
  return `http://${host}:${env.PORT}`;
}
