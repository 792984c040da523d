import { describe, expect, it } from 'vitest';
import { apply, ok, page, tree } from '../changes-helpers.js';

const base = () => tree([page('intro', 'introduction'), page('guide', 'guide', { pages: [page('jest', 'jest')] })]);

describe('explicit slugs GitBook writes', () => {
  it('are kept as given on insert_page and update_page', () => {
    const r = ok(
      apply(base(), [
        { operation: 'insert_page', title: 'Detox + Jest', slug: 'detox-+-jest', into: 'guide', document: {} },
        { operation: 'update_page', page: 'jest', slug: 'v1..v2' },
        { operation: 'insert_page', title: 'Notes', slug: 'notes.v2', document: {} },
      ]),
    );
    expect(r.tree.pages[1]!.pages.map((p) => p.slug)).toEqual(['v1..v2', 'detox-+-jest']);
    expect(r.tree.pages[2]!.slug).toBe('notes.v2');
  });

  it('are refused when they would break a path, naming the change', () => {
    for (const [slug, why] of [
      ['..', 'must not be `..`'],
      ['.', 'must not be `.`'],
      ['a/b', 'must not contain `/`'],
      ['a\\b', 'must not contain `/` or `\\`'],
      ['a\tb', 'must not contain control characters'],
    ]) {
      const result = apply(base(), [{ operation: 'update_page', page: 'intro', slug }]);
      expect(result).toMatchObject({ ok: false, index: 0, status: 400 });
      if (!result.ok) expect(result.message).toContain(`changes[0]: slug ${JSON.stringify(slug)} ${why}`);
    }
  });
});
