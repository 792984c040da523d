import { describe, expect, it } from 'vitest';
import { mergeTrees } from '../../src/content/merge/merge-tree.js';
import type { ContentTree, TreeFile } from '../../src/model/index.js';
import { docs } from './tree-arbitraries.js';

const file = (id: string, name: string, blob = `b-${id}`): TreeFile => ({ id, name, contentType: 'image/png', size: 1, blob });
const tree = (files: TreeFile[], variables: ContentTree['variables'] = {}): ContentTree => ({
  pages: [],
  files,
  variables,
  reusableContents: [],
});

/** Both directions, since a clean merge must not depend on which side is ours. */
function merge(base: ContentTree, ours: ContentTree, theirs: ContentTree) {
  const ab = mergeTrees(base, ours, theirs, docs);
  const ba = mergeTrees(base, theirs, ours, docs);
  expect(ab.kind).toBe(ba.kind);
  if (ab.kind === 'clean' && ba.kind === 'clean') expect(ab.tree).toEqual(ba.tree);
  return ab;
}

describe('mergeTrees: files', () => {
  const base = tree([file('a', 'a.png'), file('b', 'b.png'), file('c', 'c.png')]);

  it('takes a file replaced on one side (same id, new bytes) and a file deleted on the other', () => {
    const ours = tree([file('a', 'a.png', 'new-a'), file('b', 'b.png'), file('c', 'c.png')]);
    const theirs = tree([file('a', 'a.png'), file('c', 'c.png'), file('d', 'd.png')]);
    expect(merge(base, ours, theirs)).toEqual({
      kind: 'clean',
      tree: tree([file('a', 'a.png', 'new-a'), file('c', 'c.png'), file('d', 'd.png')]),
    });
  });

  it('takes the same replacement made on both sides', () => {
    const both = tree([file('a', 'a.png', 'same'), file('b', 'b.png'), file('c', 'c.png')]);
    expect(merge(base, both, both)).toEqual({ kind: 'clean', tree: both });
  });

  it('reports a file replaced differently on both sides, and one replaced against a delete', () => {
    const ours = tree([file('a', 'a.png', 'ours'), file('b', 'b.png', 'ours'), file('c', 'c.png')]);
    const theirs = tree([file('a', 'a.png', 'theirs'), file('c', 'c.png')]);
    expect(merge(base, ours, theirs)).toEqual({
      kind: 'conflict',
      conflicts: [
        { reason: 'file', id: 'a', title: 'a.png' },
        { reason: 'file', id: 'b', title: 'b.png' },
      ],
    });
  });

  it('reports two files of one name added one on each side, naming both', () => {
    const ours = tree([...base.files, file('n1', 'logo.png')]);
    const theirs = tree([...base.files, file('n2', 'logo.png')]);
    const result = merge(base, ours, theirs);
    expect(result.kind === 'conflict' && result.conflicts.map((c) => [c.reason, c.id, c.title]).sort()).toEqual([
      ['duplicate-file-name', 'n1', 'logo.png'],
      ['duplicate-file-name', 'n2', 'logo.png'],
    ]);
  });

  it('leaves alone two files of one name a side already had', () => {
    const old = tree([file('a', 'x.png'), file('b', 'x.png')]);
    const ours = tree([file('a', 'x.png', 'new'), file('b', 'x.png')]);
    const theirs = tree([file('a', 'x.png'), file('b', 'x.png'), file('c', 'c.png')]);
    expect(merge(old, ours, theirs)).toEqual({
      kind: 'clean',
      tree: tree([file('a', 'x.png', 'new'), file('b', 'x.png'), file('c', 'c.png')]),
    });
  });
});

describe('mergeTrees: variables', () => {
  const base = tree([], { A: 1, B: 'two', C: true });

  it('takes a replacement of the whole map on one side: removed, changed and new keys', () => {
    const ours = tree([], { A: 1, B: 'zwei', D: 4 });
    const theirs = tree([], { A: 1, B: 'two', C: true, E: 'e' });
    expect(merge(base, ours, theirs)).toEqual({ kind: 'clean', tree: tree([], { A: 1, B: 'zwei', D: 4, E: 'e' }) });
  });

  it('reports a variable set differently on both sides, and one changed against a removal', () => {
    const ours = tree([], { A: 2, B: 'two', C: false });
    const theirs = tree([], { A: 3, B: 'two' });
    expect(merge(base, ours, theirs)).toEqual({
      kind: 'conflict',
      conflicts: [
        { reason: 'variable', id: 'A', title: 'A' },
        { reason: 'variable', id: 'C', title: 'C' },
      ],
    });
  });

  it('a value of another type is another value', () => {
    expect(merge(base, tree([], { A: '1', B: 'two', C: true }), tree([], { A: true, B: 'two', C: true })).kind).toBe('conflict');
  });
});
