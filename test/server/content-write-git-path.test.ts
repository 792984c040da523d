import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { readTree } from '../helpers/content.js';

const SPEC = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';
const PAGE_SPEC = '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}';

/**
 * The `git-path` extension (docs/api.md): a document page keeps the file its Git Sync folder had
 * it at (`gitPath` on insert_page and update_page), read back as the published `git.path`, and
 * its links are written relative to that file.
 */
describe.each(testDialects())('content batch: gitPath, the file a page keeps (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function setup() {
    const space = await createSpace(s, { title: 'Docs' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Edits' } });
    expect(cr.status).toBe(201);
    const intro = (await readTree(s, { spaceId: space.id })).pages[0]!.id;
    return { spaceId: space.id as string, crId: cr.body.id as string, intro };
  }
  type Target = Awaited<ReturnType<typeof setup>>;
  const write = (t: Target, changes: unknown[]) =>
    s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content?compat=false`, { body: { changes } });
  const page = async (t: Target, id: string) => {
    const res = await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content/page/${id}?format=markdown`);
    expectSpec(res, 'GET', PAGE_SPEC, 200);
    return res.body as { git?: { path: string }; markdown: string };
  };
  const ids = (res: { body: { changes: { ref?: string; page: { id: string } }[] } }) =>
    new Map(res.body.changes.filter((c) => c.ref).map((c) => [c.ref!, c.page.id]));

  /** `tutorials.md` beside `tutorials/one.md`, and `misc/note.md` linking to both. */
  async function handPlaced(t: Target) {
    const first = await write(t, [
      {
        operation: 'insert_page',
        ref: 'tut',
        title: 'Tutorials',
        slug: 'tutorials',
        gitPath: 'tutorials.md',
        document: { markdown: '# Tutorials\n\nall\n' },
      },
    ]);
    expectSpec(first, 'POST', SPEC, 200);
    const tutorials = ids(first).get('tut')!;
    const res = await write(t, [
      { operation: 'insert_page', ref: 'one', into: tutorials, title: 'One', slug: 'one', document: { markdown: '# One\n\nfirst\n' } },
      {
        operation: 'insert_page',
        ref: 'note',
        title: 'Note',
        slug: 'note',
        gitPath: 'misc/note.md',
        document: { markdown: '# Note\n\nSee [all](../tutorials.md) and [one](../tutorials/one.md#top).\n' },
      },
    ]);
    expectSpec(res, 'POST', SPEC, 200);
    const found = ids(res);
    return { tutorials, one: found.get('one')!, note: found.get('note')! };
  }

  it('is read back as git.path, and links are resolved and written relative to the kept file', async () => {
    const t = await setup();
    expect((await s.request('GET', `/v1/spaces/${t.spaceId}`)).headers.get('x-docsync-extensions')!.split(',')).toContain('git-path');
    const p = await handPlaced(t);
    expect((await page(t, p.tutorials)).git!.path).toBe('tutorials.md');
    expect((await page(t, p.one)).git!.path).toBe('tutorials/one.md');
    const note = await page(t, p.note);
    expect(note.git!.path).toBe('misc/note.md');
    // Both links resolved to the pages (a link to no page would be its text): written as they were.
    expect(note.markdown).toBe('See [all](../tutorials.md) and [one](../tutorials/one.md#top).\n');
    const tree = await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content`);
    expectSpec(tree, 'GET', SPEC, 200);
  });

  it('null, a move or a new slug without one give the page its rule path back; links follow', async () => {
    const t = await setup();
    const p = await handPlaced(t);
    expectSpec(await write(t, [{ operation: 'update_page', page: p.tutorials, gitPath: null }]), 'POST', SPEC, 200);
    expect((await page(t, p.tutorials)).git!.path).toBe('tutorials/README.md');
    expect((await page(t, p.note)).markdown).toBe('See [all](../tutorials/README.md) and [one](../tutorials/one.md#top).\n');

    expectSpec(await write(t, [{ operation: 'update_page', page: p.note, into: p.tutorials }]), 'POST', SPEC, 200);
    expect((await page(t, p.note)).git!.path).toBe('tutorials/note.md');
    expect((await page(t, p.note)).markdown).toBe('See [all](README.md) and [one](one.md#top).\n');

    expectSpec(await write(t, [{ operation: 'update_page', page: p.one, gitPath: 'guides/first.md' }]), 'POST', SPEC, 200);
    expect((await page(t, p.one)).git!.path).toBe('guides/first.md');
    expectSpec(await write(t, [{ operation: 'update_page', page: p.one, slug: 'first' }]), 'POST', SPEC, 200);
    expect((await page(t, p.one)).git!.path).toBe('tutorials/first.md');
    // Another edit (a title, a body) keeps the file.
    expectSpec(
      await write(t, [
        { operation: 'update_page', page: p.one, gitPath: 'guides/first.md' },
        { operation: 'update_page', page: p.one, title: 'First' },
      ]),
      'POST',
      SPEC,
      200,
    );
    expect((await page(t, p.one)).git!.path).toBe('guides/first.md');
  });

  it('a file another page holds, by the rules or kept first, is not taken: the page stays at its rule path', async () => {
    const t = await setup();
    const res = await write(t, [
      { operation: 'insert_page', ref: 'a', title: 'A', slug: 'a', gitPath: 'shared.md', document: {} },
      { operation: 'insert_page', ref: 'b', title: 'B', slug: 'b', gitPath: 'shared.md', document: {} },
      { operation: 'insert_page', ref: 'c', title: 'C', slug: 'c', gitPath: 'a.md', document: {} },
    ]);
    expectSpec(res, 'POST', SPEC, 200);
    const found = ids(res);
    expect((await page(t, found.get('a')!)).git!.path).toBe('shared.md');
    expect((await page(t, found.get('b')!)).git!.path).toBe('b.md');
    expect((await page(t, found.get('c')!)).git!.path).toBe('c.md');
  });

  it('refuses a path that is no page file, and gitPath on a group or a link page, naming the field (400)', async () => {
    const t = await setup();
    for (const gitPath of ['../out.md', '/abs.md', 'notes.txt', '.gitbook/includes/x.md', 'SUMMARY.md', 'a//b.md', '']) {
      const res = await write(t, [{ operation: 'insert_page', title: 'X', gitPath, document: {} }]);
      expectError(res, 400);
      expect(res.body.error.message).toMatch(/gitPath/);
    }
    const group = await write(t, [{ operation: 'insert_page', type: 'group', title: 'G', gitPath: 'g.md', document: {} }]);
    expectError(group, 400);
    expect(group.body.error.message).toMatch(/gitPath/);
    const update = await write(t, [{ operation: 'update_page', page: t.intro, gitPath: 'a/../b.md' }]);
    expectError(update, 400);
    expect(update.body.error.message).toMatch(/gitPath/);
  });
});
