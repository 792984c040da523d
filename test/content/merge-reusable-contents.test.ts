import { describe, expect, it } from 'vitest';
import { mergeTrees } from '../../src/content/merge/merge-tree.js';
import type { ContentTree, TreeReusableContent } from '../../src/model/index.js';
import { docs } from './tree-arbitraries.js';

const rc = (id: string, title: string, body?: string, name?: string): TreeReusableContent => ({
  id,
  title,
  ...(body !== undefined ? { document: `d:${body}` } : {}),
  ...(name !== undefined ? { name } : {}),
});
const tree = (reusableContents: TreeReusableContent[]): ContentTree => ({ pages: [], files: [], variables: {}, reusableContents });

/** Both directions, since a clean merge must not depend on which side is ours. */
function merge(base: ContentTree, ours: ContentTree, theirs: ContentTree) {
  const ab = mergeTrees(base, ours, theirs, docs);
  const ba = mergeTrees(base, theirs, ours, docs);
  expect(ab.kind).toBe(ba.kind);
  if (ab.kind === 'clean' && ba.kind === 'clean') expect(ab.tree).toEqual(ba.tree);
  return ab;
}

describe('mergeTrees: reusable contents', () => {
  const base = tree([rc('a', 'A', 'one\ntwo\nthree\n', 'a.md'), rc('b', 'B', 'b\n', 'b.md')]);

  it('takes inserts and deletes of both sides, and a title changed on one side with the body changed on the other', () => {
    const ours = tree([rc('a', 'Alpha', 'one\ntwo\nthree\n', 'a.md'), rc('b', 'B', 'b\n', 'b.md'), rc('c', 'C', 'c\n', 'c.md')]);
    const theirs = tree([rc('a', 'A', 'one\n2\nthree\n', 'a.md'), rc('d', 'D', undefined, 'd.md')]);
    expect(merge(base, ours, theirs)).toEqual({
      kind: 'clean',
      tree: tree([rc('a', 'Alpha', 'one\n2\nthree\n', 'a.md'), rc('c', 'C', 'c\n', 'c.md'), rc('d', 'D', undefined, 'd.md')]),
    });
  });

  it('merges a body edited on both sides line by line', () => {
    const ours = tree([rc('a', 'A', 'ONE\ntwo\nthree\n', 'a.md'), rc('b', 'B', 'b\n', 'b.md')]);
    const theirs = tree([rc('a', 'A', 'one\ntwo\nTHREE\n', 'a.md'), rc('b', 'B', 'b\n', 'b.md')]);
    expect(merge(base, ours, theirs)).toEqual({
      kind: 'clean',
      tree: tree([rc('a', 'A', 'ONE\ntwo\nTHREE\n', 'a.md'), rc('b', 'B', 'b\n', 'b.md')]),
    });
  });

  it('reports the same lines, the title or the file changed differently, and an edit against a delete', () => {
    const ours = tree([rc('a', 'A1', 'one\nOURS\nthree\n', 'x.md'), rc('b', 'B', 'b changed\n', 'b.md')]);
    const theirs = tree([rc('a', 'A2', 'one\nTHEIRS\nthree\n', 'y.md')]);
    const result = mergeTrees(base, ours, theirs, docs);
    expect(result).toEqual({
      kind: 'conflict',
      conflicts: [
        { reason: 'reusable-content', id: 'a', title: 'A1', fields: ['title', 'name', 'document'] },
        { reason: 'reusable-content', id: 'b', title: 'B' },
      ],
    });
  });

  it('a name kept on one side (by a later write) merges with a change of the other side', () => {
    const legacy = tree([rc('a', 'Note', 'x\n'), rc('b', 'Note', 'y\n')]);
    const pinned = tree([rc('a', 'Note', 'x\n', 'note.md'), rc('b', 'Note', 'y\n', 'note-2.md')]);
    const retitled = tree([rc('a', 'Renamed', 'x\n'), rc('b', 'Note', 'y\n')]);
    expect(merge(legacy, pinned, retitled)).toEqual({
      kind: 'clean',
      tree: tree([rc('a', 'Renamed', 'x\n', 'note.md'), rc('b', 'Note', 'y\n', 'note-2.md')]),
    });
  });

  it('reports two contents the merge would give one include file, each side having added its own', () => {
    const ours = tree([...base.reusableContents, rc('n1', 'Note', 'mine\n', 'note.md')]);
    const theirs = tree([...base.reusableContents, rc('n2', 'Another note', 'theirs\n', 'note.md')]);
    expect(merge(base, ours, theirs)).toEqual({
      kind: 'conflict',
      conflicts: [
        { reason: 'duplicate-include-name', id: 'n1', title: 'note.md' },
        { reason: 'duplicate-include-name', id: 'n2', title: 'note.md' },
      ],
    });
  });
});
