import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergeOrder, mergeTrees } from '../../src/content/merge/merge-tree.js';
import { findPage, indexPages } from '../../src/content/tree/page-tree.js';
import type { ContentTree, TreePage } from '../../src/model/index.js';
import { applyEdits, docs, editArb, pageIds, treeArb } from './tree-arbitraries.js';

const edits = fc.array(editArb, { maxLength: 6 });

describe('mergeTrees properties', () => {
  it('merging a change request into an unchanged main gives the change request tree', () => {
    fc.assert(
      fc.property(treeArb, edits, (base, e) => {
        const cr = applyEdits(base, e);
        expect(mergeTrees(base, base, cr, docs)).toEqual({ kind: 'clean', tree: cr });
        expect(mergeTrees(base, cr, base, docs)).toEqual({ kind: 'clean', tree: cr });
      }),
      { numRuns: 200 },
    );
  });

  it('is symmetric when clean, and loses or duplicates no page', () => {
    fc.assert(
      fc.property(treeArb, edits, edits, (base, e1, e2) => {
        const ours = applyEdits(base, e1);
        const theirs = applyEdits(base, e2);
        const ab = mergeTrees(base, ours, theirs, docs);
        const ba = mergeTrees(base, theirs, ours, docs);
        expect(ab.kind).toBe(ba.kind);
        if (ab.kind !== 'clean' || ba.kind !== 'clean') return;
        expect(ab.tree).toEqual(ba.tree);
        const ids = pageIds(ab.tree);
        expect(new Set(ids).size).toBe(ids.length);
        const baseIds = new Set(pageIds(base));
        const oursIds = new Set(pageIds(ours));
        const theirsIds = new Set(pageIds(theirs));
        for (const id of new Set([...oursIds, ...theirsIds])) {
          const deletedByOne = baseIds.has(id) && (!oursIds.has(id) || !theirsIds.has(id));
          expect(ids.includes(id)).toBe(!deletedByOne);
        }
      }),
      { numRuns: 300 },
    );
  });
});

const page = (id: string, extra: Partial<TreePage> = {}): TreePage => ({
  id,
  type: 'document',
  title: id.toUpperCase(),
  slug: id,
  pages: [],
  ...extra,
});
const tree = (pages: TreePage[], variables: ContentTree['variables'] = {}): ContentTree => ({
  pages,
  files: [],
  variables,
  reusableContents: [],
});

