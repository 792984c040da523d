import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { httpFixture, type Fixture } from '../client/http-fixture.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { fetchContent, type FetchProgress } from '../../src/sync/remote/content.js';
import { changeRequestWith, editMain } from './fixture.js';

type Event = { stage: string; done: number; total: number };

/**
 * Forwards to the server, taking every page's `markdown` out of revision reads, as the hosted
 * API answers them; download links point at the proxy, so they get the token.
 */
async function withoutInlineMarkdown(s: TestServer): Promise<Fixture> {
  const proxy: Fixture = await httpFixture(async (req, res, seen) => {
    const upstream = await fetch(new URL(seen.url, s.url), {
      method: req.method ?? 'GET',
      headers: { authorization: seen.authorization ?? '' },
    });
    const revisionRead = /^\/v1\/spaces\/[^/]+(\/content|\/change-requests\/[^/]+\/content|\/revisions\/[^/]+)$/.test(
      new URL(seen.url, s.url).pathname,
    );
    let body = Buffer.from(await upstream.arrayBuffer());
    if (revisionRead && upstream.ok) {
      const strip = (pages: Record<string, unknown>[]): unknown[] =>
        pages.map(({ markdown: _m, ...page }) => ({ ...page, pages: strip((page.pages ?? []) as Record<string, unknown>[]) }));
      const revision = JSON.parse(body.toString('utf8')) as { pages: Record<string, unknown>[] };
      body = Buffer.from(JSON.stringify({ ...revision, pages: strip(revision.pages) }).replaceAll(s.url, proxy.url));
    }
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(body);
  });
  return proxy;
}

describe('fetch progress', () => {
  let s: TestServer;
  let client: Client;
  let work: string;
  let spaceId: string;
  const open: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    s = await startServer('sqlite');
    client = createClient({ baseUrl: s.url, token: s.token });
    work = await mkdtemp(join(tmpdir(), 'docsync-progress-'));
    spaceId = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Progress', empty: true } })).body.id;
    // Four pages: a document with a child, a group holding a link, and two files.
    const ids = await editMain(s, spaceId, [
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '# Guide\n\nRead on.\n' } },
      { operation: 'insert_page', type: 'group', ref: 'more', title: 'More', document: {} },
      {
        operation: 'insert_files',
        files: [
          { name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('a\n').toString('base64') },
          { name: 'b.txt', contentType: 'text/plain', base64: Buffer.from('b\n').toString('base64') },
        ],
      },
    ]);
    await editMain(s, spaceId, [
      { operation: 'insert_page', into: ids.get('guide'), title: 'Install', document: { markdown: '# Install\n\nRun it.\n' } },
      { operation: 'insert_page', into: ids.get('more'), type: 'link', title: 'Site', href: 'https://example.com', document: {} },
    ]);
  });
  afterAll(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('from our server: every page at once when the revision is read, then the files one by one', async () => {
    const events: FetchProgress[] = [];
    await fetchContent(client, { space: spaceId }, (event) => events.push({ ...event }));
    expect(events).toEqual([
      { stage: 'pages', done: 4, total: 4 },
      { stage: 'files', done: 0, total: 2 },
      { stage: 'files', done: 1, total: 2 },
      { stage: 'files', done: 2, total: 2 },
    ]);
  });

  it('from a server without markdown in the revision: page by page, each read by revision', async () => {
    const proxy = await withoutInlineMarkdown(s);
    const hosted = createClient({ baseUrl: proxy.url, token: s.token });
    open.push(proxy, hosted);
    const events: Event[] = [];
    const remote = await fetchContent(hosted, { space: spaceId }, (event) => events.push({ ...event }));
    // The group and the link have no body: they count from the start; the two documents one by one.
    expect(events.filter((e) => e.stage === 'pages')).toEqual([
      { stage: 'pages', done: 2, total: 4 },
      { stage: 'pages', done: 3, total: 4 },
      { stage: 'pages', done: 4, total: 4 },
    ]);
    const pageReads = proxy.seen.map((r) => r.url).filter((u) => u.includes('/page/'));
    expect(pageReads).toHaveLength(2);
    for (const url of pageReads)
      expect(url).toMatch(new RegExp(`^/v1/spaces/${spaceId}/revisions/${remote.revision}/page/[^/]+\\?format=markdown$`));
    // Our server also names each page's file (git-path); at the rule paths here, so the folders agree.
    const withoutPaths = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(withoutPaths)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .filter(([key]) => key !== 'path')
                .map(([key, inner]) => [key, withoutPaths(inner)]),
            )
          : value;
    const direct = (await fetchContent(client, { space: spaceId })).content;
    expect(remote.content).toEqual({ ...direct, pages: withoutPaths(direct.pages) });
    expect(snapshotOf(remote).files).toEqual(snapshotOf({ revision: remote.revision, content: direct }).files);
  });

  it('clone sums the pages and files of main and of every change request, then counts the branches', async () => {
    await changeRequestWith(s, spaceId, 'One more page', [
      { operation: 'insert_page', title: 'FAQ', document: { markdown: '# FAQ\n\nAsk.\n' } },
    ]);
    const events: Event[] = [];
    await clone({ client, apiUrl: s.url, spaceId, dir: join(work, 'clone'), onProgress: (event) => events.push({ ...event }) });
    const last = (stage: string) => events.filter((e) => e.stage === stage).at(-1);
    expect(last('pages')).toEqual({ stage: 'pages', done: 4 + 5, total: 4 + 5 });
    expect(last('files')).toEqual({ stage: 'files', done: 4, total: 4 });
    expect(events.filter((e) => e.stage === 'change requests')).toEqual([
      { stage: 'change requests', done: 0, total: 1 },
      { stage: 'change requests', done: 1, total: 1 },
    ]);
    // Branches are counted once every page and file is in hand.
    expect(events.findIndex((e) => e.stage === 'change requests')).toBeGreaterThan(
      events.findLastIndex((e) => e.stage !== 'change requests'),
    );
  });
});
