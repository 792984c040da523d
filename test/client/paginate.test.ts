import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientError, collect, createClient, paginate, type Client, type PageQuery } from '../../src/client/index.js';
import { createChangeRequest } from '../../src/server/store/change-requests.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { bootstrapUserId } from '../helpers/spaces.js';

describe('paginate over the real server', () => {
  let s: TestServer;
  let client: Client;
  beforeAll(async () => {
    s = await startServer();
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  it('walks 2,500 change requests in pages of 1000, each listed once', async () => {
    const space = await client.spaces.create(s.orgId, { title: 'Many', empty: true });
    const userId = await bootstrapUserId(s);
    const db = s.server.db.kysely;
    // Straight into the store: 2,500 creates over HTTP would only test the server's speed.
    const ids = new Set<string>();
    for (let i = 0; i < 2500; i += 1) {
      s.clock.advance(1);
      const row = await createChangeRequest(
        db,
        { spaceId: space.id, subject: `CR ${i}`, createdBy: userId, revision: space.revision, agentTaskId: null },
        s.clock.now().toISOString(),
      );
      ids.add(row.id);
    }
    const before = client.stats.requests;
    const listed = await collect(client.changeRequests.list(space.id, { status: 'open' }));
    expect(listed).toHaveLength(2500);
    expect(new Set(listed.map((c) => c.id))).toEqual(ids);
    expect(client.stats.requests - before).toBe(3);
  });
});

describe('paginate', () => {
  const pages = (n: number, size: number) => async (query: PageQuery) => {
    const start = query.page === undefined ? 0 : Number(query.page);
    const items = Array.from({ length: Math.min(size, n - start) }, (_, i) => start + i);
    const end = start + items.length;
    return end < n ? { items, next: { page: String(end) } } : { items };
  };

  it('asks for limit 1000 unless told, and passes each cursor back', async () => {
    const asked: PageQuery[] = [];
    const fetch = pages(2500, 1000);
    const items = await collect(paginate(async (q) => (asked.push(q), fetch(q))));
    expect(items).toHaveLength(2500);
    expect(asked).toEqual([{ limit: 1000 }, { page: '1000', limit: 1000 }, { page: '2000', limit: 1000 }]);
    const small: PageQuery[] = [];
    await collect(paginate(async (q) => (small.push(q), pages(5, 2)(q)), { limit: 2 }));
    expect(small.map((q) => q.limit)).toEqual([2, 2, 2]);
  });

  it('never asks for more than 1000', async () => {
    await expect(collect(paginate(pages(1, 1), { limit: 1001 }))).rejects.toThrow(/from 1 to 1000, got 1001/);
    await expect(collect(paginate(pages(1, 1), { limit: 0 }))).rejects.toThrow(ClientError);
  });

  it('stops with an error when a server repeats a cursor', async () => {
    await expect(collect(paginate(async () => ({ items: [1], next: { page: 'same' } })))).rejects.toThrow(/cursor "same" twice/);
  });

  it('stops early when the caller breaks, fetching no further page', async () => {
    let calls = 0;
    for await (const item of paginate(async (q) => (calls++, pages(3000, 1000)(q)))) if (item === 10) break;
    expect(calls).toBe(1);
  });
});
