import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';

describe.each(testDialects())('spaces: paging through an organization (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A fresh organization with `n` spaces, so each test knows the whole list. */
  async function orgWithSpaces(n: number) {
    const org = await s.organization();
    const ids: string[] = [];
    for (let i = 0; i < n; i += 1) ids.push((await createSpace(s, { title: `S${i}` }, { org: org.id, token: org.adminToken })).id);
    return { org, ids };
  }

  async function page(org: string, token: string, limit: number, cursor?: string) {
    const query = `limit=${limit}${cursor ? `&page=${encodeURIComponent(cursor)}` : ''}`;
    const res = await s.request('GET', `/v1/orgs/${org}/spaces?${query}`, { token });
    expectSpec(res, 'GET', '/orgs/{organizationId}/spaces', 200);
    expect(res.body.count).toBe(res.body.items.length);
    return { ids: (res.body.items as { id: string }[]).map((i) => i.id), next: res.body.next?.page as string | undefined };
  }

  async function all(org: string, token: string, limit: number) {
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const p = await page(org, token, limit, cursor);
      seen.push(...p.ids);
      sizes.push(p.ids.length);
      cursor = p.next;
    } while (cursor !== undefined);
    return { seen, sizes };
  }

  it('pages of 3 over 7 spaces give 3, 3, 1 with no duplicate and no gap', async () => {
    const { org, ids } = await orgWithSpaces(7);
    const { seen, sizes } = await all(org.id, org.adminToken, 3);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(ids);
    expect(new Set(seen).size).toBe(7);
  });

  it('a list that ends exactly on a page boundary has no next on its last page', async () => {
    const { org, ids } = await orgWithSpaces(6);
    const { seen, sizes } = await all(org.id, org.adminToken, 3);
    expect(sizes.filter((n) => n > 0)).toEqual([3, 3]);
    expect(seen).toEqual(ids);
    const whole = await page(org.id, org.adminToken, 1000);
    expect(whole).toEqual({ ids, next: undefined });
  });

  it('spaces created in the same instant are still paged one by one', async () => {
    const { org, ids } = await orgWithSpaces(5);
    const instant = s.clock.now().toISOString();
    await s.server.db.kysely.updateTable('spaces').set({ created_at: instant }).where('org_id', '=', org.id).execute();
    const { seen } = await all(org.id, org.adminToken, 2);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(new Set(seen).size).toBe(5);
  });

  it('spaces added and deleted between pages cause no duplicate and no skip', async () => {
    const { org, ids } = await orgWithSpaces(7);
    const token = org.adminToken;
    const seen: string[] = [];

    const first = await page(org.id, token, 3);
    seen.push(...first.ids);
    // Delete the row the cursor points at, one not yet seen, and add two new spaces.
    const deleted = [first.ids[2]!, ids[4]!];
    for (const id of deleted) expect((await s.request('DELETE', `/v1/spaces/${id}`, { token })).status).toBe(205);
    const added = [(await createSpace(s, { title: 'New 1' }, { org: org.id, token })).id];

    const second = await page(org.id, token, 3, first.next);
    seen.push(...second.ids);
    expect(second.ids).toEqual([ids[3], ids[5], ids[6]]);
    // New 1 is not seen yet: delete it, and add another.
    expect((await s.request('DELETE', `/v1/spaces/${added[0]!}`, { token })).status).toBe(205);
    deleted.push(added.shift()!);
    added.push((await createSpace(s, { title: 'New 2' }, { org: org.id, token })).id);

    let cursor = second.next;
    while (cursor !== undefined) {
      const p = await page(org.id, token, 3, cursor);
      seen.push(...p.ids);
      cursor = p.next;
    }

    expect(new Set(seen).size).toBe(seen.length);
    const presentThroughout = ids.filter((id) => !deleted.includes(id));
    for (const id of presentThroughout) expect(seen.filter((x) => x === id)).toHaveLength(1);
    expect(seen).not.toContain(ids[4]);
    expect(seen).not.toContain(deleted[2]);
    // Spaces are listed oldest first, so a new one comes after the cursor and is seen.
    expect(added).toHaveLength(1);
    expect(seen.at(-1)).toBe(added[0]);
  });

  it('spaces the caller cannot see never cost it a short page or a wrong end of list', async () => {
    const { org, ids } = await orgWithSpaces(9);
    // A guest sees only the spaces shared with them.
    const reader = await s.user({ org: org.id, role: null });
    const hidden = [ids[1]!, ids[2]!, ids[3]!, ids[7]!];
    const visible = ids.filter((id) => !hidden.includes(id));
    for (const id of visible) {
      const res = await s.request('POST', `/v1/spaces/${id}/permissions`, {
        token: org.adminToken,
        body: { role: 'read', users: [reader.id] },
      });
      expect(res.status).toBe(204);
    }
    const { seen, sizes } = await all(org.id, reader.token, 2);
    expect(seen).toEqual(visible);
    expect(sizes.slice(0, -1).every((n) => n === 2)).toBe(true);
    const admin = await all(org.id, org.adminToken, 4);
    expect(admin.seen).toEqual(ids);
  });

  it('a cursor from another list shape or a tampered one is a 400', async () => {
    const { org } = await orgWithSpaces(2);
    const first = await page(org.id, org.adminToken, 1);
    expect(first.next).toBeDefined();
    const tampered = Buffer.from(JSON.stringify({ after: 1 })).toString('base64url');
    expectError(await s.request('GET', `/v1/orgs/${org.id}/spaces?page=${tampered}`, { token: org.adminToken }), 400, /page/);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/spaces?page=!!!`, { token: org.adminToken }), 400, /page/);
  });
});
