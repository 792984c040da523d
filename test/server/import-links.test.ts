import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { appendImported, findPage } from '../../src/content/index.js';
import type { ContentTree } from '../../src/model/index.js';
import { getText } from '../../src/server/store/blobs.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createSpace } from '../helpers/spaces.js';
import { readTree } from '../helpers/content.js';
import { changeRequestWith, editMain, remoteMarkdown } from '../sync/fixture.js';

// Issue 15: pages and reusable contents made by an import store their links to pages, headings
// and files as references, as the batch endpoint stores those of the documents it is sent: a
// move of the target changes the path the linking page renders, its stored document untouched.
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const WELCOME =
  'See [install](guides/install.md), [steps](guides/install.md#steps), [guides](guides/), ![logo](.gitbook/assets/logo.png), [api](./api.md), [missing](nowhere.md) and [site](https://example.com).\n\n{% include ".gitbook/includes/note.md" %}\n';
const FOLDER: Record<string, string | Uint8Array> = {
  'README.md': `# Welcome\n\n${WELCOME}`,
  'SUMMARY.md':
    '# Table of contents\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n  * [Install](guides/install.md)\n* [API](api.md)\n',
  'guides/README.md': '# Guides\n\nBack to [the start](../README.md).\n',
  'guides/install.md': '# Install\n\n## Steps\n\nrun it\n',
  'api.md': '# API\n',
  '.gitbook/includes/note.md': '---\ntitle: Note\n---\nRead [the steps](../../guides/install.md#steps) and ![logo](../assets/logo.png).\n',
  '.gitbook/assets/logo.png': PNG,
};

/** A website: its pages link to each other in every form a page may (relative, absolute path, full URL, fragment). */
const site = (base: string): Record<string, [string, string]> => ({
  'index.html': [
    'Home',
    '<h1>Home</h1><p><a href="guide.html">guide</a> <a href="/site/guide.html#steps">steps</a> <a href="faq.html">faq</a> <a href="missing.html">gone</a> <a href="https://example.com/x.html">ext</a></p>',
  ],
  'guide.html': ['Guide', '<h1>Guide</h1><h2>Steps</h2><p>Go <a href="./index.html">home</a>.</p>'],
  'faq.html': ['FAQ', `<p>Answers, see <a href="${base}/site/guide.html">the guide</a>.</p>`],
});

type Item = { status: string; targetReference: any; locationReferences: { page: { id: string } }[] };
const target = (i: Item) =>
  i.targetReference.kind === 'page'
    ? `page:${i.targetReference.page.id}${i.targetReference.internalLocation ? `#${i.targetReference.internalLocation.anchor}` : ''}`
    : i.targetReference.kind === 'file'
      ? `file:${i.targetReference.file.id}`
      : `url:${i.targetReference.url}`;

