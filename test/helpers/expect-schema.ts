import { expect } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

/**
 * For answers whose resource the published spec does not have (the seed's own, such as
 * `translation-settings`): the status, then the body against our schema of that resource.
 */
export function expectSchema(res: { status: number; body: unknown }, status: number, schema: TSchema): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const validate = ajv.compile(schema);
  expect(validate(res.body) ? [] : validate.errors?.map((e) => `${e.instancePath} ${e.message ?? ''}`)).toEqual([]);
}
