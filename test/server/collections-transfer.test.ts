import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { childOrder, listAll, makeCollection, makeSpace } from '../helpers/collections.js';
import { upsertMember } from '../../src/server/store/organizations.js';

describe.each(testDialects())('POST /v1/collections/{id}/transfer (%s)', (dialect) => {
  let s: TestServer;
  let adminId: string;
  let target: { id: string; adminToken: string };
  // Per test, in the bootstrap organization:
  //   T (collection): t1, t2 (spaces), tx (deleted space), T1 (collection)
  //   T1:             u1 (space), T1a (collection) with v1 (space)
  let T: any, T1: any, T1a: any, t1: any, t2: any, tx: any, u1: any, v1: any;
  const transfer = (id: string, organization: string, token?: string) =>
    s.request('POST', `/v1/collections/${id}/transfer`, { body: { organization }, ...(token ? { token } : {}) });

  beforeAll(async () => {
    s = await startServer(dialect);
    adminId = (await s.request('GET', '/v1/user')).body.id;
  });
  afterAll(async () => {
    await s?.close();
  });
  beforeEach(async () => {
    target = await s.organization('Target');
    await upsertMember(s.server.db.kysely, { orgId: target.id, userId: adminId, role: 'admin' }, new Date().toISOString());
    T = await makeCollection(s, { title: 'T' });
    t1 = await makeSpace(s, { title: 't1', parent: T.id });
    t2 = await makeSpace(s, { title: 't2', parent: T.id, visibility: 'public' });
    tx = await makeSpace(s, { title: 'tx', parent: T.id });
    expect((await s.request('DELETE', `/v1/spaces/${tx.id}`)).status).toBe(205);
    T1 = await makeCollection(s, { title: 'T1', parent: T.id });
    u1 = await makeSpace(s, { title: 'u1', parent: T1.id });
    T1a = await makeCollection(s, { title: 'T1a', parent: T1.id });
    v1 = await makeSpace(s, { title: 'v1', parent: T1a.id });
  });

  const organizationOf = async (spaceId: string) => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}`);
    expectSpec(res, 'GET', '/spaces/{spaceId}', 200);
    return res.body.organization;
  };

  it('moves the collection, its nested collections and all their spaces to an organization the caller administers', async () => {
    const existing = await makeSpace(s, { title: 'already there' }, { org: target.id, token: target.adminToken });
    const res = await transfer(T.id, target.id);
    expectSpec(res, 'POST', '/collections/{collectionId}/transfer', 200);
    expect(res.body).toMatchObject({ id: T.id, organization: target.id, title: 'T' });
    expect(res.body.parent).toBeUndefined();

    for (const c of [T1, T1a]) {
      const got = await s.request('GET', `/v1/collections/${c.id}`);
      expectSpec(got, 'GET', '/collections/{collectionId}', 200);
      expect(got.body.organization).toBe(target.id);
    }
    expect((await s.request('GET', `/v1/collections/${T1.id}`)).body.parent).toBe(T.id);
    expect((await s.request('GET', `/v1/collections/${T1a.id}`)).body.parent).toBe(T1.id);
    for (const space of [t1, t2, u1, v1]) expect(await organizationOf(space.id)).toBe(target.id);
    const t2Now = (await s.request('GET', `/v1/spaces/${t2.id}`)).body;
    expect(t2Now).toMatchObject({ parent: T.id, visibility: 'public' });

    // The deleted space went along: restored, it is in the target organization.
    const restored = await s.request('POST', `/v1/spaces/${tx.id}/restore`);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toMatchObject({ organization: target.id, parent: T.id });

    // Listings on both sides agree.
    const there = await listAll(s, `/v1/orgs/${target.id}/collections`, 1000);
    expect(there.items.map((c) => c.id).sort()).toEqual([T.id, T1.id, T1a.id].sort());
    const here = await listAll(s, `/v1/orgs/${s.orgId}/collections`, 1000);
    expect(here.items.map((c) => c.id)).not.toContain(T.id);
    expect(here.items.map((c) => c.id)).not.toContain(T1a.id);
    const inside = await listAll(s, `/v1/collections/${T.id}/spaces`, 1000);
    expect(inside.items.map((x) => x.id)).toEqual([t1.id, t2.id, tx.id]);
    expect(await childOrder(s, target.id, null)).toEqual([existing.id, T.id]);

    // The target organization's admin now administers it; the source organization's readers lose it.
    const asTargetAdmin = await s.request('GET', `/v1/collections/${T.id}`, { token: target.adminToken });
    expect(asTargetAdmin.body.permissions.admin).toBe(true);
    const sourceReader = await s.user({ org: s.orgId, role: 'read' });
    expectError(await s.request('GET', `/v1/collections/${T.id}`, { token: sourceReader.token }), 404);
    expectError(await s.request('GET', `/v1/spaces/${v1.id}`, { token: sourceReader.token }), 404);
  });

  it('transfers a nested collection alone: it becomes top-level there, its former parent stays', async () => {
    const res = await transfer(T1.id, target.id);
    expectSpec(res, 'POST', '/collections/{collectionId}/transfer', 200);
    expect(res.body.parent).toBeUndefined();
    expect(res.body.organization).toBe(target.id);
    expect((await s.request('GET', `/v1/collections/${T1a.id}`)).body).toMatchObject({ organization: target.id, parent: T1.id });
    expect(await organizationOf(u1.id)).toBe(target.id);
    expect(await organizationOf(v1.id)).toBe(target.id);
    expect((await s.request('GET', `/v1/collections/${T.id}`)).body.organization).toBe(s.orgId);
    expect(await organizationOf(t1.id)).toBe(s.orgId);
    expect(await childOrder(s, s.orgId, T.id)).toEqual([t1.id, t2.id]);
    const top = await listAll(s, `/v1/orgs/${target.id}/collections?nested=false`, 1000);
    expect(top.items.map((c) => c.id)).toEqual([T1.id]);
  });

  it('answers 403 when the caller is not an admin of the target organization, and changes nothing', async () => {
    const readOnly = await s.organization('Read only');
    await upsertMember(s.server.db.kysely, { orgId: readOnly.id, userId: adminId, role: 'read' }, new Date().toISOString());
    expectError(await transfer(T.id, readOnly.id), 403, /body\.organization/);
    const creatorOrg = await s.organization('Creator');
    await upsertMember(s.server.db.kysely, { orgId: creatorOrg.id, userId: adminId, role: 'create' }, new Date().toISOString());
    expectError(await transfer(T.id, creatorOrg.id), 403, /body\.organization/);
    const stranger = await s.organization('Stranger');
    expectError(await transfer(T.id, stranger.id), 403, /body\.organization/);
    expectError(await transfer(T.id, 'no-such-org'), 403, /body\.organization/);
    expect((await s.request('GET', `/v1/collections/${T.id}`)).body.organization).toBe(s.orgId);
    expect(await organizationOf(v1.id)).toBe(s.orgId);
  });

  it('answers 403 when the caller does not administer the collection, even as admin of the target', async () => {
    const editor = await s.user({ org: s.orgId, role: 'create' });
    await upsertMember(s.server.db.kysely, { orgId: target.id, userId: editor.id, role: 'admin' }, new Date().toISOString());
    expectError(await transfer(T.id, target.id, editor.token), 403);
    expect((await s.request('GET', `/v1/collections/${T.id}`)).body.organization).toBe(s.orgId);
  });

  it('answers 409 for a transfer to the organization it is already in', async () => {
    expectError(await transfer(T.id, s.orgId), 409, /already belongs/);
    expectError(await transfer(T1.id, s.orgId), 409);
    expect((await s.request('GET', `/v1/collections/${T1.id}`)).body.parent).toBe(T.id);
  });
});
