import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { childOrder, listAll, makeCollection, makeSpace } from '../helpers/collections.js';

describe.each(testDialects())('DELETE /v1/collections/{id} (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const space = async (id: string) => {
    const res = await s.request('GET', `/v1/spaces/${id}`);
    expectSpec(res, 'GET', '/spaces/{spaceId}', 200);
    return res.body;
  };
  const collection = async (id: string) => {
    const res = await s.request('GET', `/v1/collections/${id}`);
    expectSpec(res, 'GET', '/collections/{collectionId}', 200);
    return res.body;
  };

  it('answers 205 with no body; the collection is gone', async () => {
    const c = await makeCollection(s, { title: 'Gone' });
    const res = await s.request('DELETE', `/v1/collections/${c.id}`);
    expectSpec(res, 'DELETE', '/collections/{collectionId}', 205);
    expect(res.body).toBeUndefined();
    expectError(await s.request('GET', `/v1/collections/${c.id}`), 404);
    expectError(await s.request('DELETE', `/v1/collections/${c.id}`), 404);
    const listed = await listAll(s, `/v1/orgs/${s.orgId}/collections`, 1000);
    expect(listed.items.map((x) => x.id)).not.toContain(c.id);
  });

  it('moves its spaces and collections up into its parent collection, after the parent children, keeping visibility', async () => {
    const P = await makeCollection(s, { title: 'P' });
    const before = await makeSpace(s, { title: 'p1', parent: P.id });
    const D = await makeCollection(s, { title: 'D', parent: P.id });
    const after = await makeSpace(s, { title: 'p2', parent: P.id });
    const d1 = await makeSpace(s, { title: 'd1', parent: D.id });
    const d2 = await makeSpace(s, { title: 'd2', parent: D.id, visibility: 'private' });
    const DC = await makeCollection(s, { title: 'DC', parent: D.id });
    const dc1 = await makeSpace(s, { title: 'dc1', parent: DC.id });
    const d3 = await makeSpace(s, { title: 'd3', parent: D.id, visibility: 'public' });
    const dx = await makeSpace(s, { title: 'dx', parent: D.id });
    expect((await s.request('DELETE', `/v1/spaces/${dx.id}`)).status).toBe(205);

    expectSpec(await s.request('DELETE', `/v1/collections/${D.id}`), 'DELETE', '/collections/{collectionId}', 205);

    expect(await space(d1.id)).toMatchObject({ parent: P.id, visibility: 'in-collection' });
    expect(await space(d2.id)).toMatchObject({ parent: P.id, visibility: 'private' });
    expect(await space(d3.id)).toMatchObject({ parent: P.id, visibility: 'public' });
    expect((await collection(DC.id)).parent).toBe(P.id);
    expect(await space(dc1.id)).toMatchObject({ parent: DC.id, visibility: 'in-collection' });
    expect(await childOrder(s, s.orgId, P.id)).toEqual([before.id, after.id, d1.id, d2.id, DC.id, d3.id]);
    const listed = await listAll(s, `/v1/collections/${P.id}/spaces`, 2);
    expect(listed.items.map((x) => x.id)).toEqual([before.id, after.id, d1.id, d2.id, d3.id]);

    // The deleted space, restored, lands in the surviving parent too.
    const restored = await s.request('POST', `/v1/spaces/${dx.id}/restore`);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toMatchObject({ parent: P.id, visibility: 'in-collection' });
  });

  it('at the root: content moves to the organization root and `in-collection` spaces become private', async () => {
    const existing = await makeSpace(s, { title: 'root space' });
    const R = await makeCollection(s, { title: 'R' });
    const r1 = await makeSpace(s, { title: 'r1', parent: R.id });
    const r2 = await makeSpace(s, { title: 'r2', parent: R.id, visibility: 'public' });
    const RC = await makeCollection(s, { title: 'RC', parent: R.id });
    const rc1 = await makeSpace(s, { title: 'rc1', parent: RC.id });
    const rx = await makeSpace(s, { title: 'rx', parent: R.id });
    expect(rx.visibility).toBe('in-collection');
    expect((await s.request('DELETE', `/v1/spaces/${rx.id}`)).status).toBe(205);
    const rootBefore = await childOrder(s, s.orgId, null);

    expectSpec(await s.request('DELETE', `/v1/collections/${R.id}`), 'DELETE', '/collections/{collectionId}', 205);

    const r1Now = await space(r1.id);
    expect(r1Now.parent).toBeUndefined();
    expect(r1Now.visibility).toBe('private');
    const r2Now = await space(r2.id);
    expect(r2Now.parent).toBeUndefined();
    expect(r2Now.visibility).toBe('public');
    expect((await collection(RC.id)).parent).toBeUndefined();
    expect(await space(rc1.id)).toMatchObject({ parent: RC.id, visibility: 'in-collection' });
    expect(await childOrder(s, s.orgId, null)).toEqual([...rootBefore.filter((id) => id !== R.id), r1.id, r2.id, RC.id]);
    expect(rootBefore).toContain(existing.id);
    const top = await listAll(s, `/v1/orgs/${s.orgId}/collections?nested=false`, 1000);
    expect(top.items.map((x) => x.id)).toContain(RC.id);

    // A deleted space inside is treated the same way, before any restore: a private root space.
    const stored = await s.server.db.kysely
      .selectFrom('spaces')
      .select(['parent_id', 'visibility'])
      .where('id', '=', rx.id)
      .executeTakeFirst();
    expect(stored).toEqual({ parent_id: null, visibility: 'private' });
    const restored = await s.request('POST', `/v1/spaces/${rx.id}/restore`);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.parent).toBeUndefined();
    expect(restored.body.visibility).toBe('private');
    expect((await childOrder(s, s.orgId, null)).at(-1)).toBe(rx.id);
  });

  it('needs admin on the collection: a read member gets 403 and nothing moves', async () => {
    const R = await makeCollection(s, { title: 'Shared' });
    const shared = await makeSpace(s, { title: 'shared', parent: R.id });
    const reader = await s.user({ org: s.orgId, role: 'read' });
    expect((await s.request('GET', `/v1/spaces/${shared.id}`, { token: reader.token })).status).toBe(200);
    expectError(await s.request('DELETE', `/v1/collections/${R.id}`, { token: reader.token }), 403);
    expect(await space(shared.id)).toMatchObject({ parent: R.id, visibility: 'in-collection' });
    expectSpec(await s.request('DELETE', `/v1/collections/${R.id}`), 'DELETE', '/collections/{collectionId}', 205);
    expect((await space(shared.id)).visibility).toBe('private');
  });
});
