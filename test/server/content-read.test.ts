import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { FILE_BYTES, MARKDOWN, writeFixture } from './content-read-fixture.js';

const gitOid = (bytes: Buffer | string) => {
  const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
};

type Page = { id: string; type: string; pages?: Page[]; [key: string]: any };
const flatten = (pages: Page[]): Page[] => pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);
const byId = (pages: Page[]) => new Map(flatten(pages).map((p) => [p.id, p]));

describe.each(testDialects())('content reads of a space (%s)', (dialect) => {
  let s: TestServer;
  let spaceId: string;
  let initialRevision: string;
  let revision: string;
  beforeAll(async () => {
    s = await startServer(dialect);
    const space = await createSpace(s, { title: 'Docs' });
    spaceId = space.id;
    initialRevision = space.revision;
    revision = (await writeFixture(s, { spaceId })).revision;
  });
  afterAll(async () => {
    await s?.close();
  });

  it('GET content answers the head revision: nested pages of every type, files, variables', async () => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/content`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/content', 200);
    const body = res.body;
    expect(body).toMatchObject({
      object: 'revision',
      id: revision,
      type: 'edits',
      parents: [initialRevision],
      tags: [],
      reusableContents: [],
      variables: { product: 'docsync' },
    });
    expect(body.urls.app).toBe(`${s.url}/app/spaces/${spaceId}`);
    expect(body.pages.map((p: Page) => p.id)).toEqual(['p-intro', 'p-guides', 'p-reference', 'p-empty']);
    const pages = byId(body.pages);
    expect([...pages.keys()]).toEqual(['p-intro', 'p-guides', 'p-install', 'p-deep', 'p-reference', 'p-api', 'p-external', 'p-empty']);
    expect(pages.get('p-reference')).toEqual({
      id: 'p-reference',
      title: 'Reference',
      type: 'group',
      kind: 'group',
      slug: 'reference',
      path: 'reference',
      pages: [expect.objectContaining({ id: 'p-api' }), expect.objectContaining({ id: 'p-external' })],
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
    });
    expect(pages.get('p-external')).toEqual({
      id: 'p-external',
      title: 'Website',
      type: 'link',
      kind: 'link',
      target: { kind: 'url', url: 'https://example.com/docs' },
      href: 'https://example.com/docs',
      hidden: false,
    });
    expect(pages.get('p-guides')!.layout).toEqual({
      width: 'wide',
      cover: true,
      coverSize: 'hero',
      coverMask: 'none',
      title: true,
      description: true,
      tableOfContents: true,
      outline: false,
      pagination: true,
      metadata: true,
      tags: true,
      actions: true,
      anchors: true,
    });
    expect(pages.get('p-intro')).toMatchObject({
      emoji: '1f389',
      description: 'Start here',
      kind: 'sheet',
      tags: [],
      urls: { app: `${s.url}/app/spaces/${spaceId}/pages/p-intro` },
    });
    expect(pages.get('p-install')).toMatchObject({ hidden: true, path: 'guides/install' });
    expect(pages.get('p-deep')).toMatchObject({ path: 'guides/install/deep', variables: { version: '1.2' } });
    expect(pages.get('p-api')).toMatchObject({ cover: { ref: { kind: 'file', file: 'file-logo' }, yPos: 0 } });
    expect(body.files.map((f: { id: string }) => f.id)).toEqual(['file-logo', 'file-manual', 'file-notes']);
  });

  it('git metadata: Git Sync paths and git blob ids of the stored markdown; metadata=false omits it', async () => {
    const pages = byId((await s.request('GET', `/v1/spaces/${spaceId}/content`)).body.pages);
    const git = (id: string) => pages.get(id)!.git;
    expect(git('p-intro')).toEqual({ oid: gitOid(MARKDOWN.intro), path: 'README.md' });
    expect(git('p-guides')).toEqual({ oid: gitOid(MARKDOWN.guides), path: 'guides/README.md' });
    expect(git('p-install')).toEqual({ oid: gitOid(MARKDOWN.install), path: 'guides/install/README.md' });
    expect(git('p-deep')).toEqual({ oid: gitOid(MARKDOWN.deep), path: 'guides/install/deep.md' });
    expect(git('p-api')).toEqual({ oid: gitOid(MARKDOWN.api), path: 'reference/api.md' });
    // An empty page is an empty file, whose blob id git knows.
    expect(git('p-empty')).toEqual({ oid: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391', path: 'empty.md' });
    // A revision's pages carry their markdown (docs/api.md): the empty page's is empty.
    expect(pages.get('p-empty')!.markdown).toBe('');
    expect(pages.get('p-empty')).not.toHaveProperty('document');
    expect(pages.get('p-empty')).not.toHaveProperty('documentId');
    expect(pages.get('p-intro')!.markdown).toBe(MARKDOWN.intro);

    const bare = await s.request('GET', `/v1/spaces/${spaceId}/content?metadata=false&computed=false`);
    expectSpec(bare, 'GET', '/spaces/{spaceId}/content', 200);
    for (const page of flatten(bare.body.pages)) expect(page).not.toHaveProperty('git');
    for (const file of bare.body.files) expect(file).not.toHaveProperty('git');
  });

  it('GET content/pages answers the whole tree; format=markdown inlines every page body (extension)', async () => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/content/pages`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/content/pages', 200);
    expect(Object.keys(res.body)).toEqual(['pages']);
    expect(flatten(res.body.pages)).toHaveLength(8);
    expect(
      byId(res.body.pages)
        .get('p-install')!
        .document.nodes.map((n: { type: string }) => n.type),
    ).toEqual(['heading-1', 'code', 'list-unordered']);

    const md = await s.request('GET', `/v1/spaces/${spaceId}/content/pages?format=markdown`);
    expectSpec(md, 'GET', '/spaces/{spaceId}/content/pages', 200);
    const pages = byId(md.body.pages);
    expect(pages.get('p-intro')!.markdown).toBe(MARKDOWN.intro);
    expect(pages.get('p-deep')!.markdown).toBe(MARKDOWN.deep);
    expect(pages.get('p-api')!.markdown).toBe(MARKDOWN.api);
    expect(pages.get('p-empty')!.markdown).toBe('');
    for (const page of flatten(md.body.pages)) expect(page).not.toHaveProperty('document');
    expect(pages.get('p-reference')).not.toHaveProperty('markdown');

    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/pages?format=html`), 400, /format/);
  });

  it('GET content/files pages through the files by id; downloadURL answers the bytes', async () => {
    const first = await s.request('GET', `/v1/spaces/${spaceId}/content/files?limit=2`);
    expectSpec(first, 'GET', '/spaces/{spaceId}/content/files', 200);
    expect(first.body.count).toBe(2);
    expect(first.body.next?.page).toEqual(expect.any(String));
    const second = await s.request('GET', `/v1/spaces/${spaceId}/content/files?limit=2&page=${first.body.next.page}`);
    expectSpec(second, 'GET', '/spaces/{spaceId}/content/files', 200);
    expect(second.body).not.toHaveProperty('next');
    const items = [...first.body.items, ...second.body.items];
    expect(items.map((f: { id: string }) => f.id)).toEqual(['file-logo', 'file-manual', 'file-notes']);
    const logo = items[0];
    expect(logo).toMatchObject({
      name: 'logo.png',
      contentType: 'image/png',
      size: FILE_BYTES.logo!.length,
      dimensions: { width: 64, height: 32 },
      git: { oid: gitOid(FILE_BYTES.logo!), path: '.gitbook/assets/logo.png' },
    });
    expect(items[1]).not.toHaveProperty('dimensions');
    expect(logo.downloadURL).toBe(`${s.url}/v1/spaces/${spaceId}/revisions/${revision}/files/file-logo/download`);

    const download = await fetch(logo.downloadURL, { headers: { authorization: `Bearer ${s.token}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(FILE_BYTES.logo);
    expect((await fetch(logo.downloadURL)).status).toBe(401);

    const all = await s.request('GET', `/v1/spaces/${spaceId}/content/files?limit=1000&metadata=false`);
    expect(all.body.items.every((f: object) => !('git' in f))).toBe(true);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/files?page=garbage`), 400, /page/);
  });

  it('GET content/files/{fileId} answers one file; an unknown one is a 404 naming it', async () => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/content/files/file-notes`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/content/files/{fileId}', 200);
    expect(res.body).toMatchObject({
      id: 'file-notes',
      name: 'notes.txt',
      contentType: 'text/plain',
      git: { oid: gitOid(FILE_BYTES.notes!) },
    });
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/files/nope`), 404, /file nope/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/revisions/${revision}/files/nope/download`), 404, /file nope/);
  });

  it('GET content/page/{pageId}: the JSON document by default, markdown with format=markdown', async () => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-deep`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/content/page/{pageId}', 200);
    expect(res.body.document.nodes.map((n: { type: string }) => n.type)).toEqual(['heading-1', 'blockquote', 'divider', 'list-ordered']);
    expect(res.body).not.toHaveProperty('markdown');

    const md = await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-deep?format=markdown`);
    expectSpec(md, 'GET', '/spaces/{spaceId}/content/page/{pageId}', 200);
    expect(md.body.markdown).toBe(MARKDOWN.deep);
    expect(md.body).not.toHaveProperty('document');

    const doc = await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-intro?format=document`);
    expectSpec(doc, 'GET', '/spaces/{spaceId}/content/page/{pageId}', 200);
    expect(doc.body.document.nodes[0]).toMatchObject({ type: 'heading-1', meta: { id: 'introduction' } });

    // A page comes with its children, rendered the same way.
    const parent = await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-guides?format=markdown`);
    expectSpec(parent, 'GET', '/spaces/{spaceId}/content/page/{pageId}', 200);
    expect(parent.body.pages[0].pages[0]).toMatchObject({ id: 'p-deep', markdown: MARKDOWN.deep });

    for (const id of ['p-reference', 'p-external']) {
      expectSpec(await s.request('GET', `/v1/spaces/${spaceId}/content/page/${id}`), 'GET', '/spaces/{spaceId}/content/page/{pageId}', 200);
    }
  });

  it('page reads accept evaluated (true, false, deterministic-only), computed and metadata; reject bad values', async () => {
    for (const query of [
      'evaluated=true',
      'evaluated=false',
      'evaluated=deterministic-only',
      'computed=false',
      'dereferenced=reusable-contents',
      'format.markdown.refs=stable&format=markdown',
    ]) {
      const res = await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-install?${query}`);
      expectSpec(res, 'GET', '/spaces/{spaceId}/content/page/{pageId}', 200);
    }
    const bare = await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-install?metadata=false`);
    expect(bare.body).not.toHaveProperty('git');
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-install?evaluated=sometimes`), 400, /evaluated/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-install?format=pdf`), 400, /format/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-install?bogus=1`), 400);
  });

  it('an unknown page is a 404 naming it', async () => {
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/page/nope`), 404, /page nope/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/page/bad%20id`), 400);
  });

  it('GET content/path/{pagePath} finds nested pages and groups by their path', async () => {
    const cases: [string, string][] = [
      ['introduction', 'p-intro'],
      ['guides', 'p-guides'],
      ['guides/install', 'p-install'],
      ['guides/install/deep', 'p-deep'],
      ['reference', 'p-reference'],
      ['reference/api', 'p-api'],
      ['guides/install/deep/', 'p-deep'],
    ];
    for (const [path, id] of cases) {
      const res = await s.request('GET', `/v1/spaces/${spaceId}/content/path/${path}`);
      expectSpec(res, 'GET', '/spaces/{spaceId}/content/path/{pagePath}', 200);
      expect(res.body.id).toBe(id);
    }
    const encoded = await s.request('GET', `/v1/spaces/${spaceId}/content/path/guides%2Finstall%2Fdeep?format=markdown`);
    expectSpec(encoded, 'GET', '/spaces/{spaceId}/content/path/{pagePath}', 200);
    expect(encoded.body).toMatchObject({ id: 'p-deep', markdown: MARKDOWN.deep });
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/path/guides/missing`), 404, /guides\/missing/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/path/website`), 404, /website/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/path/`), 404);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/path/%E0%A4%A`), 400);
  });

  it("revisions/{revisionId} reads any revision of the space; another space's revision is a 404", async () => {
    const base = `/v1/spaces/${spaceId}/revisions`;
    const head = await s.request('GET', `${base}/${revision}`);
    expectSpec(head, 'GET', '/spaces/{spaceId}/revisions/{revisionId}', 200);
    expect(head.body.urls.app).toBe(`${s.url}/app/spaces/${spaceId}/revisions/${revision}`);
    const old = await s.request('GET', `${base}/${initialRevision}`);
    expectSpec(old, 'GET', '/spaces/{spaceId}/revisions/{revisionId}', 200);
    expect(old.body).toMatchObject({ id: initialRevision, parents: [], files: [] });
    expect(old.body.pages.map((p: Page) => p.title)).toEqual(['Introduction']);

    const pages = await s.request('GET', `${base}/${revision}/pages?format=markdown`);
    expectSpec(pages, 'GET', '/spaces/{spaceId}/revisions/{revisionId}/pages', 200);
    expect(byId(pages.body.pages).get('p-guides')!.markdown).toBe(MARKDOWN.guides);
    const files = await s.request('GET', `${base}/${revision}/files?limit=1`);
    expectSpec(files, 'GET', '/spaces/{spaceId}/revisions/{revisionId}/files', 200);
    expect(files.body.items.map((f: { id: string }) => f.id)).toEqual(['file-logo']);
    const file = await s.request('GET', `${base}/${revision}/files/file-manual`);
    expectSpec(file, 'GET', '/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}', 200);
    const page = await s.request('GET', `${base}/${revision}/page/p-api?format=markdown`);
    expectSpec(page, 'GET', '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}', 200);
    expect(page.body.markdown).toBe(MARKDOWN.api);
    const byPath = await s.request('GET', `${base}/${revision}/path/reference/api`);
    expectSpec(byPath, 'GET', '/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}', 200);
    expect(byPath.body.id).toBe('p-api');
    expectError(await s.request('GET', `${base}/${initialRevision}/page/p-api`), 404, /page p-api/);

    const other = await createSpace(s, { title: 'Other' });
    expectError(await s.request('GET', `/v1/spaces/${other.id}/revisions/${revision}`), 404, new RegExp(`revision ${revision}`));
    expectError(await s.request('GET', `/v1/spaces/${other.id}/revisions/${revision}/files/file-logo/download`), 404);
    expectError(await s.request('GET', `${base}/nope/pages`), 404, /revision nope/);
  });

  it('a read member may read; a non-member and a guest get 404', async () => {
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const res = await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-intro?format=markdown`, { token: reader.token });
    expectSpec(res, 'GET', '/spaces/{spaceId}/content/page/{pageId}', 200);
    const download = await fetch(`${s.url}/v1/spaces/${spaceId}/revisions/${revision}/files/file-notes/download`, {
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('plain notes\n');

    const stranger = await s.user();
    const guest = await s.user({ org: s.orgId, role: null });
    for (const token of [stranger.token, guest.token]) {
      for (const path of [
        '/content',
        '/content/pages',
        '/content/files',
        '/content/page/p-intro',
        '/content/path/introduction',
        `/revisions/${revision}`,
        `/revisions/${revision}/files/file-notes/download`,
      ]) {
        expectError(await s.request('GET', `/v1/spaces/${spaceId}${path}`, { token }), 404, new RegExp(`space ${spaceId}`));
      }
    }
  });
});
