import { describe, expect, it } from 'vitest';
import { assertMatchesSpec, specHasOperation } from './spec.js';

// The conformance checks of every server test lean on this helper: prove it rejects.
describe('published spec validator', () => {
  const user = { object: 'user', id: 'u1', displayName: 'Ada', urls: { location: 'https://x.test/v1/users/u1' } };

  it('accepts a body that matches the operation response', () => {
    expect(() => assertMatchesSpec('GET', '/user', 200, user)).not.toThrow();
  });

  it('rejects a body missing a required field', () => {
    const { displayName: _, ...missing } = user;
    expect(() => assertMatchesSpec('GET', '/user', 200, missing)).toThrow(/displayName/);
  });

  it('rejects a field of the wrong type or format', () => {
    expect(() => assertMatchesSpec('GET', '/user', 200, { ...user, urls: { location: 'not a uri' } })).toThrow(/format/);
  });

  it('rejects an undeclared operation or status', () => {
    expect(specHasOperation('GET', '/user')).toBe(true);
    expect(specHasOperation('GET', '/no/such/path')).toBe(false);
    expect(() => assertMatchesSpec('GET', '/no/such/path', 200, {})).toThrow(/no GET/);
    expect(() => assertMatchesSpec('GET', '/user', 299, user)).toThrow(/declares no 299/);
  });
});
