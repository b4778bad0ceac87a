import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createGeneratorSync } from 'json-schema-faker';

/**
 * The contract test's parts (issue 41, what Schemathesis does, written with maintained parts):
 * requests generated from the OpenAPI document's schemas (json-schema-faker, seeded), answers
 * checked against the document (Ajv 2020 with ajv-formats). Generic: it reads nothing but the
 * document, so a route added later is covered as soon as it declares its schemas.
 */

type Json = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document the test reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}
export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Json;
}
export interface Operation {
  /** Rules of the route the schemas cannot state, by the field they name (issue 41). */
  'x-rules'?: Record<string, string>;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}

/** A schema made standalone: the document's named schemas as its `$defs`. */
export function standalone(document: OpenApiDocument, schema: Json): Json {
  const text = JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/');
  const defs = JSON.parse(
    JSON.stringify(document.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'),
  );
  return { ...JSON.parse(text), $defs: defs };
}

/** Checks values against the document's schemas (compiled once each). */
export function validators(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  // ajv-formats is CommonJS: its function is the module or its `default`, depending on the loader.
  const plugin = (addFormats as unknown as { default?: typeof addFormats }).default ?? addFormats;
  // `full`: the RFC's grammar for `uri`, `date`… (the default `fast` mode let `https://h2>d` pass).
  plugin(ajv, { mode: 'full' });
  const compiled = new WeakMap<Json, ValidateFunction>();
  return (schema: Json, value: unknown): string | null => {
    let check = compiled.get(schema);
    if (!check) {
      check = ajv.compile(standalone(document, schema));
      compiled.set(schema, check);
    }
    if (check(value)) return null;
    return (check.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '(root)'} ${e.message}`)
      .join('; ');
  };
}

/** Values generated from schemas, the same for the same seed. */
export function generator(document: OpenApiDocument, seed: number) {
  const faker = createGeneratorSync({
    seed,
    optionalsProbability: 0.5,
    maxDepth: 4,
    maxItems: 3,
    maxLength: 40,
  });
  return (schema: Json): unknown => faker.generate(standalone(document, schema) as never);
}

/** Whether an answer's media type is one of the documented ones (`image/*` ranges included). */
export function mediaTypeDocumented(actual: string, documented: string[]): boolean {
  const base = (t: string) => t.split(';')[0]!.trim().toLowerCase();
  const type = base(actual);
  return documented.map(base).some((d) => {
    if (d === type || d === '*/*') return true;
    return d.endsWith('/*') && type.startsWith(d.slice(0, -1));
  });
}

/** mulberry32: a small seeded PRNG (choices of parameters and callers). */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T };
}

/**
 * Whether a refusal of a request the document accepts is one it announces: each field the 400
 * names (`placements.0.key` → `placements`) has a rule the document states beside the schema —
 * the operation's `x-rules`, or `x-refined` on the part, on the field or on the object holding it
 * (a zod refinement, a value read through a transform).
 */
export function refusalAnnounced(op: Operation, fields: string[]): boolean {
  const parts: Json[] = [
    ...(op.parameters ?? []).map((p) => ({ type: 'object', properties: { [p.name]: p.schema } })),
    ...Object.values(op.requestBody?.content ?? {}).map((m) => m.schema),
  ];
  return fields.every((field) => {
    const top = field.split('.')[0] as string;
    if (op['x-rules']?.[top] || op['x-rules']?.[field]) return true;
    return parts.some((part) => {
      if (part['x-refined']) return true;
      // The whole body refused (a rule across its fields): a refinement anywhere in it says so.
      if (top === 'body' || top === '') return JSON.stringify(part).includes('"x-refined"');
      const property = (part.properties as Record<string, Json> | undefined)?.[top];
      return Boolean(property && JSON.stringify(property).includes('"x-refined"'));
    });
  });
}
