import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DocsyncError, ERROR_CODES, type ErrorCode } from '../../src/model/index.js';

// The catalogue and docs/api.md drift apart silently unless a test ties them, as fastify's
// test/internals/errors.test.js does for its docs/Reference/Errors.md.
const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
const codes = Object.entries(ERROR_CODES) as [ErrorCode, number][];

/** The rows of the catalogue table in docs/api.md: `| \`code\` | status | ... |`. */
const documented = new Map([...docs.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));

describe('error catalogue', () => {
  it.each(codes)('%s is documented in docs/api.md with status %i', (code, status) => {
    expect(documented.get(code)).toBe(status);
  });

  it('documents no code the catalogue lacks', () => {
    expect([...documented.keys()].sort()).toEqual(codes.map(([code]) => code).sort());
  });

  it.each(codes)('%s has a real HTTP error status (%i)', (_code, status) => {
    expect(Number.isInteger(status)).toBe(true);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(600);
    expect(STATUS_CODES[status]).toBeDefined();
  });

  it('lists every status of the catalogue in the status table', () => {
    for (const status of new Set(Object.values(ERROR_CODES))) {
      expect(docs).toMatch(new RegExp(`^\\| ${status} \\| `, 'm'));
    }
  });

  it('gives each DocsyncError the status of its code', () => {
    for (const [code, status] of codes) {
      const error = new DocsyncError(code, 'x');
      expect(error.status).toBe(status);
      expect(error.code).toBe(code);
      expect(error).toBeInstanceOf(Error);
    }
  });
});
