import { cell, oneLine, schemaLines, typeLabel } from './schema-markdown.js';
import { child, entryOf, isObject, str, type Located, type OpenApiFiles } from './spec-files.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface Operation {
  method: HttpMethod;
  path: string;
  operationId?: string;
  /** The operation's first tag; an operation with none is listed under no tag. */
  tag?: string;
  title: string;
  deprecated: boolean;
  /** An OpenAPI 3.1 webhook: `path` is its name in `webhooks`. */
  webhook?: boolean;
  at: Located;
  pathItem: Located;
}

/** Every operation of the spec, in the order of `paths` and of HTTP_METHODS within a path. */
export function listOperations(spec: OpenApiFiles): Operation[] {
  return operationsOf(spec, 'paths');
}

/** Every webhook of an OpenAPI 3.1 spec (`webhooks`: a path item by name), as operations. */
export function listWebhooks(spec: OpenApiFiles): Operation[] {
  return operationsOf(spec, 'webhooks');
}

function operationsOf(spec: OpenApiFiles, key: 'paths' | 'webhooks'): Operation[] {
  const paths = child(spec, entryOf(spec), key);
  if (!paths || !isObject(paths.value)) return [];
  const out: Operation[] = [];
  for (const path of Object.keys(paths.value)) {
    const pathItem = child(spec, paths, path);
    if (!pathItem || !isObject(pathItem.value)) continue;
    for (const method of HTTP_METHODS) {
      const at = child(spec, pathItem, method);
      if (!at || !isObject(at.value)) continue;
      const op = at.value;
      const tag = Array.isArray(op.tags) ? str(op.tags[0]) : undefined;
      const operationId = str(op.operationId);
      out.push({
        method,
        path,
        ...(operationId !== undefined ? { operationId } : {}),
        ...(tag !== undefined ? { tag } : {}),
        title: oneLine(str(op.summary) ?? operationId ?? `${method.toUpperCase()} ${path}`),
        deprecated: op.deprecated === true,
        ...(key === 'webhooks' ? { webhook: true } : {}),
        at,
        pathItem,
      });
    }
  }
  return out;
}

export function findOperation(spec: OpenApiFiles, method: string, path: string): Operation | undefined {
  return listOperations(spec).find((op) => op.method === method.toLowerCase() && op.path === path);
}

export function findWebhook(spec: OpenApiFiles, method: string, name: string): Operation | undefined {
  return listWebhooks(spec).find((op) => op.method === method.toLowerCase() && op.path === name);
}

/** The spec's tags: those of `tags` in their order, then any other an operation names. */
export function listTags(spec: OpenApiFiles, operations: readonly Operation[]): { name: string; description?: string }[] {
  const tags = new Map<string, { name: string; description?: string }>();
  const declared = child(spec, entryOf(spec), 'tags');
  if (declared && Array.isArray(declared.value))
    for (const t of declared.value)
      if (isObject(t) && str(t.name)) {
        const description = str(t.description);
        tags.set(t.name as string, { name: t.name as string, ...(description !== undefined ? { description } : {}) });
      }
  for (const op of operations) if (op.tag !== undefined && !tags.has(op.tag)) tags.set(op.tag, { name: op.tag });
  return [...tags.values()].filter((t) => operations.some((op) => op.tag === t.name));
}

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  type: string;
  description: string;
  schema?: Located;
}

/** Path-level and operation-level parameters, the operation's winning (same name and place). */
function parameters(spec: OpenApiFiles, op: Operation): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const holder of [op.pathItem, op.at]) {
    const list = child(spec, holder, 'parameters');
    if (!list || !Array.isArray(list.value)) continue;
    list.value.forEach((_, i) => {
      const p = child(spec, list, i);
      if (!p || !isObject(p.value) || !str(p.value.name)) return;
      const v = p.value;
      const schema = child(spec, p, 'schema');
      const type = schema ? typeLabel(spec, schema) : str(v.type) ? typeLabel(spec, p) : 'any';
      byKey.set(`${v.in as string}:${v.name as string}`, {
        name: v.name as string,
        in: str(v.in) ?? '',
        required: v.required === true,
        type,
        description: str(v.description) ?? '',
        ...(schema ? { schema } : {}),
      });
    });
  }
  return [...byKey.values()];
}

