import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';

describe.each(testDialects())('link invites (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function orgWithLinks(on = true) {
    const org = await s.organization('Invites org');
    const res = await s.request('PATCH', `/v1/orgs/${org.id}`, { token: org.adminToken, body: { inviteLinks: on } });
    expect(res.status).toBe(200);
    return org;
  }
  const create = (orgId: string, token: string, role: unknown) =>
    s.request('POST', `/v1/orgs/${orgId}/link-invites`, { token, body: { role } });

  it('creates, lists, reads and deletes (205) invite links', async () => {
    const org = await orgWithLinks();
    const made = await create(org.id, org.adminToken, 'edit');
    expectSpec(made, 'POST', '/orgs/{organizationId}/link-invites', 201);
    expect(made.body).toMatchObject({ object: 'invite', role: 'edit', redundant: true });
    expect(made.headers.get('location')).toBe(`${s.url}/v1/orgs/${org.id}/link-invites/${made.body.id}`);
    const guestInvite = await create(org.id, org.adminToken, null);
    expect(guestInvite.body.role).toBeNull();
    const listed = await s.request('GET', `/v1/orgs/${org.id}/link-invites`, { token: org.adminToken });
    expectSpec(listed, 'GET', '/orgs/{organizationId}/link-invites', 200);
    expect(listed.body.items.map((i: { id: string }) => i.id).sort()).toEqual([made.body.id, guestInvite.body.id].sort());
    const one = await s.request('GET', `/v1/orgs/${org.id}/link-invites/${made.body.id}`, { token: org.adminToken });
    expectSpec(one, 'GET', '/orgs/{organizationId}/link-invites/{inviteId}', 200);

    const del = await s.request('DELETE', `/v1/orgs/${org.id}/link-invites/${made.body.id}`, { token: org.adminToken });
    expect(del.status).toBe(205);
    expect(del.body).toBeUndefined();
    expectError(await s.request('GET', `/v1/orgs/${org.id}/link-invites/${made.body.id}`, { token: org.adminToken }), 404);
    expectError(await s.request('DELETE', `/v1/orgs/${org.id}/link-invites/${made.body.id}`, { token: org.adminToken }), 404);
  });

  it('joins through a link with its role while inviteLinks is on; a deleted link no longer works', async () => {
    const org = await orgWithLinks();
    const invite = (await create(org.id, org.adminToken, 'comment')).body;
    const newcomer = await s.user();
    expectError(await s.request('GET', `/v1/orgs/${org.id}`, { token: newcomer.token }), 404);
    const join = await s.request('POST', `/v1/orgs/${org.id}/invites/${invite.id}`, { token: newcomer.token });
    expectSpec(join, 'POST', '/orgs/{organizationId}/invites/{inviteId}', 200);
    const member = await s.request('GET', `/v1/orgs/${org.id}/members/${newcomer.id}`, { token: org.adminToken });
    expect(member.body.role).toBe('comment');
    // Joining again changes nothing.
    expect((await s.request('POST', `/v1/orgs/${org.id}/invites/${invite.id}`, { token: newcomer.token })).status).toBe(200);
    expect((await s.request('DELETE', `/v1/orgs/${org.id}/link-invites/${invite.id}`, { token: org.adminToken })).status).toBe(205);
    const late = await s.user();
    expectError(await s.request('POST', `/v1/orgs/${org.id}/invites/${invite.id}`, { token: late.token }), 404);
  });

  it('turning inviteLinks off stops links from being made or used', async () => {
    const org = await orgWithLinks();
    const invite = (await create(org.id, org.adminToken, 'read')).body;
    await s.request('PATCH', `/v1/orgs/${org.id}`, { token: org.adminToken, body: { inviteLinks: false } });
    expectError(await create(org.id, org.adminToken, 'read'), 409, /invite links turned off/);
    const outsider = await s.user();
    expectError(await s.request('POST', `/v1/orgs/${org.id}/invites/${invite.id}`, { token: outsider.token }), 404);
  });

  it('only admins manage links; bad roles and unknown ids are refused', async () => {
    const org = await orgWithLinks();
    const editor = await s.user({ org: org.id, role: 'edit' });
    const invite = (await create(org.id, org.adminToken, 'read')).body;
    expectError(await create(org.id, editor.token, 'read'), 403, /admin/);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/link-invites`, { token: editor.token }), 403);
    expectError(await s.request('DELETE', `/v1/orgs/${org.id}/link-invites/${invite.id}`, { token: editor.token }), 403);
    const stranger = await s.user();
    expectError(await s.request('DELETE', `/v1/orgs/${org.id}/link-invites/${invite.id}`, { token: stranger.token }), 404);
    expectError(await create(org.id, org.adminToken, 'owner'), 400, /body\.role/);
    expectError(await s.request('POST', `/v1/orgs/${org.id}/link-invites`, { token: org.adminToken, body: {} }), 400, /role/);
    expectError(await s.request('DELETE', `/v1/orgs/${org.id}/link-invites/unknown`, { token: org.adminToken }), 404);
  });
});
