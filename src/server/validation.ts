import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { EMOJI_PATTERN } from '../model/index.js';

const emoji = new RegExp(EMOJI_PATTERN, 'u');

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true, removeAdditional: false, ...options });
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
