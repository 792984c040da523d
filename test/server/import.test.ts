import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { readTree } from '../helpers/content.js';
import { getBlob, getText } from '../../src/server/store/blobs.js';
import { IMPORT_LIMITS } from '../../src/server/import/limits.js';
import type { TreePage } from '../../src/model/index.js';

const html = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/site/index.html">Home</a></nav>${body}</body></html>`;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

const ROUTES: Record<string, { type: string; body: string | Uint8Array; status?: number }> = {
  '/site/index.html': {
    type: 'text/html; charset=utf-8',
    body: html(
      'Home',
      '<main><h1>Welcome</h1><p>Start <a href="guide.html">here</a>, <a href="faq.html#top">faq</a>, <a href="missing.html">gone</a>, <a href="/elsewhere/x.html">out</a>, <a href="http://example.invalid/">ext</a>, <a href="logo.png">logo</a>.</p></main>',
    ),
  },
  '/site/guide.html': {
    type: 'text/html',
    body: html(
      'Guide',
      '<h1>The guide</h1><h2>Steps</h2><ol><li>First</li><li>Second</li></ol><p><a href="index.html">back</a> <a href="faq.html">faq</a></p>',
    ),
  },
  '/site/faq.html': { type: 'text/html', body: html('FAQ', '<p>Questions and <strong>answers</strong>.</p>') },
  '/site/missing.html': { type: 'text/plain', body: 'nope', status: 404 },
  '/elsewhere/x.html': { type: 'text/html', body: html('Out', '<p>out of scope</p>') },
  '/doc.md': { type: 'text/markdown', body: '---\ndescription: A single file\n---\n# Release notes\n\n- fixed things\n' },
  '/plain.md': { type: 'text/markdown', body: 'No heading here.\n' },
  '/folder.zip': {
    type: 'application/zip',
    body: zipSync({
      'repo-main/README.md': strToU8('# Welcome\n\nThe start.\n'),
      'repo-main/SUMMARY.md': strToU8(
        '# Table of contents\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n  * [Install](guides/install.md)\n\n## Reference\n\n* [API](api.md)\n* [Website](https://example.com)\n',
      ),
      'repo-main/guides/README.md': strToU8('# Guides\n\nAll guides.\n'),
      'repo-main/guides/install.md': strToU8('# Installing\n\n![logo](../.gitbook/assets/logo.png)\n'),
      'repo-main/api.md': strToU8('# API reference\n'),
      'repo-main/unlisted.md': strToU8('# Not in the summary\n'),
      'repo-main/.gitbook/assets/logo.png': PNG,
    }),
  },
  '/nosummary.zip': {
    type: 'application/zip',
    body: zipSync({
      'b.md': strToU8('# Bee\n'),
      'a.md': strToU8('# Ay\n'),
      'README.md': strToU8('# Home\n'),
      'dir/README.md': strToU8('# Dir\n'),
      'dir/c.md': strToU8('# Sea\n'),
    }),
  },
  '/traversal.zip': { type: 'application/zip', body: zipSync({ 'README.md': strToU8('# Hi\n'), '../evil.md': strToU8('# Evil\n') }) },
  '/bomb.zip': { type: 'application/zip', body: zipSync({ 'README.md': new Uint8Array(4 * 1024 * 1024) }, { level: 9 }) },
  '/notzip.zip': { type: 'application/zip', body: 'this is not a zip' },
  '/big.md': { type: 'text/markdown', body: 'x'.repeat(64 * 1024) },
};

