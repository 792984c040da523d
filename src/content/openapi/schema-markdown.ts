import { child, isObject, resolve, str, type Located, type OpenApiFiles } from './spec-files.js';

/** How deep nested properties are listed; deeper (and recursive) schemas are named, not expanded. */
const MAX_DEPTH = 5;

/** Text on one line, for a list item or a table cell. */
export const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();
export const cell = (text: string) => oneLine(text).replaceAll('|', '\\|');

/** A schema's type as a reader names it: `string (date-time)`, `array of Pet`, `Pet`. */
export function typeLabel(spec: OpenApiFiles, at: Located): string {
  const s = at.value;
  if (!isObject(s)) return 'any';
  if (s.type === 'array') {
    const items = child(spec, at, 'items');
    return `array of ${items ? typeLabel(spec, items) : 'any'}`;
  }
  if (at.name !== undefined && /^[A-Za-z_][\w.-]*$/.test(at.name) && (s.type === 'object' || s.properties || s.allOf)) return at.name;
  const type = Array.isArray(s.type)
    ? s.type.join(' | ')
    : (str(s.type) ?? (s.properties || s.allOf ? 'object' : s.oneOf ? 'one of' : s.anyOf ? 'any of' : 'any'));
  return str(s.format) ? `${type} (${s.format as string})` : type;
}

/** Properties of an object schema, `allOf` parts merged in order. */
function properties(spec: OpenApiFiles, at: Located): { name: string; schema: Located; required: boolean }[] {
  const out: { name: string; schema: Located; required: boolean }[] = [];
  const visit = (loc: Located, depth: number) => {
    const s = loc.value;
    if (!isObject(s) || depth > 10) return;
    const allOf = child(spec, loc, 'allOf');
    if (allOf && Array.isArray(allOf.value))
      allOf.value.forEach((_, i) => {
        const part = child(spec, allOf, i);
        if (part) visit(part, depth + 1);
      });
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    const props = child(spec, loc, 'properties');
    if (props && isObject(props.value))
      for (const name of Object.keys(props.value)) {
        const schema = child(spec, props, name);
        if (schema && !out.some((p) => p.name === name)) out.push({ name, schema, required: required.has(name) });
      }
  };
  visit(at, 0);
  return out;
}

/** The schema an array's items or an object's properties are listed from, if any. */
function expandable(spec: OpenApiFiles, at: Located): Located | undefined {
  const s = at.value;
  if (!isObject(s)) return undefined;
  if (s.type === 'array') {
    const items = child(spec, at, 'items');
    return items ? expandable(spec, items) : undefined;
  }
  return properties(spec, at).length > 0 || Array.isArray(s.oneOf) || Array.isArray(s.anyOf) ? at : undefined;
}

/**
 * A schema as a markdown list: one item per property (name, type, required, description,
 * allowed values), nested properties indented under it. Recursion stops at a schema already
 * being listed and at MAX_DEPTH.
 */
export function schemaLines(spec: OpenApiFiles, at: Located, indent = '', seen: readonly unknown[] = []): string[] {
  const resolved = resolve(spec, at);
  const target = expandable(spec, resolved);
  // Values are the version's parsed objects: one schema is one object however it is reached.
  if (!target || seen.length >= MAX_DEPTH || seen.includes(target.value)) return [];
  const nextSeen = [...seen, target.value];
  const lines: string[] = [];
  for (const variantKey of ['oneOf', 'anyOf'] as const) {
    const variants = child(spec, target, variantKey);
    if (!variants || !Array.isArray(variants.value)) continue;
    lines.push(`${indent}- ${variantKey === 'oneOf' ? 'One of' : 'Any of'}:`);
    variants.value.forEach((_, i) => {
      const variant = child(spec, variants, i)!;
      lines.push(`${indent}  - ${typeLabel(spec, variant)}${describe(variant)}`);
      lines.push(...schemaLines(spec, variant, `${indent}    `, nextSeen));
    });
  }
  for (const p of properties(spec, target)) {
    lines.push(`${indent}- \`${p.name}\` (${typeLabel(spec, p.schema)}${p.required ? ', required' : ''})${describe(p.schema)}`);
    lines.push(...schemaLines(spec, p.schema, `${indent}  `, nextSeen));
  }
  return lines;
}

/** `: description. Allowed: `a`, `b`. Default: `x`.` of a schema, '' when it says nothing. */
function describe(at: Located): string {
  const s = at.value;
  if (!isObject(s)) return '';
  const parts: string[] = [];
  if (str(s.description)) parts.push(oneLine(s.description as string));
  if (Array.isArray(s.enum)) parts.push(`Allowed: ${s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}.`);
  if (s.default !== undefined) parts.push(`Default: \`${JSON.stringify(s.default)}\`.`);
  if (s.deprecated === true) parts.push('Deprecated.');
  return parts.length > 0 ? `: ${parts.join(' ')}` : '';
}

/** The named schemas of a spec: `components.schemas` (OpenAPI 3) or `definitions` (2.0). */
export function namedSchemas(spec: OpenApiFiles): Map<string, Located> {
  const entry: Located = { value: spec.files[spec.entry], file: spec.entry };
  const holder = child(spec, entry, 'components');
  const schemas = (holder ? child(spec, holder, 'schemas') : undefined) ?? child(spec, entry, 'definitions');
  const out = new Map<string, Located>();
  if (schemas && isObject(schemas.value))
    for (const name of Object.keys(schemas.value)) {
      const at = child(spec, schemas, name);
      if (at) out.set(name, { ...at, name });
    }
  return out;
}

/** The `{% openapi-schemas %}` block and the models page: each schema as a heading and its properties. */
export function schemasMarkdown(spec: OpenApiFiles, names: readonly string[], depth = 2): string {
  const schemas = namedSchemas(spec);
  const hashes = '#'.repeat(depth);
  const parts: string[] = [];
  for (const name of names) {
    const at = schemas.get(name);
    if (!at) {
      parts.push(`${hashes} ${name}\n\nThe spec has no schema \`${name}\`.`);
      continue;
    }
    const lines = schemaLines(spec, at);
    const description = isObject(at.value) && str(at.value.description) ? `${(at.value.description as string).trim()}\n\n` : '';
    parts.push(
      `${hashes} ${name}\n\n${description}Type: ${typeLabel(spec, { value: at.value, file: at.file })}${lines.length > 0 ? `\n\n${lines.join('\n')}` : ''}`,
    );
  }
  return parts.join('\n\n');
}
