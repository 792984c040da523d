import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectSpec } from '../helpers/expect-spec.js';
import { readTree } from '../helpers/content.js';
import { findPage } from '../../src/content/index.js';
import { changeRequestWith, editMain, remoteMarkdown } from '../sync/fixture.js';

type Location = { kind: string; [key: string]: any };
type Item = { status: string; targetReference?: Location; locationReferences: Location[] };

const target = (item: Item) => {
  const t = item.targetReference!;
  if (t.kind === 'page') return `page:${t.page.id}${t.internalLocation ? `#${t.internalLocation.anchor}` : ''}`;
  if (t.kind === 'file') return `file:${t.file.id}`;
  return `url:${t.url}`;
};

describe.each(testDialects())('links are references (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  /**
   * A space whose first page, Intro (README.md), links to Install (guides/install.md), to its
   * `## Steps` heading, to Guides by id and to a file.
   */
  async function linkedSpace(name: string) {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: name, empty: true } })).body;
    const top = await editMain(s, space.id, [
      { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: '# Intro\n\nstart\n' } },
      { operation: 'insert_page', ref: 'guides', title: 'Guides', document: { markdown: '# Guides\n\nall guides\n' } },
    ]);
    const intro = top.get('intro')!;
    const guides = top.get('guides')!;
    const logo = Buffer.from('logo').toString('base64');
    const more = await editMain(s, space.id, [
      {
        operation: 'insert_page',
        ref: 'install',
        into: guides,
        title: 'Install',
        document: { markdown: '# Install\n\n## Steps\n\nrun it\n' },
      },
      { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: logo }] },
      {
        operation: 'update_page',
        page: intro,
        document: {
          markdown: `# Intro\n\n[install](guides/install.md) [steps](guides/install.md#steps) [guides](/pages/${guides}) ![logo](.gitbook/assets/logo.png)\n`,
        },
      },
    ]);
    const file = (await readTree(s, { spaceId: space.id })).files[0]!.id;
    return { spaceId: space.id as string, intro, guides, install: more.get('install')!, file };
  }

  const links = async (path: string) => {
    const res = await s.request('GET', path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { items: Item[]; stats: unknown; count: number };
  };
  const introDocument = async (spaceId: string, intro: string) => findPage((await readTree(s, { spaceId })).pages, intro)!.document;

  it('a move or rename of the target changes the rendered path on the next read, not the stored document', async () => {
    const t = await linkedSpace('Moves');
    expect(await remoteMarkdown(s, t.spaceId, t.intro)).toBe(
      '[install](guides/install.md) [steps](guides/install.md#steps) [guides](guides/README.md) ![logo](.gitbook/assets/logo.png)\n',
    );
    const stored = await introDocument(t.spaceId, t.intro);
    const before = (await s.request('GET', `/v1/spaces/${t.spaceId}/content/page/${t.intro}`)).body;

    // Install leaves Guides for the top level as `setup`; Guides, now childless, becomes guides.md.
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.install, into: null, slug: 'setup' }]);
    expect(await remoteMarkdown(s, t.spaceId, t.intro)).toBe(
      '[install](setup.md) [steps](setup.md#steps) [guides](guides.md) ![logo](.gitbook/assets/logo.png)\n',
    );
    expect(await introDocument(t.spaceId, t.intro)).toBe(stored);
    const after = await s.request('GET', `/v1/spaces/${t.spaceId}/content/page/${t.intro}`);
    expectSpec(after, 'GET', '/spaces/{spaceId}/content/page/{pageId}', 200);
    expect(after.body.documentId).toBe(before.documentId);
    // git.oid names the file a clone writes, so it follows the rendering.
    expect(after.body.git.oid).not.toBe(before.git.oid);
    // The document format names the targets by id: the same references wherever they moved.
    const moved = await s.request('GET', `/v1/spaces/${t.spaceId}/content/page/${t.intro}?format=document`);
    expectSpec(moved, 'GET', '/spaces/{spaceId}/content/page/{pageId}', 200);
    const refs = JSON.stringify(moved.body.document);
    expect(refs).toContain(JSON.stringify({ kind: 'page', page: t.install }));
    expect(refs).toContain(JSON.stringify({ kind: 'anchor', anchor: 'steps', page: t.install }));

    // A page moved under another keeps its own links right too: they are relative to where it is.
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.guides, slug: 'handbook' },
      { operation: 'update_page', page: t.install, into: t.guides, slug: 'setup' },
    ]);
    expect(await remoteMarkdown(s, t.spaceId, t.intro)).toBe(
      '[install](handbook/setup.md) [steps](handbook/setup.md#steps) [guides](handbook/README.md) ![logo](.gitbook/assets/logo.png)\n',
    );
    const listing = await links(`/v1/spaces/${t.spaceId}/links`);
    expect(listing.items.map((i) => [target(i), i.status])).toEqual([
      [`page:${t.install}`, 'ok'],
      [`page:${t.install}#steps`, 'ok'],
      [`page:${t.guides}`, 'ok'],
      [`file:${t.file}`, 'ok'],
    ]);
  });

  it('format=document carries the published reference objects, by id', async () => {
    const t = await linkedSpace('Document');
    const res = await s.request('GET', `/v1/spaces/${t.spaceId}/content/page/${t.intro}?format=document`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/content/page/{pageId}', 200);
    const refs: unknown[] = [];
    const visit = (node: any) => {
      if (node?.type === 'link') refs.push(node.data.ref);
      for (const child of node?.nodes ?? []) visit(child);
    };
    visit(res.body.document);
    expect(refs).toEqual([
      { kind: 'page', page: t.install },
      { kind: 'anchor', anchor: 'steps', page: t.install },
      { kind: 'page', page: t.guides },
    ]);
    // The paragraph of links is a commentable block under the key the document gives it.
    const key = res.body.document.nodes[0].key as string;
    const comment = await s.request('POST', `/v1/spaces/${t.spaceId}/comments`, {
      body: { body: { markdown: 'which one?' }, page: t.intro, node: key },
    });
    expect(comment.status, JSON.stringify(comment.body)).toBe(200);
    expect(comment.body.target.node).toMatchObject({ id: key, preview: 'install steps guides logo' });
    // Written back as a JSON document, the references resolve to the same targets (the minimal
    // JSON rendering keeps an image as its alt text).
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.guides, document: { document: res.body.document } }]);
    expect(await remoteMarkdown(s, t.spaceId, t.guides)).toBe('[install](install.md) [steps](install.md#steps) [guides](README.md) logo\n');
  });

  it('deleting the target leaves broken links at their last known path; restoring it makes them ok', async () => {
    const t = await linkedSpace('Deletes');
    const cr = await changeRequestWith(s, t.spaceId, 'drop install', [
      { operation: 'delete_page', page: t.install },
      { operation: 'delete_file', file: t.file },
    ]);
    const base = `/v1/spaces/${t.spaceId}/change-requests/${cr.id}`;
    expect(await remoteMarkdown(s, t.spaceId, t.intro, cr.id)).toBe(
      '[install](guides/install.md) [steps](guides/install.md#steps) [guides](guides.md) ![logo](.gitbook/assets/logo.png)\n',
    );

    const all = await links(`${base}/links`);
    expect(all.items.map((i) => [target(i), i.status])).toEqual([
      ['url:guides/install.md', 'broken'],
      ['url:guides/install.md#steps', 'broken'],
      [`page:${t.guides}`, 'ok'],
      ['url:.gitbook/assets/logo.png', 'broken'],
    ]);
    expect(all.stats).toEqual({ total: 4, broken: { total: 3, changeRequest: 3 } });
    const broken = await links(`${base}/links?status=broken`);
    expect(broken.items.map(target)).toEqual(['url:guides/install.md', 'url:guides/install.md#steps', 'url:.gitbook/assets/logo.png']);
    expect(broken.stats).toEqual(all.stats);
    const ofIntro = await links(`${base}/content/page/${t.intro}/links?status=broken`);
    expect(ofIntro.count).toBe(3);
    expect(ofIntro.stats).toEqual({ total: 4, broken: { total: 3, changeRequest: 3 } });
    expect(ofIntro.items[0]!.locationReferences.map((l) => l.page.id)).toEqual([t.intro]);
    // Main is untouched by the change request.
    expect((await links(`/v1/spaces/${t.spaceId}/links`)).stats).toEqual({ total: 4, broken: { total: 0, changeRequest: 0 } });

    // Undoing the delete in the change request: the same links are ok again.
    const undo = await s.request('POST', `${base}/content`, { body: { changes: [{ operation: 'revert_page', page: t.install }] } });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    const restored = await links(`${base}/links`);
    expect(restored.stats).toEqual({ total: 4, broken: { total: 1, changeRequest: 1 } });
    expect(await remoteMarkdown(s, t.spaceId, t.intro, cr.id)).toContain('[install](guides/install.md) [steps](guides/install.md#steps)');

    // Merged, the space lists the broken file link; a later revert of the page's delete restores it.
    expect((await s.request('POST', `${base}/merge`)).status).toBe(200);
    const space = await links(`/v1/spaces/${t.spaceId}/links?status=broken`);
    expect(space.items.map(target)).toEqual(['url:.gitbook/assets/logo.png']);
    expect(space.stats).toEqual({ total: 4, broken: { total: 1, changeRequest: 0 } });
  });

  it('a revert of a merged delete makes the links ok again', async () => {
    const t = await linkedSpace('Revert');
    const before = (await s.request('GET', `/v1/spaces/${t.spaceId}`)).body.revision as string;
    await editMain(s, t.spaceId, [{ operation: 'delete_page', page: t.install }]);
    expect((await links(`/v1/spaces/${t.spaceId}/links`)).stats).toEqual({ total: 4, broken: { total: 2, changeRequest: 0 } });
    await editMain(s, t.spaceId, [{ operation: 'revert_page', page: t.install, revision: before }]);
    expect((await links(`/v1/spaces/${t.spaceId}/links`)).stats).toEqual({ total: 4, broken: { total: 0, changeRequest: 0 } });
    expect(await remoteMarkdown(s, t.spaceId, t.intro)).toContain('[install](guides/install.md) [steps](guides/install.md#steps)');
  });

  it('an anchor whose heading is renamed away is broken, and the listing names the page and the anchor', async () => {
    const t = await linkedSpace('Anchors');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.install, document: { markdown: '# Install\n\n## Procedure\n\nrun it\n' } },
    ]);
    const listing = await links(`/v1/spaces/${t.spaceId}/content/page/${t.intro}/links?status=broken`);
    expect(listing.items).toHaveLength(1);
    const [item] = listing.items;
    expect(item!.targetReference).toMatchObject({
      kind: 'page',
      page: { id: t.install },
      internalLocation: { type: 'anchor', anchor: 'steps' },
    });
    expect(listing.stats).toEqual({ total: 4, broken: { total: 1, changeRequest: 0 } });
    // The link stays written as it was meant: renaming the heading back repairs it.
    expect(await remoteMarkdown(s, t.spaceId, t.intro)).toContain('[steps](guides/install.md#steps)');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.install, document: { markdown: '# Install\n\n## Steps\n\nrun it\n' } },
    ]);
    expect((await links(`/v1/spaces/${t.spaceId}/links`)).stats).toEqual({ total: 4, broken: { total: 0, changeRequest: 0 } });
  });

  it('a change request moving a page and one linking to it merge without conflict, and the link follows', async () => {
    const t = await linkedSpace('Merge');
    const move = await changeRequestWith(s, t.spaceId, 'move install', [
      { operation: 'update_page', page: t.install, into: null, slug: 'setup' },
    ]);
    const link = await changeRequestWith(s, t.spaceId, 'link install', [
      { operation: 'update_page', page: t.guides, document: { markdown: '# Guides\n\nsee [the install](install.md#steps)\n' } },
    ]);
    const first = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${move.id}/merge`);
    expect(first.body).toMatchObject({ result: 'merge' });
    const second = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${link.id}/merge`);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ result: 'merge' });
    expect(await remoteMarkdown(s, t.spaceId, t.guides)).toBe('see [the install](setup.md#steps)\n');
    expect((await links(`/v1/spaces/${t.spaceId}/links`)).stats).toMatchObject({ broken: { total: 0 } });
  });
});
