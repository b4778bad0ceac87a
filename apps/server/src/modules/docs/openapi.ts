import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import { fileAnswerTypes, schemaParts } from '../../lib/zod-routes.ts';

/** One registered route and what it declares (collected by app.ts's onRoute hook). */
export interface DocumentedRoute {
  method: string;
  url: string;
  schema?: FastifySchema;
}

/** A JSON Schema (draft 2020-12, what OpenAPI 3.1 uses). */
export type JsonSchema = Record<string, unknown>;

/**
 * The formats JSON Schema 2020-12 and OpenAPI 3.1 define (issue 41: zod writes `starts_with`,
 * `ends_with`, `includes`… for string checks, formats no validator knows; their `pattern` says
 * the rule, so the unknown format is dropped).
 */
const KNOWN_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
  'int32',
  'int64',
  'float',
  'double',
  'byte',
  'binary',
  'password',
]);

/** A zod schema as JSON Schema: the wire shape (`io: 'input'`: defaults optional, coercions as sent). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    reused: 'inline',
    override: ({ zodSchema, jsonSchema }) => {
      if (typeof jsonSchema.format === 'string' && !KNOWN_FORMATS.has(jsonSchema.format))
        delete jsonSchema.format;
      const rules = refinements(zodSchema as unknown as ZodInternals);
      if (rules.length) {
        jsonSchema['x-refined'] = rules;
        const said = typeof jsonSchema.description === 'string' ? `${jsonSchema.description} ` : '';
        jsonSchema.description = `${said}Checked by the server beyond this schema: ${rules.join('; ')}.`;
      }
    },
  }) as JsonSchema;
}

/** What the override reads of a zod schema (zod 4's internals: its checks, or a pipe's sides). */
interface ZodInternals {
  _zod: { def: { type: string; checks?: { _zod: { def: { check: string; error?: unknown } } }[] } };
}

/**
 * The rules a zod schema checks that JSON Schema cannot state (issue 41: refinements, and values
 * read through a transform, such as a comma-separated list): the document names them as
 * `x-refined` and in the description, so a client knows a value the schema accepts may still be
 * refused, and why.
 */
function refinements(schema: ZodInternals): string[] {
  const def = schema._zod?.def;
  if (!def) return [];
  const rules = (def.checks ?? [])
    .filter((c) => c._zod.def.check === 'custom')
    .map((c) => {
      const error = c._zod.def.error;
      const message = typeof error === 'function' ? (error as (i: object) => unknown)({}) : error;
      return typeof message === 'string' ? message : 'a rule across its fields';
    });
  if (def.type === 'pipe') rules.push('read and checked further by the server');
  return [...new Set(rules)];
}

/** Where the document keeps named schemas: a zod schema's `.meta({ id })` lands there. */
const COMPONENT = '#/components/schemas/';

/**
 * A zod schema as it appears inside the OpenAPI document. Named schemas (`.meta({ id })`, the
 * recursive CMS tree) move to `components.schemas` and are referred to there: inside an OpenAPI
 * document `#` is the whole document, so the `#/$defs/…` and `#` references zod writes for a
 * standalone schema would point at the wrong place (issue 41).
 */
function embedded(schema: z.ZodType, components: Record<string, JsonSchema>): JsonSchema {
  const {
    $schema: _dialect,
    $defs,
    ...json
  } = jsonSchemaOf(schema) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        if (k !== '$ref' || typeof v !== 'string') return [k, rewrite(v)];
        if (v === '#') throw new Error('A recursive schema needs a name: give it `.meta({ id })`');
        return [k, v.replace(/^#\/\$defs\//, COMPONENT)];
      }),
    );
  };
  for (const [name, def] of Object.entries($defs ?? {})) components[name] = rewrite(def) as JsonSchema;
  return rewrite(json) as JsonSchema;
}

/** The module a route belongs to: its first path segment under `/api` (`/api/console/…` → console). */
export function moduleOf(url: string): string {
  if (url.startsWith('/apps/')) return 'realtime (Pusher HTTP API)';
  if (url === '/metrics') return 'metrics';
  const [, first, second] = url.split('/');
  if (first !== 'api') return 'web';
  return second || 'api';
}

/** `/api/x/:id` → `/api/x/{id}` (OpenAPI's path templates). */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{wildcard}');

/** Properties of an object schema, as OpenAPI parameters (Fastify's `*` is the path's `{wildcard}`). */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = jsonSchemaOf(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name: where === 'path' && name === '*' ? 'wildcard' : name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

/** The OpenAPI 3.1 document of every route that declares its schemas. */
export function openApiDocument(routes: DocumentedRoute[], info: { version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const named: Record<string, JsonSchema> = {};
  for (const route of routes) {
    if (!route.schema) continue;
    const parts = schemaParts(route.schema);
    const responses: Record<string, unknown> = {};
    for (const [status, declared] of Object.entries(parts.response ?? {})) {
      const schema = declared instanceof z.ZodType ? declared : undefined;
      const empty = schema instanceof z.ZodVoid || schema instanceof z.ZodUndefined || status === '204';
      const files = schema && fileAnswerTypes.get(schema);
      responses[status] = {
        description: schema?.description ?? (empty ? 'No content' : 'Answer'),
        ...(files
          ? {
              content: Object.fromEntries(
                files.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
              ),
            }
          : schema && !empty
            ? { content: { 'application/json': { schema: embedded(schema, named) } } }
            : {}),
      };
    }
    responses.default = {
      description: 'An error: problem+json (RFC 9457) with a stable `code`',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
    const operation: Record<string, unknown> = {
      tags: [moduleOf(route.url)],
      ...(route.schema.summary ? { summary: route.schema.summary } : {}),
      ...(route.schema.rules
        ? {
            description: `Also checked (400 VALIDATION_FAILED naming the field): ${Object.entries(
              route.schema.rules,
            )
              .map(([field, rule]) => `\`${field}\`: ${rule}`)
              .join('; ')}.`,
            'x-rules': route.schema.rules,
          }
        : {}),
      ...(route.schema.access ? { 'x-access': route.schema.access } : {}),
      parameters: [...parameters(parts.params, 'path'), ...parameters(parts.querystring, 'query')],
      ...(parts.body
        ? {
            requestBody: {
              required: !parts.body.safeParse(undefined).success,
              content: Object.fromEntries(
                (route.schema.consumes ?? ['application/json']).map((type) => [
                  type,
                  { schema: embedded(parts.body as z.ZodType, named) },
                ]),
              ),
            },
          }
        : {}),
      responses,
    };
    const path = openApiPath(route.url);
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Tempora API',
      version: info.version,
      description:
        'Every route of the Tempora server, generated from the zod schemas the routes declare (packages/contracts). ' +
        'Errors are problem+json; a 400 `VALIDATION_FAILED` names every bad field (`errors: [{ field, code, params, message }]`). ' +
        'Signed-in routes take `Authorization: Bearer <ID token>`.',
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        ...named,
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            code: { type: 'string' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['field', 'message'],
                properties: {
                  field: { type: 'string' },
                  code: { type: 'string' },
                  params: { type: 'object' },
                  message: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
    paths,
  };
}