async function startSourceServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/slow') return; // never answers: the import must time out
    if (path === '/redirect') {
      res.writeHead(302, { location: '/site/index.html' }).end();
      return;
    }
    const route = ROUTES[path];
    if (!route) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(route.status ?? 200, { 'content-type': route.type }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const titles = (pages: TreePage[]): unknown[] => pages.map((p) => (p.pages.length > 0 ? [p.title, titles(p.pages)] : p.title));

describe.each(testDialects())('content import (%s)', (dialect) => {
  let s: TestServer;
  let src: { url: string; server: Server };
  const saved = { ...IMPORT_LIMITS };
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    src = await startSourceServer();
  });
  afterAll(async () => {
    await s?.close();
    src?.server.closeAllConnections();
    await new Promise((resolve) => src?.server.close(resolve));
  });
  afterEach(() => {
    Object.assign(IMPORT_LIMITS, saved);
  });

  const importInto = (spaceId: string, body: unknown, cr?: string) =>
    s.request('POST', cr ? `/v1/spaces/${spaceId}/change-requests/${cr}/content/import` : `/v1/spaces/${spaceId}/content/import`, { body });

  it('imports a website: the page and the same-folder pages it links to, one new revision', async () => {
    const space = await createSpace(s);
    const res = await importInto(space.id, { url: `${src.url}/redirect`, source: 'website' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // Found: index, guide, faq, missing (404, not imported); other folders, files and hosts are not followed.
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: 3, totalResources: 4 });
    expect(res.headers.get('location')).toBe(`${s.url}/v1/spaces/${space.id}/revisions/${res.body.revision}`);
    const spaceNow = await s.request('GET', `/v1/spaces/${space.id}`);
    expect(spaceNow.body.revision).toBe(res.body.revision);
    const revision = await s.server.db.kysely
      .selectFrom('revisions')
      .selectAll()
      .where('id', '=', res.body.revision)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(revision.parents)).toEqual([space.revision]);

    const tree = await readTree(s, { spaceId: space.id });
    expect(titles(tree.pages)).toEqual(['Introduction', 'Welcome', 'The guide', 'FAQ']);
    const [, home, guide, faq] = tree.pages;
    expect(home!.slug).toBe('welcome');
    expect(guide!.slug).toBe('guide');
    const db = s.server.db.kysely;
    // Links between the imported pages are references to them (test/server/import-links.test.ts); others stay as written.
    expect(await getText(db, home!.document!)).toContain(`Start [here](\u0000page:${guide!.id}@guide.md\u0000)`);
    expect(await getText(db, home!.document!)).toContain('[gone](missing.html), [out](/elsewhere/x.html)');
    expect(await getText(db, home!.document!)).not.toContain('Home');
    expect(await getText(db, guide!.document!)).toMatch(/## Steps\n\n1\. First\n2\. Second/);
    expect(await getText(db, faq!.document!)).toContain('Questions and **answers**.');
  });

  it('imports one HTML page without following links with source html', async () => {
    const space = await createSpace(s);
    const res = await importInto(space.id, { url: `${src.url}/site/index.html`, source: 'html' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ importedResources: 1, totalResources: 1 });
    expect(titles((await readTree(s, { spaceId: space.id })).pages)).toEqual(['Introduction', 'Welcome']);
  });

  it('imports a markdown file as one page, front matter and heading read as the batch endpoint reads them', async () => {
    const space = await createSpace(s);
    const res = await importInto(space.id, { url: `${src.url}/doc.md`, source: 'markdown' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ importedResources: 1, totalResources: 1 });
    const again = await importInto(space.id, { url: `${src.url}/plain.md`, source: 'markdown' });
    expect(again.status).toBe(201);
    const tree = await readTree(s, { spaceId: space.id });
    expect(tree.pages.map((p) => [p.title, p.slug])).toEqual([
      ['Introduction', 'introduction'],
      ['Release notes', 'doc'],
      ['plain', 'plain'],
    ]);
    expect(tree.pages[1]!.description).toBe('A single file');
    expect(await getText(s.server.db.kysely, tree.pages[1]!.document!)).toBe('- fixed things\n');
  });

  it('imports a zipped Git Sync folder in SUMMARY.md order, with assets as files', async () => {
    const space = await createSpace(s);
    const res = await importInto(space.id, { url: `${src.url}/folder.zip`, source: 'zip' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // 6 pages (a group and a link page included) and 1 file, of 7 entries in the archive.
    expect(res.body).toMatchObject({ importedResources: 7, totalResources: 7 });
    const tree = await readTree(s, { spaceId: space.id });
    expect(titles(tree.pages)).toEqual([
      'Introduction',
      'Welcome',
      ['Guides', ['Installing']],
      ['Reference', ['API reference', 'Website']],
    ]);
    const reference = tree.pages[3]!;
    expect(reference.type).toBe('group');
    expect(reference.pages[1]).toMatchObject({ type: 'link', href: 'https://example.com' });
    expect(tree.pages[2]!.pages[0]!.slug).toBe('install');
    expect(tree.files).toEqual([
      { id: expect.any(String), name: 'logo.png', contentType: 'image/png', size: PNG.length, blob: expect.any(String) },
    ]);
    expect(new Uint8Array((await getBlob(s.server.db.kysely, tree.files[0]!.blob))!)).toEqual(PNG);
  });

  it('without SUMMARY.md, takes every markdown file sorted, README first, folders under their README', async () => {
    const space = await createSpace(s, { empty: true });
    const res = await importInto(space.id, { url: `${src.url}/nosummary.zip`, source: 'zip' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(titles((await readTree(s, { spaceId: space.id })).pages)).toEqual(['Home', 'Ay', 'Bee', ['Dir', ['Sea']]]);
  });

  it('imports into a change request, leaving the space head alone', async () => {
    const space = await createSpace(s);
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Import' } });
    expect(cr.status, JSON.stringify(cr.body)).toBe(201);
    const res = await importInto(space.id, { url: `${src.url}/doc.md`, source: 'markdown' }, String(cr.body.number));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(titles((await readTree(s, { spaceId: space.id, changeRequestId: cr.body.id })).pages)).toEqual([
      'Introduction',
      'Release notes',
    ]);
    expect(titles((await readTree(s, { spaceId: space.id })).pages)).toEqual(['Introduction']);
    const revision = await s.server.db.kysely
      .selectFrom('revisions')
      .selectAll()
      .where('id', '=', res.body.revision)
      .executeTakeFirstOrThrow();
    expect(revision.change_request_id).toBe(cr.body.id);
  });

  it('answers 400 for bad sources, archives and fetches, and writes nothing', async () => {
    const space = await createSpace(s);
    const bad = async (body: unknown, message: RegExp) => expectError(await importInto(space.id, body), 400, message);
    await bad({ url: `${src.url}/doc.md`, source: 'notion' }, /notion/);
    await bad({ url: `${src.url}/doc.md`, source: 'carrier-pigeon' }, /source/);
    await bad({ url: 'not a url', source: 'markdown' }, /url/);
    await bad({ source: 'markdown' }, /url/);
    await bad({ url: `${src.url}/nowhere.md`, source: 'markdown' }, /404/);
    await bad({ url: `${src.url}/doc.md`, source: 'website' }, /not an HTML page/);
    await bad({ url: `${src.url}/traversal.zip`, source: 'zip' }, /\.\./);
    await bad({ url: `${src.url}/notzip.zip`, source: 'zip' }, /zip/);
    await bad({ url: 'ftp://example.com/x.md', source: 'markdown' }, /http/);
    IMPORT_LIMITS.maxUnzippedBytes = 1024 * 1024;
    await bad({ url: `${src.url}/bomb.zip`, source: 'zip' }, /expands to more than/);
    IMPORT_LIMITS.maxPageBytes = 1000;
    await bad({ url: `${src.url}/big.md`, source: 'markdown' }, /larger than 1000 bytes/);
    IMPORT_LIMITS.timeoutMs = 200;
    await bad({ url: `${src.url}/slow`, source: 'markdown' }, new RegExp(`${src.url}/slow`));
    const after = await s.request('GET', `/v1/spaces/${space.id}`);
    expect(after.body.revision).toBe(space.revision);
  });

  it('needs the edit role, an unlocked space and an open change request', async () => {
    const space = await createSpace(s);
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const body = { url: `${src.url}/doc.md`, source: 'markdown' };
    expectError(await s.request('POST', `/v1/spaces/${space.id}/content/import`, { body, token: reader.token }), 403);
    expectError(await importInto('nope', body), 404);
    expectError(await importInto(space.id, body, 'nope'), 404);
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: {} });
    expect(
      (await s.request('PATCH', `/v1/spaces/${space.id}/change-requests/${cr.body.id}`, { body: { status: 'archived' } })).status,
    ).toBe(200);
    expectError(await importInto(space.id, body, cr.body.id), 409, /archived/);
    expect((await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { editMode: 'locked' } })).status).toBe(200);
    expectError(await importInto(space.id, body), 409, /locked/);
  });
});

describe.each(testDialects())('content import without --allow-private-fetch (%s)', (dialect) => {
  let s: TestServer;
  let src: { url: string; server: Server };
  beforeAll(async () => {
    s = await startServer(dialect);
    src = await startSourceServer();
  });
  afterAll(async () => {
    await s?.close();
    src?.server.closeAllConnections();
    await new Promise((resolve) => src?.server.close(resolve));
  });

  it('refuses loopback addresses with a 400 naming the URL', async () => {
    const space = await createSpace(s);
    const url = `${src.url}/doc.md`;
    const res = await s.request('POST', `/v1/spaces/${space.id}/content/import`, { body: { url, source: 'markdown' } });
    expectError(res, 400, url);
    expect(res.body.error.message).toMatch(/loopback/);
  });
});
