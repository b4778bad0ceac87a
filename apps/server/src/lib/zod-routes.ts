import { fieldIssueOf } from '@tempora/contracts';
import type {
  FastifyBaseLogger,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
  FastifyTypeProvider,
} from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { z } from 'zod';
import { AppError } from '../errors.ts';

/**
 * Routes' shapes from zod schemas (issue 30): our own small Fastify type provider (zod 4, Fastify
 * 5). A route declares `schema: { params, querystring, body, response }` with schemas from
 * packages/contracts; Fastify checks the input before the handler with the same 400
 * `VALIDATION_FAILED` problem as `parseInput` (validate.ts: one field error per issue), hands the
 * handler the parsed values, checks the answer against its declared schema (tests and
 * development: a mismatch fails the request; production: logged once per route), and
 * `GET /api/docs` describes every route from the same declarations (modules/docs).
 *
 * A part the handler may only read after its access check (so an unauthorised caller still gets
 * 401/403 whatever it sent) is declared `afterAccess(schema)`: Fastify leaves it unchecked, the
 * handler reads it with `checked(request, 'body')` once the caller is known.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends AfterAccess<infer S>
    ? Unchecked<z.output<S>>
    : this['schema'] extends z.ZodType
      ? z.output<this['schema']>
      : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> | Serialized : unknown;
}

declare const serializedJson: unique symbol;
/** An answer already serialized to JSON by the route (a cached body), sent as it is. */
export type Serialized = (string | Buffer) & { readonly [serializedJson]: true };
/** Marks a body the route serialized itself (its content type set to JSON), to be sent unchanged. */
export const serialized = (json: string | Buffer) => json as Serialized;

/** Which request part a schema checks, as `parseInput` names it in its problem. */
type Part = 'params' | 'querystring' | 'body' | 'headers';
const where: Record<Part, string> = {
  params: 'params',
  querystring: 'query',
  body: 'body',
  headers: 'headers',
};

declare const uncheckedValue: unique symbol;
/** A request part not checked yet: read it with `checked()` after the access check. */
export interface Unchecked<T> {
  readonly [uncheckedValue]: T;
}

/** A part's schema, applied by the handler after its access check (see the header). */
export interface AfterAccess<S extends z.ZodType> {
  readonly afterAccess: S;
}

/** Declares a part the handler checks only after the caller's access (see the header). */
export function afterAccess<S extends z.ZodType>(schema: S): AfterAccess<S> {
  return { afterAccess: schema };
}

/** The media types of the answers declared by `fileAnswer` (the docs read them). */
export const fileAnswerTypes = new WeakMap<z.ZodType, readonly string[]>();

/**
 * A file answer (a PDF, a CSV, an XLSX, an image): sent as bytes, so nothing is checked, and
 * documented as a binary body of these media types.
 */
export function fileAnswer(types: readonly string[], description: string): z.ZodType {
  const schema = z.unknown().describe(description);
  fileAnswerTypes.set(schema, types);
  return schema;
}

/** The zod schema a route part declares, whether checked up front or after access. */
export function zodOf(schema: unknown): z.ZodType | undefined {
  if (schema instanceof z.ZodType) return schema;
  if (schema && typeof schema === 'object' && 'afterAccess' in schema)
    return (schema as AfterAccess<z.ZodType>).afterAccess;
  return undefined;
}

/** A missing body reaches validators as `null` (Fastify); the handlers always saw `undefined`. */
const input = (part: string, data: unknown) => (part === 'body' && data === null ? undefined : data);

function parse(schema: z.ZodType, data: unknown, part: string) {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw new AppError(
    400,
    'VALIDATION_FAILED',
    `Invalid ${part}`,
    result.error.issues.map((issue) => fieldIssueOf(issue, part)),
  );
}

