import { Ajv, type ErrorObject } from 'ajv';
import { badRequest } from '../../model/index.js';
import { printCondition } from '../../content/index.js';

/*
 * The visitor claims schema of an adaptive site (published spec `SiteAdaptiveJSONSchema`): a
 * draft-07 JSON Schema of an object whose properties are claims (booleans, strings with an enum,
 * arrays of those, objects of claims), unsigned claims under `unsigned`.
 */

export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

/** A site that never had a schema set answers this one: no claims. */
export const EMPTY_ADAPTIVE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    unsigned: { type: 'object', description: UNSIGNED_DESCRIPTION, properties: {}, additionalProperties: false },
  },
  additionalProperties: false,
};

const claim = (type: string, properties: Record<string, unknown>, required: string[]) => ({
  if: { properties: { type: { const: type } } },
  then: {
    type: 'object',
    required: ['type', 'description', ...required],
    properties: { type: {}, description: { type: 'string' }, ...properties },
    additionalProperties: false,
  },
});

/** The resource's shape as a draft-07 schema; `if`/`then` on `type` so the first error is the right one. */
const SHAPE = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  definitions: {
    primitive: {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['boolean', 'string'] } },
      allOf: [claim('boolean', {}, []), claim('string', { enum: { type: 'array', items: { type: 'string' } } }, ['enum'])],
    },
    claim: {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['boolean', 'string', 'array', 'object'] } },
      allOf: [
        claim('boolean', {}, []),
        claim('string', { enum: { type: 'array', items: { type: 'string' } } }, ['enum']),
        claim('array', { items: { $ref: '#/definitions/primitive' } }, ['items']),
        claim('object', { properties: { $ref: '#/definitions/claims' }, additionalProperties: { const: false } }, [
          'properties',
          'additionalProperties',
        ]),
      ],
    },
    claims: { type: 'object', additionalProperties: { $ref: '#/definitions/claim' } },
  },
  type: 'object',
  required: ['type', 'properties', 'additionalProperties'],
  properties: {
    $schema: { const: 'http://json-schema.org/draft-07/schema#' },
    // The seed lists `$id` among the document's fields.
    $id: { type: 'string' },
    type: { const: 'object' },
    properties: {
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          required: ['type', 'description', 'properties', 'additionalProperties'],
          properties: {
            type: { const: 'object' },
            description: { const: UNSIGNED_DESCRIPTION },
            properties: { $ref: '#/definitions/claims' },
            additionalProperties: { const: false },
          },
          additionalProperties: false,
        },
      },
      additionalProperties: { $ref: '#/definitions/claim' },
    },
    additionalProperties: { const: false },
  },
  additionalProperties: false,
};

const ajv = new Ajv({ strict: false, allErrors: false });
const validateShape = ajv.compile(SHAPE);

const describe = (error: ErrorObject) => {
  const where = `body.jsonSchema${error.instancePath.replace(/\//g, '.')}`;
  if (error.keyword === 'additionalProperties') return `${where} must not have \`${String(error.params.additionalProperty)}\``;
  if (error.keyword === 'const') return `${where} must be ${JSON.stringify(error.params.allowedValue)}`;
  if (error.keyword === 'enum') return `${where} must be one of ${JSON.stringify(error.params.allowedValues)}`;
  return `${where} ${error.message ?? 'is invalid'}`;
};

/** Checks a schema to store: a draft-07 JSON Schema (ajv compiles it) of the resource's shape. */
export function checkAdaptiveSchema(jsonSchema: unknown): void {
  if (!validateShape(jsonSchema)) throw badRequest(describe(validateShape.errors![0]!));
  // The shape admits only well-formed keywords, but the meta-schema has the last word.
  if (!ajv.validateSchema(jsonSchema as object))
    throw badRequest(`body.jsonSchema is not a draft-07 JSON Schema: ${ajv.errorsText(ajv.errors)}`);
}

interface ClaimSchema {
  type?: string;
  description?: string;
  properties?: Record<string, ClaimSchema>;
}

/** One template condition per boolean claim, nested objects included, in the schema's order. */
export function templateConditions(jsonSchema: unknown): { description: string; condition: string }[] {
  const items: { description: string; condition: string }[] = [];
  const walk = (claims: Record<string, ClaimSchema> | undefined, path: string[]) => {
    for (const [name, schema] of Object.entries(claims ?? {})) {
      if (schema.type === 'boolean')
        items.push({ description: schema.description ?? name, condition: printCondition({ type: 'path', path: [...path, name] }) });
      else if (schema.type === 'object') walk(schema.properties, [...path, name]);
    }
  };
  walk((jsonSchema as ClaimSchema).properties, ['visitor', 'claims']);
  return items;
}
