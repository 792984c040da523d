import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { listAll, makeCollection, makeSpace } from '../helpers/collections.js';

describe.each(testDialects())('collections: create, read, update (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('POST /v1/orgs/{id}/collections answers 201 with a Location header, and GET returns the same collection', async () => {
    const res = await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { body: { title: 'Guides' } });
    expectSpec(res, 'POST', '/orgs/{organizationId}/collections', 201);
    const created = res.body;
    expect(created).toMatchObject({ object: 'collection', title: 'Guides', organization: s.orgId, defaultLevel: 'inherit' });
    expect(created.parent).toBeUndefined();
    expect(created.description).toBeUndefined();
    expect(res.headers.get('location')).toBe(`${s.url}/v1/collections/${created.id}`);
    expect(created.urls.location).toBe(`${s.url}/v1/collections/${created.id}`);
    expect(created.permissions).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });

    const got = await s.request('GET', `/v1/collections/${created.id}`);
    expectSpec(got, 'GET', '/collections/{collectionId}', 200);
    expect(got.body).toEqual(created);
  });

  it('creates a collection without a body or with an empty one (the title is optional)', async () => {
    const bare = await s.request('POST', `/v1/orgs/${s.orgId}/collections`);
    expectSpec(bare, 'POST', '/orgs/{organizationId}/collections', 201);
    expect(bare.body.title).toBe('');
    const empty = await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { body: {} });
    expectSpec(empty, 'POST', '/orgs/{organizationId}/collections', 201);
    expect(empty.body.id).not.toBe(bare.body.id);
  });

  it('accepts a 50-character title and refuses 51, naming body.title, on create and on PATCH', async () => {
    const ok = await makeCollection(s, { title: 'x'.repeat(50) });
    expect(ok.title).toBe('x'.repeat(50));
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { body: { title: 'x'.repeat(51) } }), 400, /body\.title/);
    expectError(await s.request('PATCH', `/v1/collections/${ok.id}`, { body: { title: 'y'.repeat(51) } }), 400, /body\.title/);
    const patched = await s.request('PATCH', `/v1/collections/${ok.id}`, { body: { title: 'y'.repeat(50) } });
    expectSpec(patched, 'PATCH', '/collections/{collectionId}', 200);
    expect(patched.body.title).toBe('y'.repeat(50));
  });

  it('accepts a 100-character description and refuses 101, naming body.description', async () => {
    const c = await makeCollection(s, { title: 'Described' });
    const ok = await s.request('PATCH', `/v1/collections/${c.id}`, { body: { description: 'd'.repeat(100) } });
    expectSpec(ok, 'PATCH', '/collections/{collectionId}', 200);
    expect(ok.body.description).toBe('d'.repeat(100));
    expect(ok.body.title).toBe('Described');
    expectError(await s.request('PATCH', `/v1/collections/${c.id}`, { body: { description: 'd'.repeat(101) } }), 400, /body\.description/);
    expect((await s.request('GET', `/v1/collections/${c.id}`)).body.description).toBe('d'.repeat(100));
  });

  it('refuses unknown fields and wrongly typed ones on every body', async () => {
    const c = await makeCollection(s, { title: 'Strict' });
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { body: { title: 'a', emoji: '1f600' } }), 400, /emoji/);
    expectError(await s.request('PATCH', `/v1/collections/${c.id}`, { body: { visibility: 'public' } }), 400, /visibility/);
    expectError(await s.request('PATCH', `/v1/collections/${c.id}`, { body: { title: 5 } }), 400, /body\.title/);
    expectError(await s.request('POST', `/v1/collections/${c.id}/move`, { body: { parent: null, extra: 1 } }), 400, /extra/);
    expectError(
      await s.request('POST', `/v1/collections/${c.id}/transfer`, { body: { organization: s.orgId, collection: c.id } }),
      400,
      /collection/,
    );
    expectError(await s.request('POST', `/v1/collections/${c.id}/transfer`, { body: {} }), 400, /organization/);
    expectError(await s.request('POST', `/v1/collections/${c.id}/move`, { body: {} }), 400);
    expect((await s.request('GET', `/v1/collections/${c.id}`)).body.title).toBe('Strict');
  });

  it('PATCH defaultLevel accepts every role, null and "inherit", and refuses anything else', async () => {
    const c = await makeCollection(s, { title: 'Levels' });
    for (const level of ['admin', 'create', 'review', 'edit', 'comment', 'read', null, 'inherit']) {
      const res = await s.request('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: level } });
      expectSpec(res, 'PATCH', '/collections/{collectionId}', 200);
      expect(res.body.defaultLevel).toBe(level);
      expect((await s.request('GET', `/v1/collections/${c.id}`)).body.defaultLevel).toBe(level);
    }
    for (const level of ['owner', 'none', '', 'Inherit', 3, true]) {
      expectError(await s.request('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: level } }), 400, /body\.defaultLevel/);
    }
  });

  it('answers 404 for an unknown collection and 400 for a malformed id', async () => {
    expectError(await s.request('GET', '/v1/collections/nope'), 404, /collection nope not found/);
    expectError(await s.request('PATCH', '/v1/collections/nope', { body: { title: 'a' } }), 404);
    expectError(await s.request('DELETE', '/v1/collections/nope'), 404);
    expectError(await s.request('GET', '/v1/collections/nope/spaces'), 404);
    expectError(await s.request('POST', '/v1/collections/nope/move', { body: { parent: null } }), 404);
    expectError(await s.request('POST', '/v1/collections/nope/transfer', { body: { organization: s.orgId } }), 404);
    expectError(await s.request('GET', '/v1/collections/bad%20id'), 400);
  });
});

describe.each(testDialects())('collections: nesting and the organization listing (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('creates nested collections; nested=false lists only the top level, the default lists all', async () => {
    const org = await s.organization('Nesting');
    const opts = { org: org.id, token: org.adminToken };
    const top = await makeCollection(s, { title: 'Top' }, opts);
    const child = await makeCollection(s, { title: 'Child', parent: top.id }, opts);
    const grandchild = await makeCollection(s, { title: 'Grandchild', parent: child.id }, opts);
    const other = await makeCollection(s, { title: 'Other' }, opts);
    expect(child.parent).toBe(top.id);
    expect(grandchild.parent).toBe(child.id);

    const all = await s.request('GET', `/v1/orgs/${org.id}/collections`, { token: org.adminToken });
    expectSpec(all, 'GET', '/orgs/{organizationId}/collections', 200);
    expect(all.body.items.map((c: any) => c.id).sort()).toEqual([top.id, child.id, grandchild.id, other.id].sort());
    expect(all.body.count).toBe(4);
    expect(all.body.next).toBeUndefined();

    const explicit = await s.request('GET', `/v1/orgs/${org.id}/collections?nested=true`, { token: org.adminToken });
    expect(explicit.body.items.map((c: any) => c.id).sort()).toEqual([top.id, child.id, grandchild.id, other.id].sort());

    const topOnly = await s.request('GET', `/v1/orgs/${org.id}/collections?nested=false`, { token: org.adminToken });
    expectSpec(topOnly, 'GET', '/orgs/{organizationId}/collections', 200);
    expect(topOnly.body.items.map((c: any) => c.id).sort()).toEqual([top.id, other.id].sort());

    expectError(await s.request('GET', `/v1/orgs/${org.id}/collections?nested=maybe`, { token: org.adminToken }), 400, /nested/);
  });

  it('pages through the organization listing without duplicates or gaps', async () => {
    const org = await s.organization('Paged');
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const parent = i === 3 ? made[0] : undefined;
      made.push((await makeCollection(s, { title: `C${i}`, ...(parent ? { parent } : {}) }, { org: org.id, token: org.adminToken })).id);
    }
    const { items, pages } = await listAll(s, `/v1/orgs/${org.id}/collections`, 2, org.adminToken);
    expect(pages).toBe(3);
    expect(items.map((c) => c.id).sort()).toEqual([...made].sort());
    const top = await listAll(s, `/v1/orgs/${org.id}/collections?nested=false`, 2, org.adminToken);
    expect(top.items.map((c) => c.id).sort()).toEqual(made.filter((_, i) => i !== 3).sort());
  });

  it('refuses a parent from another organization or an unknown parent with 400 naming body.parent', async () => {
    const org = await s.organization('Elsewhere');
    const foreign = await makeCollection(s, { title: 'Foreign' }, { org: org.id, token: org.adminToken });
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { body: { parent: foreign.id } }), 400, /body\.parent/);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { body: { parent: 'missing' } }), 400, /body\.parent/);
    // The same id is a fine parent inside its own organization.
    const inside = await makeCollection(s, { parent: foreign.id }, { org: org.id, token: org.adminToken });
    expect(inside.parent).toBe(foreign.id);
  });
});

