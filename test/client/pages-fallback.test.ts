import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { httpFixture, type Fixture } from './http-fixture.js';

/**
 * A server of the published API has no `format` on the pages listing. These tests put a proxy in
 * front of the real server that behaves so (drops `markdown` from the listing, or refuses the
 * parameter with a 400) and check that the client fills the bodies one page at a time.
 */
describe('pages listing without the markdown extension', () => {
  let s: TestServer;
  let spaceId: string;
  let expected: [string, string | undefined][];
  const open: { close(): Promise<void> }[] = [];

  async function proxy(mode: 'omit' | 'refuse'): Promise<Fixture> {
    const fixture = await httpFixture(async (req, res, seen) => {
      const url = new URL(seen.url, s.url);
      const listing = /\/content\/pages$/.test(url.pathname);
      if (listing && mode === 'refuse' && url.searchParams.has('format')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 400, message: 'query has an unknown field `format`' } }));
        return;
      }
      const upstream = await fetch(url, { method: req.method ?? 'GET', headers: { authorization: seen.authorization ?? '' } });
      const text = await upstream.text();
      let body = text;
      if (listing && upstream.ok) {
        const strip = (pages: Record<string, unknown>[]): unknown[] =>
          pages.map(({ markdown: _m, ...page }) => ({
            ...page,
            ...(Array.isArray(page.pages) ? { pages: strip(page.pages as Record<string, unknown>[]) } : {}),
          }));
        body = JSON.stringify({ pages: strip((JSON.parse(text) as { pages: Record<string, unknown>[] }).pages) });
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(body);
    });
    open.push(fixture);
    return fixture;
  }

  beforeAll(async () => {
    s = await startServer();
    const direct = createClient({ baseUrl: s.url, token: s.token });
    const space = await direct.spaces.create(s.orgId, { title: 'Fallback', empty: true });
    spaceId = space.id;
    const cr = await direct.changeRequests.create(space.id);
    const parent = await direct.content.write(space.id, cr.id, [
      { operation: 'insert_page', document: { markdown: '# One\n\nfirst\n' } },
      { operation: 'insert_page', document: { markdown: '# Two\n\nsecond\n' } },
    ]);
    const twoId = parent.changes![1]!.page;
    await direct.content.write(space.id, cr.id, [
      { operation: 'insert_page', into: typeof twoId === 'string' ? twoId : twoId.id, document: { markdown: '# Child\n\nnested\n' } },
    ]);
    await direct.changeRequests.merge(space.id, cr.id);
    expected = flatten(await direct.content.pages({ space: spaceId }, { markdown: true }));
    expect(expected).toEqual([
      ['One', 'first\n'],
      ['Two', 'second\n'],
      ['Child', 'nested\n'],
    ]);
    open.push(direct);
  });
  afterAll(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
    await s?.close();
  });

  const flatten = (pages: { title: string; markdown?: string; pages?: unknown[] }[]): [string, string | undefined][] =>
    pages.flatMap((p) => [[p.title, p.markdown] as [string, string | undefined], ...flatten((p.pages ?? []) as typeof pages)]);

  it('fetches each body when the listing leaves them out, and remembers the server lacks the extension', async () => {
    const server = await proxy('omit');
    const client = createClient({ baseUrl: server.url, token: s.token });
    open.push(client);
    expect(flatten(await client.content.pages({ space: spaceId }, { markdown: true }))).toEqual(expected);
    expect(client.capabilities.markdownListing).toBe(false);
    const asked = server.seen.map((r) => r.url);
    expect(asked.filter((u) => u.includes('/content/pages'))).toEqual([`/v1/spaces/${spaceId}/content/pages?format=markdown`]);
    expect(asked.filter((u) => u.includes('/content/page/'))).toHaveLength(3);
    for (const u of asked.filter((x) => x.includes('/content/page/'))) expect(u).toMatch(/\?format=markdown$/);
    // Known now: the next listing does not ask for the format.
    await client.content.pages({ space: spaceId }, { markdown: true });
    expect(
      server.seen
        .map((r) => r.url)
        .filter((u) => u.includes('/content/pages'))
        .at(-1),
    ).toBe(`/v1/spaces/${spaceId}/content/pages`);
  });

  it('falls back when the server refuses `format` on the listing with a 400', async () => {
    const server = await proxy('refuse');
    const client = createClient({ baseUrl: server.url, token: s.token });
    open.push(client);
    expect(flatten(await client.content.pages({ space: spaceId }, { markdown: true }))).toEqual(expected);
    expect(client.capabilities.markdownListing).toBe(false);
    expect(server.seen.filter((r) => r.url.includes('/content/pages'))).toHaveLength(2);
  });

  it('uses one request for the whole tree when the server offers the extension', async () => {
    const client = createClient({ baseUrl: s.url, token: s.token });
    open.push(client);
    expect(flatten(await client.content.pages({ space: spaceId }, { markdown: true }))).toEqual(expected);
    expect(client.stats.requests).toBe(1);
    expect(client.capabilities.markdownListing).toBe(true);
  });
});
