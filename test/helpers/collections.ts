import { siblings } from '../../src/server/store/positions.js';
import { expect } from 'vitest';
import type { TestServer } from './server.js';
import { expectSpec } from './expect-spec.js';

/** Creates a collection through the API (as the bootstrap admin unless `token`) and returns its body. */
export async function makeCollection(
  s: TestServer,
  body: { title?: string; parent?: string } = {},
  options: { org?: string; token?: string } = {},
): Promise<any> {
  const res = await s.request('POST', `/v1/orgs/${options.org ?? s.orgId}/collections`, {
    body,
    ...(options.token ? { token: options.token } : {}),
  });
  expectSpec(res, 'POST', '/orgs/{organizationId}/collections', 201);
  return res.body;
}

/** Creates a space through the API and returns its body. */
export async function makeSpace(
  s: TestServer,
  body: { title?: string; parent?: string; visibility?: string } = {},
  options: { org?: string; token?: string } = {},
): Promise<any> {
  const res = await s.request('POST', `/v1/orgs/${options.org ?? s.orgId}/spaces`, {
    body,
    ...(options.token ? { token: options.token } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Every page of a list, following `next.page`, with the page size `limit`. */
export async function listAll(s: TestServer, path: string, limit: number, token?: string): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let page: string | undefined;
  let pages = 0;
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const url = `${path}${sep}limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ''}`;
    const res = await s.request('GET', url, token ? { token } : {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.count).toBe(res.body.items.length);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    items.push(...res.body.items);
    pages += 1;
    if (!res.body.next) return { items, pages };
    page = res.body.next.page;
    if (pages > 100) throw new Error(`${path} never ends`);
  }
}

/** The children of a parent (collection id or null for the org root) in sibling order, from the database. */
export async function childOrder(s: TestServer, orgId: string, parentId: string | null): Promise<string[]> {
  return (await siblings(s.server.db.kysely, orgId, parentId)).map((sibling) => sibling.id);
}
