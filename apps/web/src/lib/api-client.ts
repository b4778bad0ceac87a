import type { EnvironmentConfig } from '@tempora/contracts';
import { takeEarlyResponse } from './early-fetch.ts';

/**
 * The one shared API client (spec §7: "All calls go through one shared client. Each carries an
 * Authorization bearer header with the identity provider's ID token when a user is signed in").
 * Base URLs come from the environment configuration (spec §9); the auth feature installs the
 * token provider and the 401 handler. Problem+json answers become `ApiError`s.
 */

/** Which base URL of the environment a call uses (spec §7 / §9). */
export type ApiBase =
  | 'apiUrlBase'
  | 'eventsApiUrlBase'
  | 'resultsApiUrlBase'
  | 'userApiUrlBase'
  | 'confirmationApiUrlBase'
  | 'trackingApiUrlBase';

/** An RFC 9457 problem answered by the server, or a network failure (`status` 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  /** True when the server could not be reached at all. */
  get isNetwork(): boolean {
    return this.status === 0;
  }
}

interface ClientState {
  config: EnvironmentConfig | null;
  /** Returns a fresh ID token (refreshing it when close to expiry), or null when signed out. */
  getToken: () => Promise<string | null>;
  /** Called once on a 401 with a token: refreshes; true means retry once. */
  onUnauthorized: () => Promise<boolean>;
}

const state: ClientState = {
  config: null,
  getToken: async () => null,
  onUnauthorized: async () => false,
};

/** Sets the environment configuration whose base URLs the client uses. */
export function configureApiClient(config: EnvironmentConfig): void {
  state.config = config;
}

/** The environment configuration in use (throws before `configureApiClient`). */
export function currentEnvironment(): EnvironmentConfig {
  if (!state.config) throw new Error('API client used before the environment configuration was loaded');
  return state.config;
}

/** Installs how the client gets the bearer token and what it does on a 401 (the auth feature). */
export function setAuthHandlers(handlers: Pick<ClientState, 'getToken' | 'onUnauthorized'>): void {
  state.getToken = handlers.getToken;
  state.onUnauthorized = handlers.onUnauthorized;
}

/** The bearer token of the signed-in user, or null (uploads with progress and file downloads). */
export function currentToken(): Promise<string | null> {
  return state.getToken();
}

/** Builds the absolute URL of `path` under one of the environment's bases. */
export function apiUrl(base: ApiBase, path: string): string {
  const root = currentEnvironment()[base];
  return `${root.endsWith('/') ? root : `${root}/`}${path.replace(/^\//, '')}`;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body (objects) or raw body (FormData, Blob, string). */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Skip the bearer header (identity calls made before sign-in). */
  anonymous?: boolean;
}

/**
 * The field errors of a problem (its `errors`) as translated messages by field: `field-errors.ts`
 * and its messages are loaded only when a problem carries some (only forms get them, issue 19's
 * budget); none when that chunk cannot load.
 */
export const problemFieldErrors = (errors: unknown): Promise<Record<string, string[]>> =>
  import('./field-errors.ts').then(
    (m) => m.loadFieldErrors(errors),
    () => ({}),
  );

async function toApiError(response: Response): Promise<ApiError> {
  const retry = Number(response.headers.get('retry-after'));
  let problem: { code?: string; title?: string; detail?: string; errors?: unknown } = {};
  try {
    problem = await response.json();
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  return new ApiError(
    response.status,
    problem.code ?? `HTTP_${response.status}`,
    problem.detail ?? problem.title ?? response.statusText,
    problem.errors ? await problemFieldErrors(problem.errors) : {},
    Number.isFinite(retry) && retry > 0 ? retry : null,
  );
}

/**
 * The translated message for a form field from a failed call's field errors, for a TextField's
 * helper text. A name also takes the errors of the paths under it (`refundPolicy` shows
 * `refundPolicy.tiers.0.until`).
 */
export function fieldError(error: unknown, ...names: string[]): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const messages = Object.entries(error.fieldErrors)
    .filter(([field]) => names.some((n) => field === n || field.startsWith(`${n}.`)))
    .flatMap(([, list]) => list);
  return messages.length ? [...new Set(messages)].join(', ') : undefined;
}

async function send(url: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    const raw = options.body;
    if (typeof raw === 'string' || raw instanceof FormData || raw instanceof Blob) body = raw;
    else {
      body = JSON.stringify(raw);
      headers['content-type'] = 'application/json';
    }
  }
  if (!options.anonymous) {
    const token = await state.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
  }
  try {
    return await fetch(url, { method: options.method ?? 'GET', headers, body, signal: options.signal });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', (error as Error).message);
  }
}

/**
 * The answer the boot script asked for to a plain GET of `url` (issue 19: a report's first rows
 * before the entry has run), when the call carries nothing the boot script's did not: no token,
 * no other header. A network failure there is tried again by the caller's own request.
 */
async function earlyAnswer(url: string, options: RequestOptions): Promise<Response | undefined> {
  if ((options.method ?? 'GET') !== 'GET' || options.headers || options.body !== undefined) return undefined;
  const early = takeEarlyResponse(url);
  if (!early || (!options.anonymous && (await state.getToken()))) return undefined;
  return early.catch(() => undefined);
}

/**
 * Calls `path` under `base` and returns the parsed JSON (undefined for 204). A 401 on a signed-in
 * call refreshes the token once and retries; a second 401 is thrown (the auth feature signs out).
 */
export async function apiRequest<T>(base: ApiBase, path: string, options: RequestOptions = {}): Promise<T> {
  const url = apiUrl(base, path);
  const asked: RequestOptions = { ...options, headers: { accept: '*/*', ...options.headers } };
  let response = (await earlyAnswer(url, options)) ?? (await send(url, asked));
  if (response.status === 401 && !options.anonymous && (await state.onUnauthorized())) {
    response = await send(url, asked);
  }
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('json') ? await response.json() : await response.text()) as T;
}

/** GET shorthand. */
export function apiGet<T>(
  base: ApiBase,
  path: string,
  options: Omit<RequestOptions, 'method' | 'body'> = {},
) {
  return apiRequest<T>(base, path, options);
}

/** POST shorthand. */
export function apiPost<T>(
  base: ApiBase,
  path: string,
  body?: unknown,
  options: Omit<RequestOptions, 'method' | 'body'> = {},
) {
  return apiRequest<T>(base, path, { ...options, method: 'POST', body });
}

/**
 * Calls `path` and returns the raw answer as a Blob with the file name the server proposes
 * (`content-disposition`): downloads that need the bearer header (exports, previews).
 */
export async function apiDownload(
  base: ApiBase,
  path: string,
  options: RequestOptions = {},
): Promise<{ blob: Blob; fileName: string | null }> {
  const url = apiUrl(base, path);
  const asked: RequestOptions = { ...options, headers: { accept: '*/*', ...options.headers } };
  let response = await send(url, asked);
  if (response.status === 401 && !options.anonymous && (await state.onUnauthorized())) {
    response = await send(url, asked);
  }
  if (!response.ok) throw await toApiError(response);
  const disposition = response.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="([^"]+)"/i.exec(disposition)?.[1];
  return { blob: await response.blob(), fileName: utf8 ? decodeURIComponent(utf8) : (plain ?? null) };
}

/** The same download under the name the payments and deposits features call it. */
export const apiBlob = apiDownload;