describe('mergeTrees cases', () => {
  const base = tree([page('a', { document: 'd:one\ntwo\nthree\n' }), page('b', { pages: [page('c')] }), page('d')]);

  it('merges front matter as written line by line, and leaves it out where both sides changed one line', () => {
    const fm = (description: string, icon: string) => `description: ${description}\nkept: true\nicon: ${icon}\n`;
    const at = (frontMatter: string, description: string, icon: string) => tree([page('a', { frontMatter, description, icon })]);
    const result = mergeTrees(at(fm('d', 'i'), 'd', 'i'), at(fm('D', 'i'), 'D', 'i'), at(fm('d', 'I'), 'd', 'I'), docs);
    expect(result).toEqual({ kind: 'clean', tree: at(fm('D', 'I'), 'D', 'I') });
    const both = mergeTrees(
      at(fm('d', 'i'), 'd', 'i'),
      at('description: d\nkept: true\nicon: i # theirs\n', 'd', 'i'),
      at(fm('d', 'i2'), 'd', 'i2'),
      docs,
    );
    expect(both).toEqual({ kind: 'clean', tree: tree([page('a', { description: 'd', icon: 'i2' })]) });
  });

  it('combines an edit on one side with a rename and a move on the other', () => {
    const ours = tree([page('a', { document: 'd:ONE\ntwo\nthree\n' }), page('b', { pages: [page('c')] }), page('d')]);
    const theirs = tree([page('a', { document: 'd:one\ntwo\nTHREE\n', title: 'Alpha' }), page('b'), page('d', { pages: [page('c')] })]);
    const result = mergeTrees(base, ours, theirs, docs);
    expect(result.kind).toBe('clean');
    if (result.kind !== 'clean') return;
    expect(findPage(result.tree.pages, 'a')).toMatchObject({ title: 'Alpha', document: 'd:ONE\ntwo\nTHREE\n' });
    expect(indexPages(result.tree.pages).get('c')?.parentId).toBe('d');
  });

  it('reports a page whose same lines both sides changed', () => {
    const ours = tree([page('a', { document: 'd:one\nOURS\nthree\n' }), page('b', { pages: [page('c')] }), page('d')]);
    const theirs = tree([page('a', { document: 'd:one\nTHEIRS\nthree\n' }), page('b', { pages: [page('c')] }), page('d')]);
    expect(mergeTrees(base, ours, theirs, docs)).toEqual({ kind: 'conflict', conflicts: [{ reason: 'document', id: 'a', title: 'A' }] });
  });

  it('reports an edit against a delete, and a field changed two ways', () => {
    const ours = tree([page('a', { document: 'd:edited\n' }), page('b', { pages: [page('c')] }), page('d', { title: 'Dee' })]);
    const theirs = tree([page('b', { pages: [page('c')] }), page('d', { title: 'Delta' })]);
    const result = mergeTrees(base, ours, theirs, docs);
    expect(result).toEqual({
      kind: 'conflict',
      conflicts: [
        { reason: 'edit-delete', id: 'a', title: 'A' },
        { reason: 'metadata', id: 'd', title: 'Dee', fields: ['title'] },
      ],
    });
  });

  // A page edited and then reverted (revert_page keeps the edit's `updatedAt`) holds nothing a
  // deletion would lose: push's adopt-main reverts the pages main's update conflicts on (issue 13).
  it('deletes a page whose only change on the other side is its time (edited, then reverted)', () => {
    const ours = tree([
      page('a', { document: 'd:one\ntwo\nthree\n', updatedAt: '2026-01-02T00:00:00.000Z' }),
      page('b', { pages: [page('c')] }),
      page('d'),
    ]);
    const theirs = tree([page('b', { pages: [page('c')] }), page('d')]);
    for (const [o, t] of [
      [ours, theirs],
      [theirs, ours],
    ] as const) {
      const result = mergeTrees(base, o, t, docs);
      expect(result.kind).toBe('clean');
      if (result.kind === 'clean') expect(findPage(result.tree.pages, 'a')).toBeUndefined();
    }
  });

  it('reports moves to different parents, moves into a deleted page and cycles', () => {
    const moveOurs = tree([page('a', { pages: [page('d')] }), page('b', { pages: [page('c')] })]);
    const moveTheirs = tree([page('a'), page('b', { pages: [page('c'), page('d')] })]);
    const twoParents = mergeTrees(base, moveOurs, moveTheirs, docs);
    expect(twoParents.kind === 'conflict' && twoParents.conflicts.map((c) => c.reason)).toContain('move');

    const deleted = mergeTrees(
      base,
      tree([page('a', { document: 'd:one\ntwo\nthree\n' }), page('b', { pages: [page('c'), page('d')] })]),
      tree([page('a', { document: 'd:one\ntwo\nthree\n' }), page('d')]),
      docs,
    );
    expect(deleted.kind === 'conflict' && deleted.conflicts.map((c) => c.reason)).toContain('deleted-parent');

    const cycleBase = tree([page('x'), page('y')]);
    const cycle = mergeTrees(cycleBase, tree([page('y', { pages: [page('x')] })]), tree([page('x', { pages: [page('y')] })]), docs);
    expect(cycle.kind === 'conflict' && cycle.conflicts.map((c) => c.reason)).toContain('cycle');
  });

  it('reports two new pages with one slug under one parent', () => {
    const ours = tree([...base.pages, page('n1', { slug: 'same' })]);
    const theirs = tree([...base.pages, page('n2', { slug: 'same' })]);
    const result = mergeTrees(base, ours, theirs, docs);
    expect(result.kind === 'conflict' && result.conflicts.map((c) => c.reason)).toEqual(['duplicate-slug']);
  });

  it('merges variables key by key', () => {
    const b = tree([], { a: '1', b: '1' });
    expect(mergeTrees(b, tree([], { a: '2', b: '1' }), tree([], { a: '1', b: 3, c: true }), docs)).toEqual({
      kind: 'clean',
      tree: tree([], { a: '2', b: 3, c: true }),
    });
    expect(mergeTrees(b, tree([], { a: '2', b: '1' }), tree([], { a: '3', b: '1' }), docs)).toMatchObject({ kind: 'conflict' });
  });
});

describe('mergeOrder', () => {
  it('keeps both sides inserts and a one-sided reorder', () => {
    expect(mergeOrder(['a', 'b', 'c'], ['b', 'a', 'c'], ['a', 'b', 'c', 'd'])).toEqual(['b', 'a', 'c', 'd']);
  });
  it('orders two inserts at the same spot the same way whichever side is ours', () => {
    expect(mergeOrder(['a'], ['a', 'x'], ['a', 'y'])).toEqual(mergeOrder(['a'], ['a', 'y'], ['a', 'x']));
  });
  it('drops an item one side removed', () => {
    expect(mergeOrder(['a', 'b', 'c'], ['a', 'c'], ['c', 'b', 'a'])).toEqual(['c', 'a']);
  });
});
