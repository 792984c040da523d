import { describe, expect, it } from 'vitest';
import type { ContentChange } from '../../src/model/index.js';
import type { WorkspaceContent, WorkspaceDocument, WorkspacePage } from '../../src/workspace/index.js';
import { batchesOf, resolveRefs } from '../../src/sync/push/send-batches.js';
import { expectPushed, modelTree, plan, send } from './push-plan-harness.js';

const doc = (id: string, slug: string, pages: WorkspacePage[] = [], extra: Partial<WorkspaceDocument> = {}): WorkspaceDocument => ({
  id,
  type: 'document',
  title: `Page ${id}`,
  slug,
  markdown: `${slug} text\n`,
  pages,
  ...extra,
});
const group = (id: string, slug: string, pages: WorkspacePage[]): WorkspacePage => ({
  id,
  type: 'group',
  title: slug.toUpperCase(),
  slug,
  pages,
});
const link = (id: string, href: string): WorkspacePage => ({ id, type: 'link', title: `Link ${id}`, href });
const content = (pages: WorkspacePage[]): WorkspaceContent => ({ pages, files: [], variables: {}, reusableContents: [], settings: {} });

/** The plan's changes without documents, for reading. */
const brief = (changes: ContentChange[]) =>
  changes.map((c) => {
    if (c.operation !== 'insert_page' && c.operation !== 'update_page') return c;
    const { document: _document, ...rest } = c;
    return rest;
  });

