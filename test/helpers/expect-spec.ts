import { expect } from 'vitest';
import type { ApiResponse } from './server.js';
import { assertMatchesSpec } from './spec.js';

/** Asserts the status, then that the body matches the published spec's schema for the operation. */
export function expectSpec(res: ApiResponse, method: string, specPath: string, status: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  assertMatchesSpec(method, specPath, status, res.body);
}

/** Asserts an error answer: the status, the `{error: {code, message}}` body, and a message fragment. */
export function expectError(res: ApiResponse, status: number, messageIncludes?: string | RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({ error: { code: status, message: expect.any(String) } });
  if (messageIncludes !== undefined) expect(res.body.error.message).toMatch(messageIncludes);
}
