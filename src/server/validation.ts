import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { EMOJI_PATTERN } from '../model/index.js';

const emoji = new RegExp(EMOJI_PATTERN, 'u');

function makeAjv(options: Options): Ajv {
  // `discriminator`: a oneOf tagged by a property (the content batch's `operation`) is checked
  // against the named variant only, so the error is that variant's, not "matches no schema".
  const ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true, removeAdditional: false, discriminator: true, ...options });
  addFormats.default(ajv);
  ajv.addFormat('emoji', (value: string) => emoji.test(value));
  return ajv;
}

// Query strings and path parameters arrive as text, so they are coerced ("10" to 10);
// bodies are JSON and must already have the right types: {"title": 5} is a 400, not "5".
const coercing = makeAjv({ coerceTypes: 'array' });
const strictTypes = makeAjv({ coerceTypes: false });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strictTypes : coercing;
  return ajv.compile(schema as object);
};

/**
 * PostgreSQL text cannot hold U+0000, so a NUL that passed the schema would fail in the store as
 * a 500. Rejected here for body, query and path alike, naming the field; SQLite gets the same
 * rule so both dialects answer the same. The walk is iterative: a 10 MiB body can nest deeper
 * than the call stack.
 */
export function findNulCharacter(parts: Record<string, unknown>): string | undefined {
  const stack: [string, unknown][] = Object.entries(parts);
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [path, value] = entry;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([`${path}.${i}`, item]));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return path;
        stack.push([`${path}.${key}`, item]);
      }
    }
  }
  return undefined;
}
