import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_SLUG_LENGTH, slugProblem, slugify, uniqueSlug } from '../../src/content/tree/slugs.js';

describe('slugProblem', () => {
  it.each([
    ['getting-started', undefined],
    ['', undefined],
    ['a'.repeat(100), undefined],
    ['a'.repeat(101), 'must be at most 100 characters'],
    ['a/b', 'must not contain `/` or `\\`'],
    ['a\\b', 'must not contain `/` or `\\`'],
    ['..', 'must not be `..`'],
    // GitBook's own file names, kept as given.
    ['x..y', undefined],
    ['detox-+-jest', undefined],
    ['v1.2', undefined],
    ['.', 'must not be `.`'],
    ['tab\there', 'must not contain control characters'],
    ['nul\u0000', 'must not contain control characters'],
  ])('%j → %s', (slug, problem) => {
    expect(slugProblem(slug)).toBe(problem);
  });
});

describe('slugify', () => {
  it.each([
    ['Getting Started', 'getting-started'],
    ['Café au lait!', 'cafe-au-lait'],
    ['  --Hello,   World--  ', 'hello-world'],
    ['日本語のページ', '日本語のページ'],
    ['???', 'page'],
  ])('%j → %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('always gives a usable slug', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (title) => {
        const slug = slugify(title);
        expect(slugProblem(slug)).toBeUndefined();
        expect(slug.length).toBeGreaterThan(0);
        expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
      }),
    );
  });
});

describe('uniqueSlug', () => {
  it('suffixes until free, staying within the length limit', () => {
    expect(uniqueSlug('intro', new Set())).toBe('intro');
    expect(uniqueSlug('intro', new Set(['intro', 'intro-2']))).toBe('intro-3');
    const long = 'x'.repeat(MAX_SLUG_LENGTH);
    const next = uniqueSlug(long, new Set([long]));
    expect(next).toHaveLength(MAX_SLUG_LENGTH);
    expect(next.endsWith('-2')).toBe(true);
  });
});