describe('planPush on tricky trees, applied by the server', () => {
  it("swaps two siblings' slugs through a temporary slug, and rotates three", async () => {
    const remote = content([doc('a', 'alpha'), doc('b', 'beta'), doc('c', 'gamma')]);
    const swapped = content([doc('a', 'beta'), doc('b', 'alpha'), doc('c', 'gamma')]);
    const { planned } = await expectPushed(remote, swapped);
    expect(brief(planned.changes)).toEqual([
      { operation: 'update_page', page: 'b', slug: 'beta-docsync-1' },
      { operation: 'update_page', page: 'a', slug: 'beta' },
      { operation: 'update_page', page: 'b', slug: 'alpha' },
    ]);
    await expectPushed(remote, content([doc('a', 'beta'), doc('b', 'gamma'), doc('c', 'alpha')]));
  });

  it('picks a temporary slug no sibling holds or will take', async () => {
    const remote = content([doc('a', 'x'), doc('b', 'y'), doc('c', 'y-docsync-1'), doc('d', 'y-docsync-2')]);
    const local = content([doc('a', 'y'), doc('b', 'x'), doc('c', 'y-docsync-1'), doc('d', 'y-docsync-3')]);
    const { planned } = await expectPushed(remote, local);
    expect(brief(planned.changes)[0]).toEqual({ operation: 'update_page', page: 'b', slug: 'y-docsync-4' });
  });

  it('gives a page moved aside its own slug back when it then moves to another parent', async () => {
    // b holds `x` under p when a comes in; b then goes to q, still called `x` there.
    const remote = content([doc('p', 'p', [doc('b', 'x')]), doc('q', 'q'), doc('a', 'x')]);
    const local = content([doc('p', 'p', [doc('a', 'x')]), doc('q', 'q', [doc('b', 'x')])]);
    const { planned } = await expectPushed(remote, local);
    expect(brief(planned.changes)).toEqual([
      { operation: 'update_page', page: 'b', slug: 'x-docsync-1' },
      { operation: 'update_page', page: 'a', into: 'p', at: 0 },
      { operation: 'update_page', page: 'b', slug: 'x', into: 'q', at: 0 },
    ]);
  });

  it('moves a page into what was its child: the child moves up first', async () => {
    const remote = content([doc('top', 'top'), doc('p', 'p', [doc('c', 'c', [doc('g', 'g')]), doc('d', 'd')])]);
    const local = content([doc('top', 'top'), doc('c', 'c', [doc('g', 'g'), doc('p', 'p', [doc('d', 'd')])])]);
    const { planned } = await expectPushed(remote, local);
    expect(brief(planned.changes)).toEqual([
      { operation: 'update_page', page: 'c', into: null, at: 1 },
      { operation: 'update_page', page: 'p', into: 'c', at: 1 },
    ]);
  });

  it('deletes a parent after its child moved out, and a dead subtree first', async () => {
    const remote = content([
      doc('gone', 'gone', [doc('kept', 'kept'), doc('dropped', 'dropped')]),
      doc('dead', 'dead', [doc('leaf', 'leaf')]),
      doc('home', 'home'),
    ]);
    const local = content([doc('home', 'home', [doc('kept', 'kept')])]);
    const { planned } = await expectPushed(remote, local);
    expect(brief(planned.changes)).toEqual([
      { operation: 'delete_page', page: 'dead' },
      { operation: 'update_page', page: 'kept', into: 'home', at: 0 },
      { operation: 'delete_page', page: 'gone' },
    ]);
  });

  it("gives a deleted page's slug to a new page, and moves its surviving children out of the way", async () => {
    const remote = content([doc('old', 'guide', [doc('keep', 'keep')])]);
    const local = content([doc('new-1', 'guide', [doc('keep', 'keep')])]);
    const { planned } = await expectPushed(remote, local);
    expect(planned.counts).toMatchObject({ inserted: 1, moved: 1, deleted: 1 });
  });

  it('inserts a new parent with new children and grandchildren: one batch per level of new pages', async () => {
    const remote = content([doc('a', 'a')]);
    const local = content([
      doc('a', 'a'),
      doc('new-1', 'guide', [doc('new-2', 'one', [doc('new-4', 'deep')]), doc('new-3', 'two')]),
      doc('new-5', 'z', [link('new-6', 'https://example.com')]),
    ]);
    const { planned, sent } = await expectPushed(remote, local);
    expect(planned.counts.inserted).toBe(6);
    expect(sent.batches.map((b) => b.map((c) => (c.operation === 'insert_page' ? (c.into ?? '(top)') : c.operation)))).toEqual([
      ['(top)', '(top)'],
      ['ref:docsync-1', 'ref:docsync-1', 'ref:docsync-2'],
      ['ref:docsync-3'],
    ]);
  });

  it('moves one page for a reorder that moves one page, whatever the distance', async () => {
    const remote = content(['a', 'b', 'c', 'd', 'e'].map((s) => doc(s, s)));
    const { planned } = await expectPushed(remote, content(['b', 'c', 'd', 'e', 'a'].map((s) => doc(s, s))));
    expect(brief(planned.changes)).toEqual([{ operation: 'update_page', page: 'a', into: null, at: 4 }]);
    const back = await expectPushed(remote, content(['e', 'a', 'b', 'c', 'd'].map((s) => doc(s, s))));
    expect(brief(back.planned.changes)).toEqual([{ operation: 'update_page', page: 'e', into: null, at: 0 }]);
    const reversed = await expectPushed(remote, content(['e', 'd', 'c', 'b', 'a'].map((s) => doc(s, s))));
    expect(reversed.planned.counts.moved).toBe(4);
  });

  it('moves the page it edits anyway rather than another one', async () => {
    const remote = content([doc('a', 'a'), doc('b', 'b')]);
    const local = content([doc('b', 'b'), doc('a', 'a', [], { markdown: 'edited\n' })]);
    const { planned } = await expectPushed(remote, local);
    expect(brief(planned.changes)).toEqual([{ operation: 'update_page', page: 'a', into: null, at: 1 }]);
  });

  it("names refs so that none is a page's path", async () => {
    const remote = content([doc('a', 'docsync-1'), doc('b', 'docsync-2')]);
    const { planned } = await expectPushed(remote, content([doc('a', 'docsync-1'), doc('b', 'docsync-2'), doc('new-1', 'fresh')]));
    expect(planned.refs.get('new-1')).toBe('docsync-3');
  });

  it("writes groups and link pages, and a link's new target", async () => {
    const remote = content([group('g', 'part-one', [doc('a', 'a'), link('l', 'https://example.com/old')])]);
    const local = content([
      group('g', 'part-one', [link('l', 'https://example.com/new'), doc('a', 'a')]),
      group('new-1', 'part-two', [doc('new-2', 'b'), link('new-3', 'mailto:team@example.com')]),
    ]);
    const { planned } = await expectPushed(remote, local);
    expect(planned.changes.filter((c) => c.operation === 'update_page')).toEqual([
      { operation: 'update_page', page: 'l', href: 'https://example.com/new', into: 'g', at: 0 },
    ]);
  });

  it('keeps links to pages the push creates, renames or swaps: such documents go once the tree is final', async () => {
    const remote = content([doc('home', 'home'), doc('x', 'a'), doc('y', 'b')]);
    const local = content([
      doc('home', 'home', [], { markdown: 'To [new](guide/README.md), [its child](guide/child.md) and [b](b.md).\n' }),
      doc('x', 'b'),
      doc('y', 'a'),
      doc('new-1', 'guide', [doc('new-2', 'child', [], { markdown: 'Up to [guide](README.md), over to [a](../a.md#part).\n' })], {
        markdown: 'Down to [child](child.md).\n',
      }),
    ]);
    const { planned, sent } = await expectPushed(remote, local);
    // The structure first (the swap, two levels of new pages), then the three documents with links.
    expect(brief(planned.changes)).toEqual([
      { operation: 'update_page', page: 'y', slug: 'b-docsync-1' },
      { operation: 'update_page', page: 'x', slug: 'b' },
      { operation: 'update_page', page: 'y', slug: 'a' },
      { operation: 'insert_page', title: 'Page new-1', slug: 'guide', at: 3, ref: 'docsync-1' },
      { operation: 'insert_page', title: 'Page new-2', slug: 'child', into: 'new-1', at: 0, ref: 'docsync-2' },
      { operation: 'update_page', page: 'home' },
      { operation: 'update_page', page: 'new-1' },
      { operation: 'update_page', page: 'new-2' },
    ]);
    expect(sent.batches).toHaveLength(3);
    expect(planned.counts).toMatchObject({ inserted: 2, updated: 3 });
  });

  it('plans one update_page for a page whose only change is a document with links', async () => {
    const remote = content([doc('a', 'a'), doc('b', 'b', [], { markdown: 'See [a](README.md).\n' })]);
    const { planned } = await expectPushed(
      remote,
      content([doc('a', 'a'), doc('b', 'b', [], { markdown: 'See [a](README.md) again.\n' })]),
    );
    expect(planned.changes).toHaveLength(1);
  });

  it('sends the default of a layout option the local page dropped, and no other option', () => {
    const remote = content([doc('a', 'a', [], { layout: { width: 'wide', outline: false } })]);
    const planned = plan(remote, content([doc('a', 'a', [], { layout: { outline: false } })]));
    const change = planned.changes[0] as { document: { markdown: string } };
    expect(change.document.markdown).toBe('---\ntitle: Page a\nlayout:\n  width: default\n  outline:\n    visible: false\n---\na text\n');
  });

  // `anchors` is a layout option like the others (the server's front matter reader once refused it).
  it('pushes a page that hides its anchors', async () => {
    const remote = content([doc('a', 'a')]);
    const local = content([doc('a', 'a', [], { layout: { anchors: false } })]);
    const planned = plan(remote, local);
    await send(modelTree(remote), planned);
  });
});

