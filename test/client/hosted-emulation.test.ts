import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, type ClientOptions } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { mirror } from '../../src/sync/mirror.js';
import { hostedProxy, type HostedProxy } from '../helpers/hosted-proxy.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { changeRequestWith, editMain } from '../sync/fixture.js';

/**
 * The hosted-API emulation (test/helpers/hosted-proxy.ts) answers as the published spec says the
 * hosted API does, and the client copes with each of those answers.
 */
describe('the client against the hosted-API emulation', () => {
  let s: TestServer;
  let work: string;
  const open: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-hosted-emulation-'));
  });
  afterAll(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  async function proxied(options: Parameters<typeof hostedProxy>[1] = {}, client: Partial<ClientOptions> = {}) {
    const proxy = await hostedProxy(s.url, options);
    const c = createClient({ baseUrl: proxy.url, token: s.token, ...client });
    open.push(proxy, c);
    return { proxy, client: c };
  }

  const raw = (proxy: HostedProxy, method: string, path: string, body?: unknown) =>
    fetch(`${proxy.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  async function spaceWith(title: string, pages: number) {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title, empty: true } })).body;
    const ids = await editMain(
      s,
      space.id,
      Array.from({ length: pages }, (_, i) => ({
        operation: 'insert_page',
        ref: `p${i}`,
        title: `Page ${i}`,
        document: { markdown: `# Page ${i}\n\nText ${i}.\n` },
      })),
    );
    return { spaceId: space.id as string, ids };
  }

  it('answers a conflicting merge and update with 200 result "conflicts"; the client takes both as a 409, and nothing moves', async () => {
    const { proxy, client } = await proxied();
    const { spaceId, ids } = await spaceWith('conflicts', 1);
    const page = ids.get('p0')!;
    const cr = await changeRequestWith(s, spaceId, 'Theirs', [
      { operation: 'update_page', page, document: { markdown: '# Page 0\n\nTheirs.\n' } },
    ]);
    await editMain(s, spaceId, [{ operation: 'update_page', page, document: { markdown: '# Page 0\n\nOurs.\n' } }]);
    const before = (await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body;

    const merged = await raw(proxy, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
    expect(merged.status).toBe(200);
    expect(await merged.json()).toEqual({ revision: before.revision, result: 'conflicts' });
    for (const kind of ['merge', 'update'] as const) {
      const error = (await client.changeRequests[kind](spaceId, cr.id).catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(409);
      expect(error.conflictRevision).toBe(before.revision);
    }
    const after = (await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body;
    expect([after.status, after.revision]).toEqual([before.status, before.revision]);
  });

  it('refuses what the hosted API does not publish: extension fields and operations, unpublished routes, change request numbers', async () => {
    const { proxy } = await proxied();
    const { spaceId, ids } = await spaceWith('refusals', 1);
    const cr = await changeRequestWith(s, spaceId, 'Open', [
      { operation: 'insert_page', title: 'Later', document: { markdown: '# Later\n' } },
    ]);
    const write = (change: unknown) => raw(proxy, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: [change] });

    const linkTitle = await write({ operation: 'update_page', page: ids.get('p0'), linkTitle: 'Short' });
    expect(linkTitle.status).toBe(400);
    expect(((await linkTitle.json()) as { error: { message: string } }).error.message).toContain('changes[0].linkTitle');
    expect((await write({ operation: 'set_variables', variables: { a: '1' } })).status).toBe(400);
    expect((await write({ operation: 'insert_page', title: 'Site', type: 'link', href: 'https://example.com/' })).status).toBe(400);
    expect((await raw(proxy, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr.number}`)).status).toBe(404);
    expect((await raw(proxy, 'GET', `/v1/spaces/${spaceId}/events`)).status).toBe(404);
    // What the spec names goes through, and the answer names no extension.
    const published = await write({
      operation: 'update_page',
      page: ids.get('p0'),
      title: 'Renamed',
      document: { markdown: '# Renamed\n\nx\n' },
    });
    expect(published.status).toBe(200);
    expect(published.headers.get('x-docsync-extensions')).toBeNull();
  });

  it('rate limits with X-RateLimit headers only; a clone keeps inside the budget and meets no 429', async () => {
    const { proxy, client } = await proxied({ requestsPerSecond: 10 });
    const { spaceId } = await spaceWith('budget', 30);
    const first = await raw(proxy, 'GET', '/v1/user');
    expect(first.headers.get('x-ratelimit-limit')).toBe('10');
    expect(first.headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/);
    expect(first.headers.get('retry-after')).toBeNull();

    await clone({ client, apiUrl: proxy.url, spaceId, dir: join(work, 'budget') });
    expect(proxy.seen.length).toBeGreaterThan(30);
    expect(proxy.statuses.filter((status) => status === 429)).toEqual([]);
  });

  it('mirrors an organization of several spaces through the rate limit without a 429', async () => {
    const { proxy } = await proxied({ requestsPerSecond: 8 });
    const org = await s.organization('Mirrored');
    for (let i = 0; i < 4; i += 1) {
      const space = (
        await s.request('POST', `/v1/orgs/${org.id}/spaces`, { body: { title: `Space ${i}`, empty: true }, token: org.adminToken })
      ).body;
      const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'pages' }, token: org.adminToken }))
        .body;
      const changes = Array.from({ length: 8 }, (_, k) => ({
        operation: 'insert_page',
        title: `Page ${i}.${k}`,
        document: { markdown: `# Page ${i}.${k}\n\nText of page ${i}.${k}.\n` },
      }));
      expect(
        (await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { body: { changes }, token: org.adminToken }))
          .status,
      ).toBe(200);
      expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: org.adminToken })).status).toBe(
        200,
      );
    }
    const admin = createClient({ baseUrl: proxy.url, token: org.adminToken });
    open.push(admin);
    const mirrored = await mirror({ client: admin, apiUrl: proxy.url, orgId: org.id, dir: join(work, 'mirror') });
    expect(mirrored).toHaveLength(4);
    expect(proxy.seen.length).toBeGreaterThan(4 * 8);
    expect(proxy.statuses.filter((status) => status === 429)).toEqual([]);
  });

  it('waits for X-RateLimit-Reset after a 429 without Retry-After, past what backoff alone would wait', async () => {
    // Two retries of backoff wait at most 0.5 s + 1 s: only the reset time gets past a 2.5 s block.
    const { proxy, client } = await proxied({}, { retries: 2 });
    proxy.block(2500);
    const started = Date.now();
    const user = await client.user.get();
    expect(user.id).toBeTruthy();
    expect(proxy.statuses[0]).toBe(429);
    expect(proxy.statuses.at(-1)).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2400);
  });
});
