import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { replacePages, walkPages } from '../../src/content/tree/page-tree.js';
import { treeArb } from './tree-arbitraries.js';

describe('replacePages', () => {
  it('changes exactly the named pages and keeps every untouched subtree identical (same objects)', () => {
    fc.assert(
      fc.property(treeArb, fc.nat(), (tree, pick) => {
        const all = [...walkPages(tree.pages)];
        const target = all.length === 0 ? undefined : all[pick % all.length]!;
        const ids = new Set(target ? [target.id] : []);
        const next = replacePages(tree.pages, ids, (page) => ({ ...page, title: 'Changed' }));
        if (!target) {
          expect(next).toBe(tree.pages);
          return;
        }
        const after = [...walkPages(next)];
        expect(after.map((p) => p.id)).toEqual(all.map((p) => p.id));
        for (const [i, page] of after.entries()) {
          const before = all[i]!;
          if (page.id === target.id) expect(page.title).toBe('Changed');
          else expect(page.title).toBe(before.title);
          // A page is a new object only when it or a page below it changed.
          const touched = [...walkPages([before])].some((p) => p.id === target.id);
          if (!touched) expect(page).toBe(before);
        }
      }),
    );
  });
});