/** Fastify's validator compiler for zod schemas: the `parseInput` problem, parsed values handed on. */
export const zodValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const part = where[(httpPart ?? 'body') as Part] ?? String(httpPart);
  if (schema && typeof schema === 'object' && 'afterAccess' in schema)
    return (data: unknown) => ({ value: input(part, data) });
  if (!(schema instanceof z.ZodType))
    throw new Error(`A route's ${part} schema must be a zod schema (lib/zod-routes.ts)`);
  return (data: unknown) => {
    try {
      return { value: parse(schema, input(part, data), part) };
    } catch (error) {
      return { error: error as Error };
    }
  };
};

/**
 * A part declared `afterAccess`, checked now (after the handler's access check): its parsed value,
 * or the 400 problem `parseInput` throws.
 */
export function checked<R extends FastifyRequest, P extends 'params' | 'querystring' | 'body'>(
  request: R,
  part: P,
): R[P extends 'querystring' ? 'query' : P] extends Unchecked<infer T> ? T : never {
  const declared = zodOf((request.routeOptions.schema as Record<string, unknown> | undefined)?.[part]);
  if (!declared) throw new Error(`${request.routeOptions.url} declares no ${part} schema`);
  const key = part === 'querystring' ? 'query' : part;
  return parse(
    declared,
    input(part, (request as unknown as Record<string, unknown>)[key]),
    where[part],
  ) as never;
}

/**
 * Fastify's serializer compiler for declared answers. The answer is sent exactly as the handler
 * made it (JSON), after checking its wire form against the schema: a mismatch throws when `strict`
 * (tests, development: a 500 that names the route and the fields), else is logged once per route
 * and status (production).
 */
export function zodSerializerCompiler(options: {
  strict: boolean;
  log: () => FastifyBaseLogger;
}): FastifySerializerCompiler<unknown> {
  return ({ schema, method, url, httpStatus }) => {
    const declared = zodOf(schema);
    let logged = false;
    return (data: unknown) => {
      const json = JSON.stringify(data);
      if (!declared) return json;
      const result = declared.safeParse(json === undefined ? undefined : JSON.parse(json));
      if (result.success) return json;
      const issues = result.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ');
      const message = `${method} ${url} answered ${httpStatus} off its declared schema: ${issues}`;
      if (options.strict) throw new Error(message);
      if (!logged) options.log().warn({ route: `${method} ${url}`, status: httpStatus, issues }, message);
      logged = true;
      return json;
    };
  };
}

/** What a route's `schema` may hold besides the parts (used by `/api/docs`). */
declare module 'fastify' {
  interface FastifySchema {
    /** One line on what the route does. */
    summary?: string;
    /**
     * Who may call it, as the access matrix names it (test/routes/route-access.ts, which the docs
     * test holds it to): public, signed-in, party, staff, owner, manager, timekeeper, key.
     */
    access?:
      | 'public'
      | 'signed-in'
      | 'party'
      | 'staff'
      | 'owner'
      | 'manager'
      | 'timekeeper'
      | 'pickup'
      | 'key';
    /**
     * The media types the declared body is read from, when not JSON (the Mollie webhook's form
     * fields): the OpenAPI document lists the body under each (issue 41).
     */
    consumes?: readonly string[];
    /**
     * Rules the route checks that its schemas cannot state (they depend on stored rows, or on
     * other fields), by the field a 400 `VALIDATION_FAILED` names: the OpenAPI operation lists
     * them (`x-rules` and its description), so a body the schema accepts may be refused only for
     * a rule the document says (issue 41; the contract test holds every route to it).
     */
    rules?: Readonly<Record<string, string>>;
  }
}

/** The parts of a route schema, for the docs and the coverage test. */
export function schemaParts(schema: FastifySchema | undefined) {
  const s = (schema ?? {}) as Record<string, unknown>;
  return {
    params: zodOf(s.params),
    querystring: zodOf(s.querystring),
    body: zodOf(s.body),
    response: (s.response ?? undefined) as Record<string, unknown> | undefined,
  };
}