/** A body's schemas by media type: OpenAPI 3's `content`, or 2.0's `schema` with the spec's `consumes`/`produces`. */
function mediaTypes(spec: OpenApiFiles, at: Located, fallback: string): { type: string; schema?: Located }[] {
  const content = child(spec, at, 'content');
  if (content && isObject(content.value))
    return Object.keys(content.value).map((type) => {
      const media = child(spec, content, type);
      const schema = media ? child(spec, media, 'schema') : undefined;
      return { type, ...(schema ? { schema } : {}) };
    });
  const schema = child(spec, at, 'schema');
  return schema ? [{ type: fallback, schema }] : [];
}

function bodyLines(spec: OpenApiFiles, media: { type: string; schema?: Located }[]): string[] {
  const lines: string[] = [];
  for (const m of media) {
    lines.push('', `\`${m.type}\`${m.schema ? `: ${typeLabel(spec, m.schema)}` : ''}`);
    const listed = m.schema ? schemaLines(spec, m.schema) : [];
    if (listed.length > 0) lines.push('', ...listed);
  }
  return lines;
}

/**
 * One operation as markdown: its method and path, description, parameters (a table), request
 * body and responses (each media type's schema as a list). Deterministic: the same spec gives
 * the same text.
 */
export function operationMarkdown(spec: OpenApiFiles, op: Operation, options: { title?: boolean } = {}): string {
  const v = op.at.value as Record<string, unknown>;
  const lines: string[] = [];
  if (options.title !== false) lines.push(`# ${op.title}`, '');
  lines.push(op.webhook ? `Webhook \`${op.path}\`: \`${op.method.toUpperCase()}\`` : `\`${op.method.toUpperCase()} ${op.path}\``);
  if (op.deprecated)
    lines.push('', `{% hint style="warning" %}\nThis ${op.webhook ? 'webhook' : 'operation'} is deprecated.\n{% endhint %}`);
  const description = str(v.description) ?? (options.title === false ? undefined : undefined);
  if (description !== undefined) lines.push('', description.trim());
  const params = parameters(spec, op).filter((p) => p.in !== 'body');
  if (params.length > 0) {
    lines.push('', '## Parameters', '', '| Name | In | Type | Required | Description |', '| --- | --- | --- | --- | --- |');
    for (const p of params)
      lines.push(`| \`${cell(p.name)}\` | ${p.in} | ${cell(p.type)} | ${p.required ? 'yes' : 'no'} | ${cell(p.description)} |`);
  }
  const entry = entryOf(spec).value as Record<string, unknown>;
  const consumes = Array.isArray(v.consumes) ? v.consumes : Array.isArray(entry.consumes) ? entry.consumes : [];
  const produces = Array.isArray(v.produces) ? v.produces : Array.isArray(entry.produces) ? entry.produces : [];
  const requestBody = child(spec, op.at, 'requestBody');
  const bodyParam = parameters(spec, op).find((p) => p.in === 'body');
  if (requestBody || bodyParam) {
    lines.push('', '## Request body');
    const required = requestBody ? (requestBody.value as Record<string, unknown>).required === true : bodyParam!.required;
    const text = requestBody ? str((requestBody.value as Record<string, unknown>).description) : bodyParam!.description || undefined;
    if (text !== undefined || required) lines.push('', [required ? 'Required.' : '', text ?? ''].filter((x) => x !== '').join(' '));
    const media = requestBody
      ? mediaTypes(spec, requestBody, 'application/json')
      : [{ type: str(consumes[0]) ?? 'application/json', ...(bodyParam!.schema ? { schema: bodyParam!.schema } : {}) }];
    lines.push(...bodyLines(spec, media));
  }
  const responses = child(spec, op.at, 'responses');
  if (responses && isObject(responses.value) && Object.keys(responses.value).length > 0) {
    lines.push('', '## Responses');
    for (const status of Object.keys(responses.value)) {
      const response = child(spec, responses, status);
      if (!response) continue;
      lines.push('', `### ${status}`);
      const text = isObject(response.value) ? str(response.value.description) : undefined;
      if (text !== undefined) lines.push('', oneLine(text));
      lines.push(...bodyLines(spec, mediaTypes(spec, response, str(produces[0]) ?? 'application/json')));
    }
  }
  return `${lines.join('\n')}\n`;
}
