import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isApiError, type Client } from '../../src/client/index.js';
import { parseExtensions } from '../../src/client/extensions.js';
import { DOCSYNC_EXTENSIONS } from '../../src/model/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { httpFixture, json, recordingTiming, type Fixture } from './http-fixture.js';

/** `client.capabilities.extensions`: what the server says it accepts beyond the published API. */
describe('client.capabilities.extensions', () => {
  let s: TestServer;
  const open: { close(): Promise<void> }[] = [];
  const client = (baseUrl: string, extra: Partial<Parameters<typeof createClient>[0]> = {}): Client => {
    const c = createClient({ baseUrl, token: s?.token ?? 'tok', ...extra });
    open.push(c);
    return c;
  };
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => {
    for (const c of open.reverse()) await c.close();
    await s?.close();
  });

  it("is empty before any answer, then lists our server's extensions after its first answer", async () => {
    const c = client(s.url);
    expect(c.capabilities.extensions).toEqual(new Set());
    await c.user.get();
    expect([...c.capabilities.extensions]).toEqual([...DOCSYNC_EXTENSIONS]);
    expect(c.capabilities.extensions.has('set-variables')).toBe(true);
  });

  it('learns them from an error answer too', async () => {
    const c = client(s.url);
    const error = await c.spaces.get('nope').catch((e: unknown) => e);
    expect(isApiError(error, 404)).toBe(true);
    expect(c.capabilities.extensions.has('delete-file')).toBe(true);
  });

  it('stays empty against a server that does not send the header (the hosted API)', async () => {
    const fixture: Fixture = await httpFixture((_req, res) => json(res, 200, { object: 'user', id: 'u1', displayName: 'U' }));
    open.push(fixture);
    const c = client(fixture.url);
    await c.user.get();
    await c.user.get();
    expect(fixture.seen).toHaveLength(2);
    expect(c.capabilities.extensions.size).toBe(0);
  });

  it("takes the latest answer that carries the header; answers without it (a proxy's error) change nothing", async () => {
    const answers: (string | undefined)[] = ['page-types, link-title', undefined, 'page-types,set-variables,replace-files'];
    const fixture = await httpFixture((_req, res, _seen, index) => {
      const value = answers[index];
      json(res, 200, { object: 'user', id: 'u1' }, value === undefined ? {} : { 'x-docsync-extensions': value });
    });
    open.push(fixture);
    const c = client(fixture.url);
    await c.user.get();
    expect([...c.capabilities.extensions]).toEqual(['page-types', 'link-title']);
    await c.user.get();
    expect([...c.capabilities.extensions]).toEqual(['page-types', 'link-title']);
    await c.user.get();
    expect([...c.capabilities.extensions]).toEqual(['page-types', 'set-variables', 'replace-files']);
  });

  it('is learnt from a retried attempt as well as the last one', async () => {
    const fixture = await httpFixture((_req, res, _seen, index) => {
      if (index === 0)
        json(res, 503, { error: { code: 503, message: 'busy' } }, { 'retry-after': '0', 'x-docsync-extensions': 'delete-file' });
      else json(res, 200, { object: 'user', id: 'u1' });
    });
    open.push(fixture);
    const { timing } = recordingTiming();
    const c = client(fixture.url, { timing });
    await c.user.get();
    expect(fixture.seen).toHaveLength(2);
    expect([...c.capabilities.extensions]).toEqual(['delete-file']);
  });

  it('ignores the header on a download served by another origin', async () => {
    const storage = await httpFixture((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-docsync-extensions': 'page-types' });
      res.end('bytes');
    });
    const api = await httpFixture((_req, res) => json(res, 200, { object: 'user', id: 'u1' }));
    open.push(storage, api);
    const c = client(api.url);
    const bytes = await c.content.download(`${storage.url}/f/1`);
    expect(Buffer.from(bytes).toString()).toBe('bytes');
    expect(c.capabilities.extensions.size).toBe(0);
  });

  it('parses comma-separated and repeated header values', () => {
    expect(parseExtensions(' a, b ,,c')).toEqual(['a', 'b', 'c']);
    expect(parseExtensions(['a,b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(parseExtensions('')).toEqual([]);
  });
});