describe.each(testDialects())('collections: access (%s)', (dialect) => {
  let s: TestServer;
  let collection: any;
  beforeAll(async () => {
    s = await startServer(dialect);
    collection = await makeCollection(s, { title: 'Guarded' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers 401 without a token or with an unknown one', async () => {
    expectError(await s.request('GET', `/v1/collections/${collection.id}`, { token: null }), 401);
    expectError(await s.request('GET', `/v1/orgs/${s.orgId}/collections`, { token: 'nope' }), 401);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { token: null, body: {} }), 401);
    expectError(await s.request('DELETE', `/v1/collections/${collection.id}`, { token: null }), 401);
  });

  it('answers 404 to non-members and guests on every collection operation', async () => {
    const stranger = await s.user();
    const guest = await s.user({ org: s.orgId, role: null });
    for (const who of [stranger, guest]) {
      const t = { token: who.token };
      expectError(await s.request('GET', `/v1/collections/${collection.id}`, t), 404);
      expectError(await s.request('PATCH', `/v1/collections/${collection.id}`, { ...t, body: { title: 'x' } }), 404);
      expectError(await s.request('DELETE', `/v1/collections/${collection.id}`, t), 404);
      expectError(await s.request('GET', `/v1/collections/${collection.id}/spaces`, t), 404);
      expectError(await s.request('POST', `/v1/collections/${collection.id}/move`, { ...t, body: { parent: null } }), 404);
      expectError(await s.request('POST', `/v1/collections/${collection.id}/transfer`, { ...t, body: { organization: s.orgId } }), 404);
    }
    expectError(await s.request('GET', `/v1/orgs/${s.orgId}/collections`, { token: stranger.token }), 404);
    // A guest is a member, so the organization exists for it, but no collection is visible.
    const guestList = await s.request('GET', `/v1/orgs/${s.orgId}/collections`, { token: guest.token });
    expectSpec(guestList, 'GET', '/orgs/{organizationId}/collections', 200);
    expect(guestList.body).toEqual({ items: [], count: 0 });
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { token: guest.token, body: {} }), 403);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { token: stranger.token, body: {} }), 404);
    expect((await s.request('GET', `/v1/collections/${collection.id}`)).body.title).toBe('Guarded');
  });

  it('answers 403 to read members on PATCH, DELETE, move, transfer and create', async () => {
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const t = { token: reader.token };
    const got = await s.request('GET', `/v1/collections/${collection.id}`, t);
    expectSpec(got, 'GET', '/collections/{collectionId}', 200);
    expectError(await s.request('PATCH', `/v1/collections/${collection.id}`, { ...t, body: { title: 'x' } }), 403);
    expectError(await s.request('DELETE', `/v1/collections/${collection.id}`, t), 403);
    expectError(await s.request('POST', `/v1/collections/${collection.id}/move`, { ...t, body: { parent: null } }), 403);
    expectError(await s.request('POST', `/v1/collections/${collection.id}/transfer`, { ...t, body: { organization: s.orgId } }), 403);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { ...t, body: { title: 'mine' } }), 403);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { ...t, body: { parent: collection.id } }), 403);
    const after = await s.request('GET', `/v1/collections/${collection.id}`);
    expect(after.body.title).toBe('Guarded');
  });

  it('computes permissions for each caller', async () => {
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const creator = await s.user({ org: s.orgId, role: 'create' });
    const admin = await s.user({ org: s.orgId, role: 'admin' });
    const as = async (token: string) => {
      const res = await s.request('GET', `/v1/collections/${collection.id}`, { token });
      expectSpec(res, 'GET', '/collections/{collectionId}', 200);
      return res.body.permissions;
    };
    expect(await as(reader.token)).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expect(await as(creator.token)).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expect(await as(admin.token)).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });

    // A creator may create inside the collection but not administer it.
    const nested = await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { token: creator.token, body: { parent: collection.id } });
    expectSpec(nested, 'POST', '/orgs/{organizationId}/collections', 201);
    expect(nested.body.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expectError(await s.request('PATCH', `/v1/collections/${collection.id}`, { token: creator.token, body: { title: 'x' } }), 403);
  });

  it('a collection defaultLevel null hides it from guests only; members keep their organization role', async () => {
    const hidden = await makeCollection(s, { title: 'Hidden' });
    expectSpec(
      await s.request('PATCH', `/v1/collections/${hidden.id}`, { body: { defaultLevel: null } }),
      'PATCH',
      '/collections/{collectionId}',
      200,
    );
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const asReader = await s.request('GET', `/v1/collections/${hidden.id}`, { token: reader.token });
    expectSpec(asReader, 'GET', '/collections/{collectionId}', 200);
    expect(asReader.body.permissions).toMatchObject({ view: true, create: false, admin: false });
    const guest = await s.user({ org: s.orgId, role: null });
    expectError(await s.request('GET', `/v1/collections/${hidden.id}`, { token: guest.token }), 404);
    const listed = await listAll(s, `/v1/orgs/${s.orgId}/collections`, 1000, guest.token);
    expect(listed.items.map((c) => c.id)).not.toContain(hidden.id);
    const asAdmin = await listAll(s, `/v1/orgs/${s.orgId}/collections`, 1000);
    expect(asAdmin.items.map((c) => c.id)).toContain(hidden.id);

    // A nested collection that inherits gives a reader read; one with its own level gives more.
    const inheriting = await makeCollection(s, { parent: hidden.id });
    const own = await makeCollection(s, { parent: hidden.id });
    await s.request('PATCH', `/v1/collections/${own.id}`, { body: { defaultLevel: 'create' } });
    expect((await s.request('GET', `/v1/collections/${inheriting.id}`, { token: reader.token })).body.permissions.create).toBe(false);
    const ownAsReader = await s.request('GET', `/v1/collections/${own.id}`, { token: reader.token });
    expectSpec(ownAsReader, 'GET', '/collections/{collectionId}', 200);
    expect(ownAsReader.body.permissions.create).toBe(true);
  });

  it('a collection with defaultLevel "edit" makes a read member an editor of its inheriting spaces, nested ones included', async () => {
    const c = await makeCollection(s, { title: 'Editable' });
    await s.request('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: 'edit' } });
    const inner = await makeCollection(s, { parent: c.id });
    const space = await makeSpace(s, { title: 'Inherits', parent: c.id });
    const deep = await makeSpace(s, { title: 'Deep', parent: inner.id });
    const pinned = await makeSpace(s, { title: 'Pinned', parent: c.id });
    expect((await s.request('PATCH', `/v1/spaces/${pinned.id}`, { body: { defaultLevel: 'read' } })).status).toBe(200);
    expect(space.defaultLevel).toBe('inherit');
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const perms = async (id: string) => {
      const res = await s.request('GET', `/v1/spaces/${id}`, { token: reader.token });
      expectSpec(res, 'GET', '/spaces/{spaceId}', 200);
      return res.body.permissions;
    };
    expect((await perms(space.id)).edit).toBe(true);
    expect((await perms(deep.id)).edit).toBe(true);
    expect(await perms(pinned.id)).toMatchObject({ view: true, edit: false });

    // Back to inherit: the member's own read role applies again.
    await s.request('PATCH', `/v1/collections/${c.id}`, { body: { defaultLevel: 'inherit' } });
    expect(await perms(space.id)).toMatchObject({ view: true, edit: false });
  });
});
