import { describe, expect, it } from 'vitest';
import { newId } from '../../src/server/util/ids.js';

describe('newId', () => {
  it('is 20 base64url characters and never starts with - or _ (a CLI argument must not look like an option)', () => {
    const ids = Array.from({ length: 20_000 }, newId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{19}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
