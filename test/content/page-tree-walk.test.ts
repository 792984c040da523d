import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countPages, walkPages, walkPlacedPages } from '../../src/content/index.js';

// The one walk of a page tree (issue 12: the sync engine had five of its own), over the three
// shapes it meets: children always there, children optional (the API's pages), none (links).

interface Page {
  id: string;
  type: 'document' | 'group' | 'link';
  pages?: Page[];
}

/** The walk as the copies it replaced wrote it: recursion, parent first. */
function reference(pages: readonly Page[], parent?: string): [string, string | undefined][] {
  return pages.flatMap((page) => [[page.id, parent] as [string, string | undefined], ...reference(page.pages ?? [], page.id)]);
}

let next = 0;
const pageArb: fc.Arbitrary<Page> = fc.letrec<{ page: Page }>((tie) => ({
  page: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null).map((): Page => ({ id: `l${next++}`, type: 'link' })),
    fc
      .record({
        type: fc.constantFrom('document' as const, 'group' as const),
        pages: fc.option(fc.array(tie('page'), { maxLength: 4 }), { nil: undefined }),
      })
      .map(({ type, pages }): Page => ({ id: `p${next++}`, type, ...(pages !== undefined ? { pages } : {}) })),
  ),
})).page;

describe('walkPlacedPages', () => {
  it('meets every page once, in document order, with its parent', () => {
    fc.assert(
      fc.property(fc.array(pageArb, { maxLength: 5 }), (pages) => {
        const walked = Array.from(walkPlacedPages(pages), ({ page, parent }) => [page.id, parent]);
        expect(walked).toEqual(reference(pages));
        expect(Array.from(walkPages(pages), (page) => page.id)).toEqual(walked.map(([id]) => id));
        expect(countPages(pages)).toBe(walked.length);
      }),
    );
  });

  it('walks a tree deeper than the stack allows recursion', () => {
    const root: Page = { id: 'p0', type: 'document', pages: [] };
    let at = root;
    for (let depth = 1; depth < 50_000; depth += 1) {
      const child: Page = { id: `p${depth}`, type: 'document', pages: [] };
      at.pages!.push(child);
      at = child;
    }
    expect(countPages([root])).toBe(50_000);
  });
});
