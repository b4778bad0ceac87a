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

/** A zod schema as JSON Schema: the wire shape (`io: 'input'`: defaults optional, coercions as sent). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    reused: 'inline',
  }) as JsonSchema;
}

/** The module a route belongs to: its first path segment under `/api` (`/api/console/…` → console). */
export function moduleOf(url: string): string {
  if (url.startsWith('/apps/')) return 'realtime (Pusher HTTP API)';
  const [, first, second] = url.split('/');
  if (first !== 'api') return 'web';
  return second || 'api';
}

/** `/api/x/:id` → `/api/x/{id}` (OpenAPI's path templates). */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{wildcard}');

/** Properties of an object schema, as OpenAPI parameters. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = jsonSchemaOf(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

/** The OpenAPI 3.1 document of every route that declares its schemas. */
export function openApiDocument(routes: DocumentedRoute[], info: { version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
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
            ? { content: { 'application/json': { schema: jsonSchemaOf(schema) } } }
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
      ...(route.schema.access ? { 'x-access': route.schema.access } : {}),
      parameters: [...parameters(parts.params, 'path'), ...parameters(parts.querystring, 'query')],
      ...(parts.body
        ? {
            requestBody: {
              required: !parts.body.safeParse(undefined).success,
              content: { 'application/json': { schema: jsonSchemaOf(parts.body) } },
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
