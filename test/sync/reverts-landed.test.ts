import { describe, expect, it } from 'vitest';
import type { Revision, RevisionPage } from '../../src/model/index.js';
import { onlyReverts } from '../../src/sync/push/reverts-landed.js';

// White-box: the head a lost revert write made is told by its content alone (the API names no
// revision's author), so anything else that changed must make it someone else's.
describe('onlyReverts', () => {
  /** A page: `doc` is its document id; the read's own fields (path, URLs, times) differ by revision. */
  const page = (id: string, doc: string, pages: RevisionPage[] = [], extra: Partial<RevisionPage> = {}) =>
    ({
      id,
      title: id,
      type: 'document',
      slug: id,
      documentId: doc,
      markdown: `${doc} rendered`,
      path: `${Math.random()}`,
      urls: { app: `${Math.random()}` },
      updatedAt: `${Math.random()}`,
      pages,
      ...extra,
    }) as RevisionPage;
  const revision = (pages: RevisionPage[], extra: Partial<Revision> = {}) =>
    ({ object: 'revision', type: 'edits', pages, files: [], reusableContents: [], variables: {}, ...extra }) as Revision;

  const base = revision([page('a', 'a0'), page('b', 'b0'), page('c', 'c0')]);
  const held = revision([page('a', 'a0'), page('b', 'b-topic'), page('c', 'c0'), page('new', 'n0', [page('sub', 's0')])]);

  it('takes a head that only put the reverted pages back as the target has them', () => {
    const head = revision([page('a', 'a0'), page('b', 'b0'), page('c', 'c0'), page('new', 'n0', [page('sub', 's0')])]);
    expect(onlyReverts(held, head, base, ['b'])).toBe(true);
    // An added page reverted away goes with its subpage.
    expect(onlyReverts(held, revision([page('a', 'a0'), page('b', 'b-topic'), page('c', 'c0')]), base, ['new'])).toBe(true);
    // A deleted page comes back as it was.
    expect(onlyReverts(revision([page('a', 'a0'), page('c', 'c0')]), base, base, ['b'])).toBe(true);
  });

  it('refuses a head with any other change', () => {
    const reverted = [page('a', 'a0'), page('b', 'b0'), page('c', 'c0'), page('new', 'n0', [page('sub', 's0')])];
    // A reverted page given something neither side had (a reviewer's edit of it).
    expect(onlyReverts(held, revision([page('a', 'a0'), page('b', 'b-reviewer'), ...reverted.slice(2)]), base, ['b'])).toBe(false);
    expect(onlyReverts(held, revision([page('a', 'a0'), page('b', 'b0', [], { title: 'B!' }), ...reverted.slice(2)]), base, ['b'])).toBe(
      false,
    );
    // Another page edited, moved, deleted or added; siblings reordered.
    expect(onlyReverts(held, revision([page('a', 'a1'), ...reverted.slice(1)]), base, ['b'])).toBe(false);
    expect(onlyReverts(held, revision([page('b', 'b0', [page('a', 'a0')]), ...reverted.slice(2)]), base, ['b'])).toBe(false);
    expect(onlyReverts(held, revision(reverted.slice(1)), base, ['b'])).toBe(false);
    expect(onlyReverts(held, revision([...reverted, page('x', 'x0')]), base, ['b'])).toBe(false);
    expect(onlyReverts(held, revision([reverted[1]!, reverted[0]!, ...reverted.slice(2)]), base, ['b'])).toBe(false);
    // A page the target holds deleted; an added page removed without being reverted, or its subpage alone.
    expect(onlyReverts(base, revision([page('a', 'a0'), page('c', 'c0')]), held, ['b'])).toBe(false);
    expect(onlyReverts(held, revision(reverted.slice(0, 3)), base, ['b'])).toBe(false);
    expect(onlyReverts(held, revision([...reverted.slice(0, 3), page('new', 'n0')]), base, ['b', 'sub'])).toBe(true);
    expect(onlyReverts(held, revision([...reverted.slice(0, 3), page('new', 'n0')]), base, ['b'])).toBe(false);
    // Files and variables are no revert's.
    expect(onlyReverts(held, revision(reverted, { variables: { v: 1 } }), base, ['b'])).toBe(false);
  });
});
