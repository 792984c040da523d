import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';

describe.each(testDialects())('members (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A fresh organization with an admin and members joined a second apart, oldest first. */
  async function orgWith(roles: (string | null)[], names: string[] = []) {
    const org = await s.organization('Members org');
    const users = [];
    for (const [i, role] of roles.entries()) {
      s.clock.advance(1000);
      users.push(await s.user({ org: org.id, role: role as never, ...(names[i] ? { name: names[i] } : {}) }));
    }
    return { ...org, users, as: org.adminToken };
  }
  const list = (orgId: string, query: string, token: string) => s.request('GET', `/v1/orgs/${orgId}/members${query}`, { token });
  const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((m) => m.id);

  it('lists members with the published shape, newest first by default, and pages through them', async () => {
    const org = await orgWith(['read', 'edit', null, 'admin']);
    const res = await list(org.id, '', org.as);
    expectSpec(res, 'GET', '/orgs/{organizationId}/members', 200);
    const newestFirst = [...org.users.map((u) => u.id)].reverse().concat(org.adminId);
    expect(ids(res)).toEqual(newestFirst);
    const member = res.body.items[0];
    expect(member).toMatchObject({
      object: 'member',
      id: org.users[3]!.id,
      role: 'admin',
      disabled: false,
      sso: false,
      teams: 0,
      sites: 0,
    });
    expect(member.user).toMatchObject({ object: 'user', id: org.users[3]!.id, email: org.users[3]!.email });
    expect(member.lastSeenAt).toBeUndefined();
    expect(res.body.items.find((m: { role: unknown }) => m.role === null)).toBeDefined();

    expect(ids(await list(org.id, '?order=asc', org.as))).toEqual([...newestFirst].reverse());
    const seen: string[] = [];
    let page = await list(org.id, '?limit=2', org.as);
    for (;;) {
      expectSpec(page, 'GET', '/orgs/{organizationId}/members', 200);
      expect(page.body.count).toBe(page.body.items.length);
      seen.push(...ids(page));
      if (!page.body.next) break;
      expect(page.body.items).toHaveLength(2);
      page = await list(org.id, `?limit=2&page=${page.body.next.page}`, org.as);
    }
    expect(seen).toEqual(newestFirst);
  });

  it('filters by role, guest included, and searches names and e-mails without case', async () => {
    const org = await orgWith(['read', 'edit', null, 'edit'], ['Ada Lovelace', 'Grace HOPPER', 'Alan Turing', 'Edsger']);
    expect(ids(await list(org.id, '?role=edit', org.as)).sort()).toEqual([org.users[1]!.id, org.users[3]!.id].sort());
    expect(ids(await list(org.id, '?role=guest', org.as))).toEqual([org.users[2]!.id]);
    expect(ids(await list(org.id, '?role=admin', org.as))).toEqual([org.adminId]);
    expect(ids(await list(org.id, '?role=review', org.as))).toEqual([]);
    expect(ids(await list(org.id, '?search=hopper', org.as))).toEqual([org.users[1]!.id]);
    expect(ids(await list(org.id, '?search=LOVE', org.as))).toEqual([org.users[0]!.id]);
    const byMail = org.users[2]!.email.slice(0, 12).toUpperCase();
    expect(ids(await list(org.id, `?search=${encodeURIComponent(byMail)}`, org.as))).toEqual([org.users[2]!.id]);
    // Search with paging: a page of one, then the next.
    const first = await list(org.id, '?search=a&limit=1&order=asc', org.as);
    expectSpec(first, 'GET', '/orgs/{organizationId}/members', 200);
    expect(first.body.items).toHaveLength(1);
    const second = await list(org.id, `?search=a&limit=1&order=asc&page=${first.body.next.page}`, org.as);
    expect(ids(second)).not.toEqual(ids(first));
    expectError(await list(org.id, '?role=owner', org.as), 400, /role/);
  });

  it('sorts by name and by lastSeenAt, which lists only members who were seen', async () => {
    const org = await orgWith(['read', 'read', 'read'], ['Carol', 'alice', 'Bob']);
    expect(await list(org.id, '?sort=lastSeenAt', org.as).then(ids)).toEqual([]);
    for (const u of [org.users[2]!, org.users[0]!]) {
      s.clock.advance(1000);
      expect((await s.request('POST', `/v1/orgs/${org.id}/ping`, { token: u.token })).status).toBe(200);
    }
    const seen = await list(org.id, '?sort=lastSeenAt', org.as);
    expectSpec(seen, 'GET', '/orgs/{organizationId}/members', 200);
    expect(ids(seen)).toEqual([org.users[0]!.id, org.users[2]!.id]);
    expect(seen.body.items[0].lastSeenAt).toEqual(expect.any(String));
    expect(ids(await list(org.id, '?sort=lastSeenAt&order=asc&limit=1', org.as))).toEqual([org.users[2]!.id]);
    const byName = ids(await list(org.id, '?sort=name&order=asc', org.as));
    expect(byName.filter((id) => id !== org.adminId).length).toBe(3);
    expectError(await list(org.id, '?sort=email', org.as), 400, /sort/);
  });

  it('rejects bad paging and unknown query fields', async () => {
    const org = await orgWith([]);
    expectError(await list(org.id, '?limit=0', org.as), 400, /limit/);
    expectError(await list(org.id, '?limit=1001', org.as), 400, /limit/);
    expectError(await list(org.id, '?order=up', org.as), 400, /order/);
    expectError(await list(org.id, '?page=nonsense', org.as), 400, /page/);
    expectError(await list(org.id, '?colour=red', org.as), 400, /colour/);
    expectSpec(await list(org.id, '?limit=1000', org.as), 'GET', '/orgs/{organizationId}/members', 200);
  });

  it('lets members list and read members; guests get 403 and strangers 404', async () => {
    const org = await orgWith(['read', null]);
    const [reader, guest] = org.users;
    expectSpec(await list(org.id, '', reader!.token), 'GET', '/orgs/{organizationId}/members', 200);
    const one = await s.request('GET', `/v1/orgs/${org.id}/members/${guest!.id}`, { token: reader!.token });
    expectSpec(one, 'GET', '/orgs/{organizationId}/members/{userId}', 200);
    expect(one.body).toMatchObject({ id: guest!.id, role: null });
    expectError(await list(org.id, '', guest!.token), 403, /read/);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/members/${reader!.id}`, { token: guest!.token }), 403);
    const stranger = await s.user();
    expectError(await list(org.id, '', stranger.token), 404);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/members/${reader!.id}`, { token: stranger.token }), 404);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/members/${stranger.id}`, { token: org.as }), 404, /not a member/);
    expectError(await list(org.id, '', 'tok_unknown'), 401);
  });

  it('changes a role, null making a guest, and protects the last admin', async () => {
    const org = await orgWith(['read', 'edit']);
    const [reader, editor] = org.users;
    const patch = (userId: string, body: unknown, token = org.as) =>
      s.request('PATCH', `/v1/orgs/${org.id}/members/${userId}`, { token, body });
    for (const role of ['admin', 'create', 'review', 'edit', 'comment', 'read', null]) {
      const res = await patch(reader!.id, { role });
      expectSpec(res, 'PATCH', '/orgs/{organizationId}/members/{userId}', 200);
      expect(res.body.role).toBe(role);
      expect((await s.request('GET', `/v1/orgs/${org.id}/members/${reader!.id}`, { token: org.as })).body.role).toBe(role);
    }
    expect((await patch(reader!.id, {})).body.role).toBeNull();
    const last = await patch(org.adminId, { role: 'read' });
    expectError(last, 409, /last admin/);
    expectError(await patch(org.adminId, { role: null }), 409, /last admin/);
    // With a second admin, the first may step down.
    expect((await patch(editor!.id, { role: 'admin' })).status).toBe(200);
    expect((await patch(org.adminId, { role: 'edit' })).body.role).toBe('edit');
    expectError(await patch(editor!.id, { role: 'create' }, editor!.token), 409, /last admin/);
    // Only admins change members.
    expectError(await patch(reader!.id, { role: 'read' }, org.as), 403, /admin/);
    expectError(await patch(reader!.id, { role: 'owner' }, editor!.token), 400, /body\.role/);
    expectError(await patch(reader!.id, { role: 'read', extra: 1 }, editor!.token), 400, /extra/);
    const stranger = await s.user();
    expectError(await patch(stranger.id, { role: 'read' }, editor!.token), 404, /not a member/);
  });

  it('deletes a member with 204: the account stays, access to the content ends at once', async () => {
    const org = await orgWith(['edit', 'read']);
    const [editor, reader] = org.users;
    const space = await createSpace(s, { title: 'Secret' }, { org: org.id, token: org.as });
    expect((await s.request('GET', `/v1/spaces/${space.id}`, { token: editor!.token })).status).toBe(200);
    expectError(await s.request('DELETE', `/v1/orgs/${org.id}/members/${editor!.id}`, { token: reader!.token }), 403);
    const res = await s.request('DELETE', `/v1/orgs/${org.id}/members/${editor!.id}`, { token: org.as });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectError(await s.request('GET', `/v1/spaces/${space.id}`, { token: editor!.token }), 404);
    expectError(await s.request('GET', `/v1/orgs/${org.id}`, { token: editor!.token }), 404);
    expect((await s.request('GET', '/v1/user', { token: editor!.token })).status).toBe(200);
    expect(ids(await list(org.id, '', org.as))).not.toContain(editor!.id);
    expectError(await s.request('DELETE', `/v1/orgs/${org.id}/members/${editor!.id}`, { token: org.as }), 404);
    expectError(await s.request('DELETE', `/v1/orgs/${org.id}/members/${org.adminId}`, { token: org.as }), 409, /last admin/);
  });

  it('marks a member as an SSO member', async () => {
    const org = await orgWith(['read']);
    const reader = org.users[0]!;
    expectError(await s.request('POST', `/v1/orgs/${org.id}/members/${reader.id}/sso`, { token: reader.token }), 403);
    const res = await s.request('POST', `/v1/orgs/${org.id}/members/${reader.id}/sso`, { token: org.as });
    expectSpec(res, 'POST', '/orgs/{organizationId}/members/{userId}/sso', 200);
    expect(res.body.sso).toBe(true);
    expect((await s.request('GET', `/v1/orgs/${org.id}/members/${reader.id}`, { token: org.as })).body.sso).toBe(true);
    const stranger = await s.user();
    expectError(await s.request('POST', `/v1/orgs/${org.id}/members/${stranger.id}/sso`, { token: org.as }), 404);
  });

  it("lists a member's spaces with the member's role there, in either order, page by page", async () => {
    const org = await orgWith(['comment', null]);
    const [commenter, guest] = org.users;
    const spaces = [];
    for (let i = 0; i < 3; i += 1) {
      s.clock.advance(1000);
      spaces.push(await createSpace(s, { title: `S${i}` }, { org: org.id, token: org.as }));
    }
    const path = (userId: string, q = '') => `/v1/orgs/${org.id}/members/${userId}/spaces${q}`;
    const res = await s.request('GET', path(commenter!.id), { token: org.as });
    expectSpec(res, 'GET', '/orgs/{organizationId}/members/{userId}/spaces', 200);
    expect(res.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual(spaces.map((x) => x.id).reverse());
    expect(res.body.items.map((i: { permission: string }) => i.permission)).toEqual(['comment', 'comment', 'comment']);
    expect(res.body.items[0].space.permissions.comment).toBe(true);
    const asc = await s.request('GET', path(commenter!.id, '?order=asc&limit=2'), { token: commenter!.token });
    expect(asc.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([spaces[0].id, spaces[1].id]);
    const rest = await s.request('GET', path(commenter!.id, `?order=asc&limit=2&page=${asc.body.next.page}`), { token: commenter!.token });
    expect(rest.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([spaces[2].id]);
    expect(rest.body.next).toBeUndefined();
    // A guest reaches nothing until something is shared with them; they may look at their own.
    const none = await s.request('GET', path(guest!.id), { token: guest!.token });
    expectSpec(none, 'GET', '/orgs/{organizationId}/members/{userId}/spaces', 200);
    expect(none.body.items).toEqual([]);
    expectError(await s.request('GET', path(commenter!.id), { token: guest!.token }), 403);
    const member = await s.request('GET', `/v1/orgs/${org.id}/members/${commenter!.id}`, { token: org.as });
    expect(member.body.spaces).toBe(3);
    expect((await s.request('GET', `/v1/orgs/${org.id}/members/${guest!.id}`, { token: org.as })).body.spaces).toBe(0);
    expectError(await s.request('GET', path(commenter!.id, '?order=sideways'), { token: org.as }), 400, /order/);
  });
});
