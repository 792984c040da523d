import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { readTree } from '../helpers/content.js';
import { changeRequestWith, editMain } from '../sync/fixture.js';

// Issue 15: a reusable content's links to pages, headings and files are references, as a page's
// are: moving the target changes the path its markdown renders on the next read (its stored body
// untouched); deleting it leaves the link as its last known path. A link naming nothing stays as
// written.
describe.each(testDialects())("reusable contents' links are references (%s)", (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const BODY =
    'See [install](../../guides/install.md), [steps](../../guides/install.md#steps), ![logo](../assets/logo.png) and [later](../../later.md).\n';

  /** Intro (README.md), Guides with Install (guides/install.md, `## Steps`), logo.png, and a reusable content linking to them. */
  async function space(name: string) {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: name, empty: true } })).body;
    const top = await editMain(s, space.id, [
      {
        operation: 'insert_page',
        ref: 'intro',
        title: 'Intro',
        document: { markdown: '# Intro\n\n{% include ".gitbook/includes/note.md" %}\n' },
      },
      { operation: 'insert_page', ref: 'guides', title: 'Guides', document: { markdown: '# Guides\n\nall guides\n' } },
    ]);
    const more = await editMain(s, space.id, [
      {
        operation: 'insert_page',
        ref: 'install',
        into: top.get('guides'),
        title: 'Install',
        document: { markdown: '# Install\n\n## Steps\n\nrun it\n' },
      },
      {
        operation: 'insert_files',
        files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: Buffer.from('logo').toString('base64') }],
      },
      { operation: 'insert_reusable_content', title: 'Note', name: 'note.md', document: { markdown: BODY } },
    ]);
    const tree = await readTree(s, { spaceId: space.id });
    return {
      spaceId: space.id as string,
      intro: top.get('intro')!,
      install: more.get('install')!,
      file: tree.files[0]!.id,
      content: tree.reusableContents[0]!,
    };
  }

  const read = async (spaceId: string, id: string) => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/content/reusable-contents/${id}?format=markdown`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { markdown: string; document?: string; git: { oid: string; path: string } };
  };

  it('renders the path from the include file, follows a move on the next read, and keeps the stored body', async () => {
    const t = await space('Moves');
    const before = await read(t.spaceId, t.content.id);
    expect(before.markdown).toBe(BODY);
    expect(before.git.path).toBe('.gitbook/includes/note.md');

    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.install, into: null, slug: 'setup' }]);
    const after = await read(t.spaceId, t.content.id);
    expect(after.markdown).toBe(
      'See [install](../../setup.md), [steps](../../setup.md#steps), ![logo](../assets/logo.png) and [later](../../later.md).\n',
    );
    // The stored body is the same reference; git.oid names the file a clone writes, so it follows.
    expect(after.document).toBe(before.document);
    expect((await readTree(s, { spaceId: t.spaceId })).reusableContents[0]!.document).toBe(t.content.document);
    expect(after.git.oid).not.toBe(before.git.oid);
  });

  it('format=document carries the reference objects, by id', async () => {
    const t = await space('Document');
    const revision = (await s.request('GET', `/v1/spaces/${t.spaceId}`)).body.revision;
    const res = await s.request('GET', `/v1/spaces/${t.spaceId}/revisions/${revision}/reusable-contents/${t.content.id}/document`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const refs: unknown[] = [];
    const visit = (node: any) => {
      if (node?.type === 'link' || node?.type === 'image') refs.push(node.data?.ref ?? node.data?.src);
      for (const child of node?.nodes ?? node?.fragments ?? []) visit(child);
    };
    visit(res.body);
    expect(refs).toContainEqual({ kind: 'page', page: t.install });
    expect(refs).toContainEqual({ kind: 'anchor', anchor: 'steps', page: t.install });
  });

  it('a deleted target renders as its last known path', async () => {
    const t = await space('Deletes');
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.install, into: null, slug: 'setup' }]);
    await editMain(s, t.spaceId, [{ operation: 'delete_page', page: t.install }]);
    // Where it was when the link was written.
    expect((await read(t.spaceId, t.content.id)).markdown).toBe(BODY);
  });
  type Item = { status: string; targetReference?: any; locationReferences: { page: { id: string } }[] };
  const listing = async (path: string) => {
    const res = await s.request('GET', path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { items: Item[]; stats: { total: number; broken: { total: number; changeRequest: number } } };
  };
  const brief = (items: Item[]) =>
    items.map((i) => [
      i.targetReference.kind === 'page'
        ? `page:${i.targetReference.page.id}${i.targetReference.internalLocation ? `#${i.targetReference.internalLocation.anchor}` : ''}`
        : i.targetReference.kind === 'file'
          ? `file:${i.targetReference.file.id}`
          : `url:${i.targetReference.url}`,
      i.status,
      i.locationReferences.map((l) => l.page.id),
    ]);

  it("lists a content's links as links of the pages that embed it: broken when the target is deleted, counted, filtered, ok again when restored", async () => {
    const t = await space('Listings');
    const all = await listing(`/v1/spaces/${t.spaceId}/links`);
    expect(brief(all.items)).toEqual([
      [`page:${t.install}`, 'ok', [t.intro]],
      [`page:${t.install}#steps`, 'ok', [t.intro]],
      [`file:${t.file}`, 'ok', [t.intro]],
      // Written relative to the include file, naming nothing: broken, as written.
      ['url:../../later.md', 'broken', [t.intro]],
    ]);

    const cr = (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: 'delete install' } })).body;
    const write = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content?compat=false`, {
      body: { changes: [{ operation: 'delete_page', page: t.install }] },
    });
    expect(write.status, JSON.stringify(write.body)).toBe(200);
    const deleted = await listing(`/v1/spaces/${t.spaceId}/change-requests/${cr.id}/links`);
    expect(brief(deleted.items)).toEqual([
      ['url:guides/install.md', 'broken', [t.intro]],
      ['url:guides/install.md#steps', 'broken', [t.intro]],
      [`file:${t.file}`, 'ok', [t.intro]],
      ['url:../../later.md', 'broken', [t.intro]],
    ]);
    // Two broken by the change request; the one broken before it is not counted.
    expect(deleted.stats).toEqual({ total: 4, broken: { total: 3, changeRequest: 2 } });
    const broken = await listing(`/v1/spaces/${t.spaceId}/change-requests/${cr.id}/links?status=broken`);
    expect(broken.items).toHaveLength(3);
    const ofPage = await listing(`/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content/page/${t.intro}/links`);
    expect(brief(ofPage.items).map(([key, status]) => [key, status])).toEqual([
      ['url:guides/install.md', 'broken'],
      ['url:guides/install.md#steps', 'broken'],
      [`file:${t.file}`, 'ok'],
      ['url:../../later.md', 'broken'],
    ]);
    const backlinks = await s.request('GET', `/v1/spaces/${t.spaceId}/content/files/${t.file}/backlinks`);
    expect(backlinks.body.items.map((l: { page: { id: string } }) => l.page.id)).toEqual([t.intro]);

    // Restored (the delete reverted in the change request): the same links are ok again.
    const restore = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content?compat=false`, {
      body: { changes: [{ operation: 'revert_page', page: t.install }] },
    });
    expect(restore.status, JSON.stringify(restore.body)).toBe(200);
    const restored = await listing(`/v1/spaces/${t.spaceId}/change-requests/${cr.id}/links`);
    expect(brief(restored.items).slice(0, 2)).toEqual([
      [`page:${t.install}`, 'ok', [t.intro]],
      [`page:${t.install}#steps`, 'ok', [t.intro]],
    ]);
    expect(restored.stats.broken).toEqual({ total: 1, changeRequest: 0 });
  });
  it("an anchor of a content's link whose heading is renamed away is broken in the embedding page's listing, naming the anchor; renamed back, ok", async () => {
    const t = await space('Anchors');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.install, document: { markdown: '# Install\n\n## Procedure\n\nrun it\n' } },
    ]);
    const broken = await listing(`/v1/spaces/${t.spaceId}/content/page/${t.intro}/links?status=broken`);
    expect(brief(broken.items)).toEqual([
      [`page:${t.install}#steps`, 'broken', [t.intro]],
      ['url:../../later.md', 'broken', [t.intro]],
    ]);
    expect(broken.items[0]!.targetReference).toMatchObject({
      kind: 'page',
      page: { id: t.install },
      internalLocation: { type: 'anchor', anchor: 'steps' },
    });
    expect(broken.stats).toEqual({ total: 4, broken: { total: 2, changeRequest: 0 } });
    // The link stays written as it was meant, anchor and all.
    expect((await read(t.spaceId, t.content.id)).markdown).toBe(BODY);
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.install, document: { markdown: '# Install\n\n## Steps\n\nrun it\n' } },
    ]);
    expect((await listing(`/v1/spaces/${t.spaceId}/links`)).stats).toEqual({ total: 4, broken: { total: 1, changeRequest: 0 } });
  });

  it('a change request moving a page and one linking to it from a reusable content merge without conflict, and the link follows', async () => {
    const t = await space('Merge');
    const move = await changeRequestWith(s, t.spaceId, 'move install', [
      { operation: 'update_page', page: t.install, into: null, slug: 'setup' },
    ]);
    // Written against the old place, from the include file.
    const link = await changeRequestWith(s, t.spaceId, 'link install', [
      {
        operation: 'update_reusable_content',
        reusableContent: t.content.id,
        document: { markdown: 'Go to [the steps](../../guides/install.md#steps).\n' },
      },
    ]);
    const first = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${move.id}/merge`);
    expect(first.body).toMatchObject({ result: 'merge' });
    const second = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${link.id}/merge`);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ result: 'merge' });
    expect((await read(t.spaceId, t.content.id)).markdown).toBe('Go to [the steps](../../setup.md#steps).\n');
    const all = await listing(`/v1/spaces/${t.spaceId}/links`);
    expect(brief(all.items)).toEqual([[`page:${t.install}#steps`, 'ok', [t.intro]]]);
    expect(all.stats).toEqual({ total: 1, broken: { total: 0, changeRequest: 0 } });
  });
});
