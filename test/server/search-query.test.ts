import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createSpace } from '../helpers/spaces.js';
import { docPage, storeMarkdown, writeTree } from '../helpers/content.js';
import { MAX_TERMS, parseQuery, toFts5, toTsquery } from '../../src/server/search/query.js';
import { excerpt } from '../../src/server/search/excerpt.js';

describe('search query parsing', () => {
  it('keeps only letters, digits and marks in terms, lowercased', () => {
    expect(parseQuery('Hello, "World"!  foo-bar').terms).toEqual(['hello', 'world', 'foo', 'bar']);
    expect(parseQuery('NEAR(a b) OR c*').terms).toEqual(['near', 'a', 'b', 'or', 'c']);
    expect(parseQuery('  ').terms).toEqual([]);
    expect(parseQuery('\u0301 !').terms).toEqual([]);
    expect(parseQuery('x '.repeat(100)).terms).toHaveLength(MAX_TERMS);
  });

  it('quotes every term and makes the last one a prefix', () => {
    expect(toFts5(parseQuery('a b'))).toBe('"a" "b"*');
    expect(toTsquery(parseQuery('a b'))).toBe("'a' & 'b':*");
  });

  it('never lets syntax characters through', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        for (const term of parseQuery(text).terms) {
          expect(term).not.toMatch(/["'\\*:&|!()^\s-]/);
          expect(term).toMatch(/[\p{L}\p{N}]/u);
        }
      }),
    );
  });
});

describe('excerpt', () => {
  it('returns short text whole and cuts long text around the first match', () => {
    expect(excerpt('  short   text ', ['x'])).toBe('short text');
    const long = `${'lorem '.repeat(100)}needle ${'ipsum '.repeat(100)}`;
    const cut = excerpt(long, ['needle'], 80);
    expect(cut).toContain('needle');
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(82);
    expect(excerpt(long, ['absent'], 80).startsWith('lorem')).toBe(true);
  });

  it('never splits a surrogate pair and stays within bounds', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 400 }),
        fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
        (body, terms) => {
          const out = excerpt(
            body,
            terms.map((t) => t.toLowerCase()),
            50,
          );
          expect(out.length).toBeLessThanOrEqual(52);
          expect(out).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
        },
      ),
    );
  });
});

describe.each(testDialects())('search never fails on user text (%s)', (dialect) => {
  let s: TestServer;
  let spaceId: string;
  beforeAll(async () => {
    s = await startServer(dialect);
    spaceId = (await createSpace(s)).id;
    const doc = await storeMarkdown(s, '# Title\n\nSome "quoted" text with it\'s apostrophes and back\\slashes & symbols.\n');
    await writeTree(s, { spaceId }, { pages: [docPage('p', 'Page', { document: doc })], files: [], variables: {}, reusableContents: [] });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers 200 for any query of 1 to 512 characters', async () => {
    const syntax = fc.constantFrom(
      '"',
      "'",
      '\\',
      '*',
      ':',
      '(',
      ')',
      '&',
      '|',
      '!',
      '^',
      '-',
      '+',
      'NEAR',
      'AND',
      'OR',
      'NOT',
      '<->',
      ' ',
      '\u0000'.slice(1),
    );
    const text = fc
      .oneof(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 512 }),
        fc.array(fc.oneof(syntax, fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 40 }).map((parts) => parts.join('')),
      )
      .filter((t) => t.length >= 1 && t.length <= 512 && !t.includes('\u0000'));
    await fc.assert(
      fc.asyncProperty(text, async (query) => {
        const res = await s.request('GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}`);
        expect(res.status, `${JSON.stringify(query)}: ${JSON.stringify(res.body)}`).toBe(200);
        const org = await s.request('GET', `/v1/orgs/${s.orgId}/search?query=${encodeURIComponent(query)}`);
        expect(org.status, `${JSON.stringify(query)}: ${JSON.stringify(org.body)}`).toBe(200);
      }),
      { numRuns: 150 },
    );
  });
});
