import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { listAll, makeCollection, makeSpace } from '../helpers/collections.js';

describe.each(testDialects())('GET /v1/collections/{id}/spaces (%s)', (dialect) => {
  let s: TestServer;
  let C: any;
  let spaces: any[];
  beforeAll(async () => {
    s = await startServer(dialect);
    C = await makeCollection(s, { title: 'Five' });
    spaces = [];
    for (let i = 0; i < 5; i += 1) spaces.push(await makeSpace(s, { title: `s${i}`, parent: C.id }));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lists the spaces in sibling order, validated against the spec', async () => {
    const res = await s.request('GET', `/v1/collections/${C.id}/spaces`);
    expectSpec(res, 'GET', '/collections/{collectionId}/spaces', 200);
    expect(res.body.items.map((x: any) => x.id)).toEqual(spaces.map((x) => x.id));
    expect(res.body.count).toBe(5);
    expect(res.body.next).toBeUndefined();
    expect(res.body.items.every((x: any) => x.parent === C.id && x.organization === s.orgId)).toBe(true);
  });

  it('pages with limit 2 over 5 spaces: three pages, no duplicate, no gap', async () => {
    const pages: string[][] = [];
    let page: string | undefined;
    do {
      const res = await s.request('GET', `/v1/collections/${C.id}/spaces?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
      expectSpec(res, 'GET', '/collections/{collectionId}/spaces', 200);
      expect(res.body.count).toBe(res.body.items.length);
      pages.push(res.body.items.map((x: any) => x.id));
      page = res.body.next?.page;
    } while (page !== undefined && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(spaces.map((x) => x.id));
  });

  it('a limit equal to the number of spaces gives one page with no next', async () => {
    const res = await s.request('GET', `/v1/collections/${C.id}/spaces?limit=5`);
    expectSpec(res, 'GET', '/collections/{collectionId}/spaces', 200);
    expect(res.body.count).toBe(5);
    expect(res.body.next).toBeUndefined();
  });

  it('keeps its place when spaces are added or deleted between pages', async () => {
    const c = await makeCollection(s, { title: 'Shifting' });
    const made: any[] = [];
    for (let i = 0; i < 4; i += 1) made.push(await makeSpace(s, { title: `m${i}`, parent: c.id }));
    const first = await s.request('GET', `/v1/collections/${c.id}/spaces?limit=2`);
    expect(first.body.items.map((x: any) => x.id)).toEqual([made[0].id, made[1].id]);
    expect((await s.request('DELETE', `/v1/spaces/${made[0].id}`)).status).toBe(205);
    const added = await makeSpace(s, { title: 'late', parent: c.id });
    const second = await s.request('GET', `/v1/collections/${c.id}/spaces?limit=2&page=${encodeURIComponent(first.body.next.page)}`);
    expect(second.body.items.map((x: any) => x.id)).toEqual([made[2].id, made[3].id]);
    const third = await s.request('GET', `/v1/collections/${c.id}/spaces?limit=2&page=${encodeURIComponent(second.body.next.page)}`);
    expect(third.body.items.map((x: any) => x.id)).toEqual([added.id]);
    expect(third.body.next).toBeUndefined();
  });

  it('lists neither deleted spaces nor spaces of nested collections', async () => {
    const c = await makeCollection(s, { title: 'Mixed' });
    const live = await makeSpace(s, { title: 'live', parent: c.id });
    const gone = await makeSpace(s, { title: 'gone', parent: c.id });
    const inner = await makeCollection(s, { parent: c.id });
    await makeSpace(s, { title: 'nested', parent: inner.id });
    expect((await s.request('DELETE', `/v1/spaces/${gone.id}`)).status).toBe(205);
    const res = await s.request('GET', `/v1/collections/${c.id}/spaces`);
    expectSpec(res, 'GET', '/collections/{collectionId}/spaces', 200);
    expect(res.body.items.map((x: any) => x.id)).toEqual([live.id]);
    const empty = await s.request('GET', `/v1/collections/${(await makeCollection(s)).id}/spaces`);
    expectSpec(empty, 'GET', '/collections/{collectionId}/spaces', 200);
    expect(empty.body).toEqual({ items: [], count: 0 });
  });

  it('leaves out spaces the caller may not see, also across pages; an admin sees them all', async () => {
    const c = await makeCollection(s, { title: 'Filtered' });
    const made: any[] = [];
    for (let i = 0; i < 7; i += 1) made.push(await makeSpace(s, { title: `f${i}`, parent: c.id }));
    const hidden = [made[1], made[2], made[3], made[6]];
    // A guest given read on the collection sees the spaces that inherit from it, not those
    // that set their own level.
    const reader = await s.user({ org: s.orgId, role: null });
    const shared = await s.request('POST', `/v1/collections/${c.id}/permissions`, { body: { role: 'read', users: [reader.id] } });
    expect(shared.status, JSON.stringify(shared.body)).toBe(204);
    for (const h of hidden) {
      const res = await s.request('PATCH', `/v1/spaces/${h.id}`, { body: { defaultLevel: null } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const visible = made.filter((x) => !hidden.includes(x)).map((x) => x.id);
    for (const limit of [1, 2, 3, 1000]) {
      const asReader = await listAll(s, `/v1/collections/${c.id}/spaces`, limit, reader.token);
      expect(
        asReader.items.map((x) => x.id),
        `limit ${limit}`,
      ).toEqual(visible);
      expect(asReader.items.every((x) => x.permissions.view && !x.permissions.edit)).toBe(true);
    }
    const first = await s.request('GET', `/v1/collections/${c.id}/spaces?limit=1`, { token: reader.token });
    expectSpec(first, 'GET', '/collections/{collectionId}/spaces', 200);
    const asAdmin = await listAll(s, `/v1/collections/${c.id}/spaces`, 2);
    expect(asAdmin.items.map((x) => x.id)).toEqual(made.map((x) => x.id));
    expect(asAdmin.items.find((x) => x.id === made[1].id).defaultLevel).toBeNull();
  });

  it('lists nothing to a guest the collection is not shared with', async () => {
    const c = await makeCollection(s, { title: 'Closed' });
    await makeSpace(s, { title: 'inside', parent: c.id });
    await s.request('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: 'edit' } });
    const reader = await s.user({ org: s.orgId, role: null });
    expectError(await s.request('GET', `/v1/collections/${c.id}/spaces`, { token: reader.token }), 404);
  });

  it('refuses bad paging parameters with 400 naming them', async () => {
    expectError(await s.request('GET', `/v1/collections/${C.id}/spaces?limit=0`), 400, /limit/);
    expectError(await s.request('GET', `/v1/collections/${C.id}/spaces?limit=1001`), 400, /limit/);
    expectError(await s.request('GET', `/v1/collections/${C.id}/spaces?limit=two`), 400, /limit/);
    expectError(await s.request('GET', `/v1/collections/${C.id}/spaces?page=not-a-cursor`), 400, /page/);
    expectError(await s.request('GET', `/v1/collections/${C.id}/spaces?nested=true`), 400, /nested/);
    // A cursor from the organization listing (keyed by date) is no cursor for this one (keyed by position).
    await makeCollection(s);
    await makeCollection(s);
    const orgPage = await s.request('GET', `/v1/orgs/${s.orgId}/collections?limit=1`);
    expect(orgPage.body.next).toBeDefined();
    expectError(await s.request('GET', `/v1/collections/${C.id}/spaces?page=${encodeURIComponent(orgPage.body.next.page)}`), 400, /page/);
  });
});
