import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fileAnswer, type ZodTypeProvider } from '../../lib/zod-routes.ts';
import { type DocumentedRoute, type JsonSchema, moduleOf, openApiDocument } from './openapi.ts';

const html = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** A JSON Schema as a short TypeScript-like line (`{ eventId: string; limit?: integer }`). */
export function typeText(schema: JsonSchema | undefined, depth = 0): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (depth > 6) return '…';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() as string;
  const next = (s: unknown) => typeText(s as JsonSchema, depth + 1);
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return alternatives.map(next).join(' | ');
  if (schema.allOf) return (schema.allOf as JsonSchema[]).map(next).join(' & ');
  if ('const' in schema) return JSON.stringify(schema.const);
  if (schema.enum) return (schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => next({ ...schema, type: t })).join(' | ');
  const bounds = (min: unknown, max: unknown) =>
    min === undefined && max === undefined ? '' : ` (${min ?? ''}–${max ?? ''})`;
  switch (type) {
    case 'string':
      return `string${schema.format ? ` <${schema.format}>` : ''}${bounds(schema.minLength, schema.maxLength)}`;
    case 'number':
    case 'integer':
      return `${type}${bounds(schema.minimum, schema.maximum)}`;
    case 'array':
      return schema.prefixItems
        ? `[${(schema.prefixItems as JsonSchema[]).map(next).join(', ')}]`
        : `${next(schema.items)}[]${bounds(schema.minItems, schema.maxItems)}`;
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      const fields = Object.entries(properties).map(
        ([name, p]) => `${name}${required.has(name) ? '' : '?'}: ${next(p)}`,
      );
      const extra = schema.additionalProperties;
      if (extra && typeof extra === 'object') fields.push(`[key: string]: ${next(extra)}`);
      return fields.length ? `{ ${fields.join('; ')} }` : '{}';
    }
    default:
      return String(type ?? 'any');
  }
}

function page(document: ReturnType<typeof openApiDocument>, undocumented: DocumentedRoute[]) {
  const groups = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(operations as Record<string, Record<string, unknown>>)) {
      const tag = (op.tags as string[])[0] as string;
      const parameters = op.parameters as {
        name: string;
        in: string;
        required: boolean;
        schema: JsonSchema;
      }[];
      const row = (label: string, text: string) =>
        `<tr><th scope="row">${label}</th><td><code>${html(text)}</code></td></tr>`;
      const params = (where: string) => {
        const list = parameters.filter((p) => p.in === where);
        return list.length
          ? `{ ${list.map((p) => `${p.name}${p.required ? '' : '?'}: ${typeText(p.schema)}`).join('; ')} }`
          : '';
      };
      const body = Object.values(
        (op.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined)?.content ?? {},
      )[0]?.schema;
      const responses = Object.entries(op.responses as Record<string, Record<string, unknown>>)
        .filter(([status]) => status !== 'default')
        .map(([status, r]) => {
          const schema = (r.content as Record<string, { schema: JsonSchema }> | undefined)?.[
            'application/json'
          ]?.schema;
          return row(`${status}`, schema ? typeText(schema) : String(r.description));
        });
      const rows = [
        row('auth', String(op['x-access'] ?? 'see route')),
        params('path') && row('params', params('path')),
        params('query') && row('query', params('query')),
        body && row('body', typeText(body)),
        ...responses,
      ].filter(Boolean);
      const id = `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-');
      const entry = `<section class="route" id="${id}"><h3><span class="method">${method.toUpperCase()}</span> <code>${html(path)}</code></h3>${
        op.summary ? `<p>${html(String(op.summary))}</p>` : ''
      }<table>${rows.join('')}</table></section>`;
      groups.set(tag, [...(groups.get(tag) ?? []), entry]);
    }
  }
  const modules = [...groups.keys()].sort();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tempora API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem;color:#1a1a1a}
h1{margin-bottom:.25rem}nav ul{columns:14rem;padding-left:1.2rem}
.route{border-top:1px solid #ccc;padding:.5rem 0}.route h3{font-size:1rem;margin:.25rem 0}
.method{display:inline-block;min-width:4.5rem;font-weight:700;color:#064}
table{border-collapse:collapse;width:100%}th{text-align:left;vertical-align:top;width:6rem;color:#555;font-weight:600;padding:.15rem .5rem .15rem 0}
td code{white-space:pre-wrap;word-break:break-word;font-size:.85rem}
</style></head><body>
<header><h1>Tempora API reference</h1>
<p>Generated from the zod schemas every route declares (packages/contracts). Machine-readable:
<a href="/api/docs/openapi.json">OpenAPI 3.1 document</a>. Errors are <code>application/problem+json</code> with a stable <code>code</code>;
a 400 <code>VALIDATION_FAILED</code> lists every bad field. Signed-in routes take <code>Authorization: Bearer &lt;ID token&gt;</code>.</p></header>
<nav aria-label="Modules"><ul>${modules.map((m) => `<li><a href="#module-${html(m.replace(/\W+/g, '-'))}">${html(m)}</a></li>`).join('')}</ul></nav>
<main>${modules
    .map(
      (m) =>
        `<section aria-labelledby="module-${html(m.replace(/\W+/g, '-'))}"><h2 id="module-${html(m.replace(/\W+/g, '-'))}">${html(m)}</h2>${(groups.get(m) ?? []).join('')}</section>`,
    )
    .join('')}
${
  undocumented.length
    ? `<section aria-labelledby="undocumented"><h2 id="undocumented">Routes without declared schemas</h2><ul>${undocumented
        .map((r) => `<li><code>${html(`${r.method} ${r.url}`)}</code> (${html(moduleOf(r.url))})</li>`)
        .join('')}</ul></section>`
    : ''
}</main></body></html>`;
}

/** Answered by the HTML and JSON reference routes: an object (any OpenAPI document). */
const openApiAnswer = z.looseObject({
  openapi: z.literal('3.1.0'),
  paths: z.record(z.string(), z.unknown()),
});

/**
 * The API reference (issue 30): `GET /api/docs` (HTML, routes grouped by module) and
 * `GET /api/docs/openapi.json` (OpenAPI 3.1), both built once, after every route is registered,
 * from the schemas the routes declare.
 */
export async function docsRoutes(fastify: FastifyInstance, opts: { routes: () => DocumentedRoute[] }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  let built: { document: ReturnType<typeof openApiDocument>; html: string } | undefined;
  const build = () => {
    if (built) return built;
    const routes = opts.routes();
    const document = openApiDocument(routes, { version: '0.1.0' });
    built = {
      document,
      html: page(
        document,
        routes.filter((r) => !r.schema),
      ),
    };
    return built;
  };
  app.get(
    '/api/docs',
    {
      schema: {
        summary: 'This reference, as an HTML page',
        access: 'public',
        response: { 200: fileAnswer(['text/html'], 'An HTML page') },
      },
    },
    async (_request, reply) => reply.type('text/html; charset=utf-8').send(build().html),
  );
  app.get(
    '/api/docs/openapi.json',
    {
      schema: {
        summary: 'The OpenAPI 3.1 document of every route',
        access: 'public',
        response: { 200: openApiAnswer },
      },
    },
    async () => build().document,
  );
}