describe('batchesOf', () => {
  it('names new pages by ref in a later batch than their insert, and leaves out changes to pages not inserted', () => {
    const refs = new Map([
      ['new-1', 'docsync-1'],
      ['new-2', 'docsync-2'],
    ]);
    const changes: ContentChange[] = [
      { operation: 'insert_page', title: 'One', document: { markdown: '' }, ref: 'docsync-1' },
      { operation: 'insert_page', title: 'Two', document: { markdown: '' }, into: 'new-1', ref: 'docsync-2' },
      { operation: 'update_page', page: 'kept', into: 'new-1', at: 0 },
      { operation: 'update_page', page: 'new-2', document: { markdown: 'body\n' } },
      // new-3's insert was left out of the plan (a page the server cannot take): so is its document.
      { operation: 'update_page', page: 'new-3', document: { markdown: 'body\n' } },
    ];
    expect(batchesOf(changes, new Map([...refs, ['new-3', 'docsync-3']]))).toEqual([
      [changes[0]],
      [
        { ...changes[1], into: 'ref:docsync-1' },
        { ...changes[2], into: 'ref:docsync-1' },
      ],
      [{ ...changes[3], page: 'ref:docsync-2' }],
    ]);
    expect(
      resolveRefs({ operation: 'update_page', page: 'ref:docsync-2', into: 'ref:docsync-1' }, { 'docsync-1': 'id1', 'docsync-2': 'id2' }),
    ).toEqual({ operation: 'update_page', page: 'id2', into: 'id1' });
    expect(() => resolveRefs({ operation: 'update_page', page: 'ref:docsync-9' }, {})).toThrow(/docsync-9/);
  });
});