describe.each(testDialects())('imported pages store links as references (%s)', (dialect) => {
  let s: TestServer;
  let source: Server;
  let base: string;
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    const zip = zipSync(
      Object.fromEntries(
        Object.entries(FOLDER).map(([path, data]) => [`repo-main/${path}`, typeof data === 'string' ? strToU8(data) : data]),
      ),
    );
    source = createServer((req, res) => {
      if (req.url === '/folder.zip') res.writeHead(200, { 'content-type': 'application/zip' }).end(zip);
      else if (req.url?.startsWith('/page.md')) {
        // A single markdown file linking to a page of the space by id, by path and to its heading.
        const id = new URL(req.url, 'http://x').searchParams.get('id');
        res
          .writeHead(200, { 'content-type': 'text/markdown' })
          .end(`# Notes\n\n[by id](/pages/${id}) [by path](/pages/welcome#top) [rel](guides/install.md)\n`);
      } else if (req.url?.startsWith('/site/')) {
        const page = site(base)[req.url.slice('/site/'.length)];
        if (page === undefined) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${page[0]}</title><main>${page[1]}</main>`);
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await s?.close();
    source?.closeAllConnections();
    await new Promise((resolve) => source?.close(resolve));
  });

  /** A space with its own first page (Introduction, README.md), the folder imported after it. */
  async function imported() {
    const space = await createSpace(s);
    const res = await s.request('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${base}/folder.zip`, source: 'zip' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const tree = await readTree(s, { spaceId: space.id });
    const [intro, welcome, guides, api] = tree.pages;
    expect([intro, welcome, guides, api].map((p) => p!.title)).toEqual(['Introduction', 'Welcome', 'Guides', 'API']);
    return {
      spaceId: space.id as string,
      tree,
      intro: intro!.id,
      welcome: welcome!.id,
      guides: guides!.id,
      install: guides!.pages[0]!.id,
      api: api!.id,
      file: tree.files[0]!.id,
      note: tree.reusableContents[0]!,
    };
  }
  const documentOf = async (tree: ContentTree, id: string) => getText(s.server.db.kysely, findPage(tree.pages, id)!.document!);
  const includeMarkdown = async (spaceId: string, id: string) =>
    (await s.request('GET', `/v1/spaces/${spaceId}/content/reusable-contents/${id}?format=markdown`)).body.markdown as string;

  it("resolves relative links in the imported folder's own paths and stores them as references", async () => {
    const t = await imported();
    // The folder's README is the second page here (welcome.md): its relative links still name the folder's files.
    expect(await remoteMarkdown(s, t.spaceId, t.welcome)).toBe(
      'See [install](guides/install.md), [steps](guides/install.md#steps), [guides](guides/), ![logo](.gitbook/assets/logo.png), [api](api.md), [missing](nowhere.md) and [site](https://example.com).\n\n{% include ".gitbook/includes/note.md" %}\n',
    );
    expect(await remoteMarkdown(s, t.spaceId, t.guides)).toBe('Back to [the start](../welcome.md).\n');
    // Stored as references (NUL-delimited tokens), not as the paths written.
    const stored = await documentOf(t.tree, t.welcome);
    expect(stored).toContain(`\u0000page:${t.install}@guides%2Finstall.md\u0000`);
    expect(stored).toContain(`\u0000page:${t.install}#steps@guides%2Finstall.md\u0000`);
    expect(stored).toContain(`\u0000file:${t.file}@.gitbook%2Fassets%2Flogo.png\u0000`);
    expect(stored).toContain('[missing](nowhere.md)');
    expect(await documentOf(t.tree, t.guides)).toContain(`\u0000page:${t.welcome}@welcome.md\u0000`);
    expect(await includeMarkdown(t.spaceId, t.note.id)).toBe(
      'Read [the steps](../../guides/install.md#steps) and ![logo](../assets/logo.png).\n',
    );

    const listing = await s.request('GET', `/v1/spaces/${t.spaceId}/links`);
    expect((listing.body.items as Item[]).map((i) => [target(i), i.status])).toEqual([
      [`page:${t.install}`, 'ok'],
      [`page:${t.install}#steps`, 'ok'],
      [`page:${t.guides}`, 'ok'],
      [`file:${t.file}`, 'ok'],
      [`page:${t.api}`, 'ok'],
      ['url:nowhere.md', 'broken'],
      ['url:https://example.com', 'ok'],
      [`page:${t.welcome}`, 'ok'],
    ]);
  });

  it('a move of the target changes the rendered path on the next read, in pages, includes and the document format', async () => {
    const t = await imported();
    const welcomeDocument = findPage(t.tree.pages, t.welcome)!.document;
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.install, into: null, slug: 'setup' },
      { operation: 'update_page', page: t.welcome, slug: 'start' },
    ]);
    expect(await remoteMarkdown(s, t.spaceId, t.welcome)).toBe(
      'See [install](setup.md), [steps](setup.md#steps), [guides](guides.md), ![logo](.gitbook/assets/logo.png), [api](api.md), [missing](nowhere.md) and [site](https://example.com).\n\n{% include ".gitbook/includes/note.md" %}\n',
    );
    expect(await remoteMarkdown(s, t.spaceId, t.guides)).toBe('Back to [the start](start.md).\n');
    expect(await includeMarkdown(t.spaceId, t.note.id)).toBe('Read [the steps](../../setup.md#steps) and ![logo](../assets/logo.png).\n');
    const after = await readTree(s, { spaceId: t.spaceId });
    expect(findPage(after.pages, t.welcome)!.document).toBe(welcomeDocument);

    const res = await s.request('GET', `/v1/spaces/${t.spaceId}/content/page/${t.welcome}?format=document`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const refs: unknown[] = [];
    const visit = (node: any) => {
      if (node?.type === 'link') refs.push(node.data.ref);
      for (const child of node?.nodes ?? []) visit(child);
    };
    visit(res.body.document);
    expect(refs).toEqual(
      expect.arrayContaining([
        { kind: 'page', page: t.install },
        { kind: 'anchor', anchor: 'steps', page: t.install },
        { kind: 'page', page: t.api },
      ]),
    );
  });

  it('a deleted target is broken at its last known path, counted by the change request; restored, ok', async () => {
    const t = await imported();
    const cr = await changeRequestWith(s, t.spaceId, 'drop install', [{ operation: 'delete_page', page: t.install }]);
    const links = `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/links`;
    const broken = await s.request('GET', `${links}?status=broken`);
    // Both from Welcome and from the note it embeds; nowhere.md was broken before.
    expect((broken.body.items as Item[]).map((i) => [target(i), i.locationReferences.map((l) => l.page.id)])).toEqual([
      ['url:guides/install.md', [t.welcome]],
      ['url:guides/install.md#steps', [t.welcome]],
      ['url:nowhere.md', [t.welcome]],
    ]);
    expect(broken.body.stats).toEqual({ total: 8, broken: { total: 3, changeRequest: 2 } });
    expect(await remoteMarkdown(s, t.spaceId, t.welcome, cr.id)).toContain(
      '[install](guides/install.md), [steps](guides/install.md#steps)',
    );
    const undo = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content`, {
      body: { changes: [{ operation: 'revert_page', page: t.install }] },
    });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect((await s.request('GET', links)).body.stats).toEqual({ total: 8, broken: { total: 1, changeRequest: 0 } });
  });

  it("a website's pages link to each other by reference: a move of one changes the others' paths", async () => {
    const space = await createSpace(s, { empty: true });
    const res = await s.request('POST', `/v1/spaces/${space.id}/content/import`, {
      body: { url: `${base}/site/index.html`, source: 'website' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [home, guide, faq] = (await readTree(s, { spaceId: space.id })).pages;
    expect([home, guide, faq].map((p) => p!.title)).toEqual(['Home', 'Guide', 'FAQ']);
    expect(await remoteMarkdown(s, space.id, home!.id)).toBe(
      '[guide](guide.md) [steps](guide.md#steps) [faq](faq.md) [gone](missing.html) [ext](https://example.com/x.html)\n',
    );
    expect(await remoteMarkdown(s, space.id, guide!.id)).toBe('## Steps\n\nGo [home](README.md).\n');
    expect(await remoteMarkdown(s, space.id, faq!.id)).toBe('Answers, see [the guide](guide.md).\n');
    await editMain(s, space.id, [{ operation: 'update_page', page: guide!.id, slug: 'handbook' }]);
    expect(await remoteMarkdown(s, space.id, home!.id)).toBe(
      '[guide](handbook.md) [steps](handbook.md#steps) [faq](faq.md) [gone](missing.html) [ext](https://example.com/x.html)\n',
    );
    expect(await remoteMarkdown(s, space.id, faq!.id)).toBe('Answers, see [the guide](handbook.md).\n');
  });

  it('a markdown file imported by URL reads its links as a batch reads a page: /pages/ by id or path, relative from where it is', async () => {
    const t = await imported();
    const res = await s.request('POST', `/v1/spaces/${t.spaceId}/content/import`, {
      body: { url: `${base}/page.md?id=${t.install}`, source: 'markdown' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const notes = (await readTree(s, { spaceId: t.spaceId })).pages.at(-1)!;
    expect(notes.title).toBe('Notes');
    expect(await remoteMarkdown(s, t.spaceId, notes.id)).toBe(
      '[by id](guides/install.md) [by path](welcome.md#top) [rel](guides/install.md)\n',
    );
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.install, into: null, slug: 'setup' },
      { operation: 'update_page', page: t.welcome, slug: 'start' },
    ]);
    // A file fetched by URL is in no folder: its relative link was read from where it is (notes.md), as a batch reads it.
    expect(await remoteMarkdown(s, t.spaceId, notes.id)).toBe('[by id](setup.md) [by path](start.md#top) [rel](setup.md)\n');
  });
});

describe('imported links (pure)', () => {
  const ctx = () => {
    let n = 0;
    return { newId: () => `id${(n += 1)}`, now: '2026-01-01T00:00:00.000Z', hash: (text: string) => `d:${text}` };
  };
  const tree: ContentTree = {
    pages: [
      { id: 'g', type: 'group', title: 'Group', slug: 'group', pages: [{ id: 'a', type: 'document', title: 'A', slug: 'a', pages: [] }] },
    ],
    files: [],
    variables: {},
    reusableContents: [],
  };

  it('reads a NUL in imported text as U+FFFD, so it never forms a reference', () => {
    const result = appendImported(
      tree,
      [{ source: 'x.md', path: 'x.md', kind: 'document', title: 'X', markdown: 'a\u0000page:a@a.md\u0000b\n', pages: [] }],
      [],
      ctx(),
    );
    if (!result.ok) throw new Error(result.message);
    expect([...result.value.documents.values()]).toEqual(['a\uFFFDpage:a@a.md\uFFFDb\n']);
  });

  it('turns a link to a group into its text and keeps a link naming nothing, as a batch does', () => {
    const result = appendImported(
      tree,
      [{ source: 'x.md', path: 'x.md', kind: 'document', title: 'X', markdown: '[group](/pages/g) [a](/pages/a) [b](b.md)\n', pages: [] }],
      [],
      ctx(),
    );
    if (!result.ok) throw new Error(result.message);
    expect([...result.value.documents.values()]).toEqual(['group [a](\u0000page:a@README.md\u0000) [b](b.md)\n']);
  });
});
