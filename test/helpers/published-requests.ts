import { createRequire } from 'node:module';

/**
 * What the hosted API accepts, read from the published spec (`@gitbook/api`): which operations
 * exist, and which fields a request body may carry. The hosted API refuses a field its schema
 * does not name, so a client that sent one of our server's extensions without being told it may
 * would fail there; the emulation (hosted-proxy.ts) refuses it the same way.
 */
interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
}
interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

const require = createRequire(import.meta.url);
const spec = require('@gitbook/api/spec/openapi.json') as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const templates = Object.keys(spec.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  // A literal segment wins over a parameter where both match (`/spaces/{id}/content/files` over `.../{fileId}`).
  literal: template.split('/').filter((s) => s !== '' && !s.startsWith('{')).length,
}));

/** The published operation a request reaches (path without `/v1`), or undefined when there is none. */
export function publishedOperation(method: string, path: string): { template: string; operation: Operation } | undefined {
  const found = templates.filter((t) => t.pattern.test(path) && spec.paths[t.template]![method.toLowerCase()] !== undefined);
  found.sort((a, b) => b.literal - a.literal);
  const best = found[0];
  return best ? { template: best.template, operation: spec.paths[best.template]![method.toLowerCase()]! } : undefined;
}

function resolve(schema: Schema): Schema {
  let current = schema;
  while (current.$ref) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = spec.components.schemas[name];
    if (!target) throw new Error(`the published spec has no schema ${current.$ref}`);
    current = { ...target, ...Object.fromEntries(Object.entries(current).filter(([k]) => k !== '$ref')) };
    if (current.$ref === schema.$ref) break;
  }
  return current;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The fields an object may carry under `schema`: each with the schemas of its value, or open to any. */
interface Shape {
  fields: Map<string, Schema[]>;
  open: Schema[] | true | undefined;
  declared: boolean;
}

function shapeOf(
  schema: Schema,
  value: Record<string, unknown>,
  shape: Shape = { fields: new Map(), open: undefined, declared: false },
): Shape {
  const s = resolve(schema);
  if (s.properties) {
    shape.declared = true;
    for (const [name, inner] of Object.entries(s.properties)) shape.fields.set(name, [...(shape.fields.get(name) ?? []), inner]);
  }
  if (s.additionalProperties === true || s.patternProperties) shape.open = true;
  else if (isObject(s.additionalProperties) && shape.open !== true) shape.open = [...(shape.open ?? []), s.additionalProperties];
  if (s.additionalProperties === false) shape.declared = true;
  for (const part of s.allOf ?? []) shapeOf(part, value, shape);
  const choices = s.oneOf ?? s.anyOf;
  if (choices) {
    const chosen = choose(s, choices, value);
    if (chosen) shapeOf(chosen, value, shape);
  }
  return shape;
}

/** The branch of a oneOf the value is meant for: by discriminator, else the one it fits best. */
function choose(parent: Schema, choices: Schema[], value: Record<string, unknown>): Schema | undefined {
  const by = parent.discriminator;
  if (by?.mapping) {
    const ref = by.mapping[String(value[by.propertyName])];
    return ref ? { $ref: ref } : undefined;
  }
  const objects = choices.filter((c) => {
    const r = resolve(c);
    return r.type === undefined || r.type === 'object' || (Array.isArray(r.type) && r.type.includes('object'));
  });
  let best: Schema | undefined;
  let fewest = Infinity;
  for (const choice of objects) {
    const count = unknownFields(value, choice).length;
    if (count < fewest) [best, fewest] = [choice, count];
  }
  return best;
}

/** Paths (`changes[0].linkTitle`) of the fields in `value` that `schema` does not name. */
export function unknownFields(value: unknown, schema: Schema, at = ''): string[] {
  const s = resolve(schema);
  if (Array.isArray(value)) {
    const items = s.items ?? (s.allOf ?? []).map(resolve).find((p) => p.items)?.items;
    return items ? value.flatMap((item, i) => unknownFields(item, items, `${at}[${i}]`)) : [];
  }
  if (!isObject(value)) return [];
  const by = s.discriminator;
  if (by?.mapping && (s.oneOf ?? s.anyOf) && by.mapping[String(value[by.propertyName])] === undefined) {
    return [`${at ? `${at}.` : ''}${by.propertyName} (${JSON.stringify(value[by.propertyName])})`];
  }
  const shape = shapeOf(s, value);
  const out: string[] = [];
  for (const [name, inner] of Object.entries(value)) {
    const where = at ? `${at}.${name}` : name;
    const schemas = shape.fields.get(name) ?? (Array.isArray(shape.open) ? shape.open : undefined);
    if (schemas) {
      // A field named by several parts (allOf) is known if any part's schema knows what it holds.
      const per = schemas.map((inner2) => unknownFields(inner, inner2, where));
      out.push(...per.reduce((a, b) => (b.length < a.length ? b : a)));
    } else if (shape.open !== true && shape.declared) {
      out.push(where);
    }
  }
  return out;
}

/** The unknown fields of a JSON request body sent to a published operation (none when the body is not JSON). */
export function unknownBodyFields(operation: Operation, body: unknown): string[] {
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  return schema ? unknownFields(body, schema) : [];
}
