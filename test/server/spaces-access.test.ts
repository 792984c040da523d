import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createCollection, createSpace } from '../helpers/spaces.js';

const READ_ONLY = {
  view: true,
  access: true,
  admin: false,
  viewInviteLinks: false,
  edit: false,
  triggerGitSync: false,
  comment: false,
  merge: false,
  review: false,
  installIntegration: false,
};
const ADMIN = {
  view: true,
  access: true,
  admin: true,
  viewInviteLinks: true,
  edit: true,
  triggerGitSync: true,
  comment: true,
  merge: true,
  review: true,
  installIntegration: true,
};

describe.each(testDialects())('spaces: who may do what (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);

  it('answers 401 without a token and with an unknown one, on every space endpoint', async () => {
    const space = await createSpace(s);
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/orgs/${s.orgId}/spaces`],
      ['POST', `/v1/orgs/${s.orgId}/spaces`, {}],
      ['GET', `/v1/spaces/${space.id}`],
      ['PATCH', `/v1/spaces/${space.id}`, { title: 'x' }],
      ['DELETE', `/v1/spaces/${space.id}`],
      ['POST', `/v1/spaces/${space.id}/restore`],
      ['POST', `/v1/spaces/${space.id}/duplicate`],
      ['POST', `/v1/spaces/${space.id}/move`, { parent: null }],
      ['POST', `/v1/spaces/${space.id}/transfer`, { organization: s.orgId }],
      ['GET', `/v1/spaces/${space.id}/links`],
    ];
    for (const [method, path, body] of calls) {
      expectError(await s.request(method, path, { token: null, ...(body !== undefined ? { body } : {}) }), 401);
      expectError(await s.request(method, path, { token: 'tok_unknown', ...(body !== undefined ? { body } : {}) }), 401);
    }
    expectSpec(await s.request('GET', `/v1/spaces/${space.id}`), 'GET', '/spaces/{spaceId}', 200);
  });

  it('a space of an organization the caller is not in is 404 for every operation', async () => {
    const space = await createSpace(s, { title: 'Internal' });
    const stranger = await s.user();
    const opts = { token: stranger.token };
    expectError(await s.request('GET', `/v1/spaces/${space.id}`, opts), 404);
    expectError(await s.request('PATCH', `/v1/spaces/${space.id}`, { ...opts, body: { title: 'Mine' } }), 404);
    expectError(await s.request('DELETE', `/v1/spaces/${space.id}`, opts), 404);
    expectError(await s.request('POST', `/v1/spaces/${space.id}/duplicate`, opts), 404);
    expectError(await s.request('POST', `/v1/spaces/${space.id}/move`, { ...opts, body: { parent: null } }), 404);
    expectError(await s.request('GET', `/v1/spaces/${space.id}/links`, opts), 404);
    expectError(await s.request('GET', `/v1/orgs/${s.orgId}/spaces`, opts), 404);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { ...opts, body: {} }), 404);
    const after = await s.request('GET', `/v1/spaces/${space.id}`);
    expect(after.body.title).toBe('Internal');
  });

  it('a read member sees spaces with read-only permissions and gets 403 for writes', async () => {
    const space = await createSpace(s, { title: 'Visible' });
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const opts = { token: reader.token };
    const res = await s.request('GET', `/v1/spaces/${space.id}`, opts);
    expectSpec(res, 'GET', '/spaces/{spaceId}', 200);
    expect(res.body.permissions).toEqual(READ_ONLY);
    const list = await s.request('GET', `/v1/orgs/${s.orgId}/spaces?limit=1000`, opts);
    expectSpec(list, 'GET', '/orgs/{organizationId}/spaces', 200);
    expect(list.body.items.find((i: { id: string }) => i.id === space.id).permissions).toEqual(READ_ONLY);

    expectError(await s.request('PATCH', `/v1/spaces/${space.id}`, { ...opts, body: { title: 'Nope' } }), 403, /edit/);
    expectError(await s.request('PATCH', `/v1/spaces/${space.id}`, { ...opts, body: { editMode: 'locked' } }), 403, /admin/);
    expectError(await s.request('DELETE', `/v1/spaces/${space.id}`, opts), 403, /admin/);
    expectError(await s.request('POST', `/v1/spaces/${space.id}/move`, { ...opts, body: { parent: null } }), 403, /admin/);
    expectError(await s.request('POST', `/v1/spaces/${space.id}/duplicate`, opts), 403, /create/);
    expectError(await s.request('POST', `/v1/spaces/${space.id}/transfer`, { ...opts, body: { organization: s.orgId } }), 403);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { ...opts, body: {} }), 403, /create/);

    const unchanged = await s.request('GET', `/v1/spaces/${space.id}`);
    expect(unchanged.body).toMatchObject({ title: 'Visible', editMode: 'live' });
    expect(unchanged.body).not.toHaveProperty('deletedAt');
  });

  it('the admin gets the full permissions object on the same space', async () => {
    const space = await createSpace(s);
    const res = await s.request('GET', `/v1/spaces/${space.id}`);
    expect(res.body.permissions).toEqual(ADMIN);
  });

  it('an edit member may rename a space but not change its settings', async () => {
    const space = await createSpace(s, { title: 'Draft' });
    const editor = await s.user({ org: s.orgId, role: 'edit' });
    const res = await s.request('PATCH', `/v1/spaces/${space.id}`, { token: editor.token, body: { title: 'Edited', emoji: '✏️' } });
    expectSpec(res, 'PATCH', '/spaces/{spaceId}', 200);
    expect(res.body).toMatchObject({ title: 'Edited', emoji: '✏️' });
    expect(res.body.permissions).toMatchObject({ edit: true, comment: true, review: false, merge: false, admin: false });
    expectError(await s.request('PATCH', `/v1/spaces/${space.id}`, { token: editor.token, body: { defaultLevel: 'admin' } }), 403);
  });

  it('guests (member with no role) see no space at all', async () => {
    const space = await createSpace(s, { title: 'Hidden from guests' });
    await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { defaultLevel: 'read' } });
    const guest = await s.user({ org: s.orgId, role: null });
    const opts = { token: guest.token };
    expectError(await s.request('GET', `/v1/spaces/${space.id}`, opts), 404);
    expectError(await s.request('GET', `/v1/spaces/${space.id}/links`, opts), 404);
    expectError(await s.request('DELETE', `/v1/spaces/${space.id}`, opts), 404);
    const list = await s.request('GET', `/v1/orgs/${s.orgId}/spaces`, opts);
    expectSpec(list, 'GET', '/orgs/{organizationId}/spaces', 200);
    expect(list.body).toEqual({ items: [], count: 0 });
  });

  it('defaultLevel null gives nothing beyond the organization role: members keep theirs, guests see nothing', async () => {
    const space = await createSpace(s, { title: 'No default' });
    const patched = await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { defaultLevel: null } });
    expectSpec(patched, 'PATCH', '/spaces/{spaceId}', 200);
    expect(patched.body.defaultLevel).toBeNull();
    expect(patched.body.permissions).toEqual(ADMIN);

    const creator = await s.user({ org: s.orgId, role: 'create' });
    const asCreator = await s.request('GET', `/v1/spaces/${space.id}`, { token: creator.token });
    expectSpec(asCreator, 'GET', '/spaces/{spaceId}', 200);
    expect(asCreator.body.permissions).toMatchObject({ view: true, edit: true, review: true, admin: false });
    const guest = await s.user({ org: s.orgId, role: null });
    expectError(await s.request('GET', `/v1/spaces/${space.id}`, { token: guest.token }), 404);
    const list = await s.request('GET', `/v1/orgs/${s.orgId}/spaces?limit=1000`, { token: guest.token });
    expect(ids(list)).not.toContain(space.id);

    const otherAdmin = await s.user({ org: s.orgId, role: 'admin' });
    const seen = await s.request('GET', `/v1/spaces/${space.id}`, { token: otherAdmin.token });
    expectSpec(seen, 'GET', '/spaces/{spaceId}', 200);
    expect(seen.body.permissions).toEqual(ADMIN);
  });

  it('a role as defaultLevel raises members below it and never lowers anyone', async () => {
    const space = await createSpace(s);
    await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { defaultLevel: 'review' } });
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const creator = await s.user({ org: s.orgId, role: 'create' });
    const asReader = await s.request('GET', `/v1/spaces/${space.id}`, { token: reader.token });
    expect(asReader.body.permissions).toMatchObject({ view: true, comment: true, edit: true, review: true, merge: true, admin: false });
    const asCreator = await s.request('GET', `/v1/spaces/${space.id}`, { token: creator.token });
    expect(asCreator.body.permissions).toMatchObject({ review: true, admin: false });
    const renamed = await s.request('PATCH', `/v1/spaces/${space.id}`, { token: reader.token, body: { title: 'Reviewed' } });
    expectSpec(renamed, 'PATCH', '/spaces/{spaceId}', 200);

    await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { defaultLevel: 'read' } });
    expect((await s.request('GET', `/v1/spaces/${space.id}`, { token: reader.token })).body.permissions).toEqual(READ_ONLY);
    const kept = await s.request('GET', `/v1/spaces/${space.id}`, { token: creator.token });
    expect(kept.body.permissions).toMatchObject({ edit: true, review: true, admin: false });
    expect((await s.request('POST', `/v1/spaces/${space.id}/duplicate`, { token: creator.token })).status).toBe(201);
    // Guests get nothing from a default level.
    const guest = await s.user({ org: s.orgId, role: null });
    expectError(await s.request('GET', `/v1/spaces/${space.id}`, { token: guest.token }), 404);
  });

  it('inherit follows the parent collections; the nearest explicit level counts, the organization role always', async () => {
    const outer = await createCollection(s, { title: 'Outer' });
    const inner = await createCollection(s, { title: 'Inner', parent: outer.id });
    const space = await createSpace(s, { parent: inner.id, title: 'Nested' });
    expect(space.defaultLevel).toBe('inherit');
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const view = () => s.request('GET', `/v1/spaces/${space.id}`, { token: reader.token });

    // Every level inherits: the organization role (read) applies.
    expect((await view()).body.permissions).toEqual(READ_ONLY);

    // The outer collection gives edit; inner and the space inherit it.
    expect((await s.request('PATCH', `/v1/collections/${outer.id}`, { body: { defaultLevel: 'edit' } })).status).toBe(200);
    expect((await view()).body.permissions).toMatchObject({ edit: true, review: false, admin: false });

    // The nearest explicit level wins: inner says none, which leaves the organization role.
    expect((await s.request('PATCH', `/v1/collections/${inner.id}`, { body: { defaultLevel: null } })).status).toBe(200);
    expect((await view()).body.permissions).toEqual(READ_ONLY);

    // The space's own level beats its collections.
    expect((await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { defaultLevel: 'comment' } })).status).toBe(200);
    const own = await view();
    expectSpec(own, 'GET', '/spaces/{spaceId}', 200);
    expect(own.body.permissions).toMatchObject({ view: true, comment: true, edit: false });
  });
});
