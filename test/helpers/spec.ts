import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { EMOJI_PATTERN } from '../../src/model/index.js';

/**
 * Validates our 2xx answers against the response schema the published spec (`@gitbook/api`)
 * declares for the same operation, fields the seeds never mention included.
 */
const require = createRequire(import.meta.url);
const spec = require('@gitbook/api/spec/openapi.json') as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
};

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
const emoji = new RegExp(EMOJI_PATTERN, 'u');
ajv.addFormat('emoji', (value: string) => emoji.test(value));
ajv.addFormat('int32', true);
ajv.addFormat('int64', true);
ajv.addFormat('double', true);
ajv.addFormat('float', true);
ajv.addFormat('markdown', true);
ajv.addSchema({ ...(spec as object), $id: 'spec' });

const pointerEscape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** True when the published spec has this operation (path without `/v1`, e.g. `/spaces/{spaceId}`). */
export function specHasOperation(method: string, path: string): boolean {
  return spec.paths[path]?.[method.toLowerCase()] !== undefined;
}

/** Throws with every schema violation listed when `body` does not match the spec's response. */
export function assertMatchesSpec(method: string, path: string, status: number, body: unknown): void {
  const operation = spec.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the published spec has no ${method} ${path}`);
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`the published spec declares no ${status} answer for ${method} ${path}`);
  if (!response.content) {
    if (body !== undefined && body !== '') throw new Error(`${method} ${path} ${status} must have no body`);
    return;
  }
  const ref = `spec#/paths/${pointerEscape(path)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(body)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    throw new Error(`${method} ${path} ${status} does not match the published spec:\n${problems.join('\n')}`);
  }
}
