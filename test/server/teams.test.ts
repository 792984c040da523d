import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';

describe.each(testDialects())('teams and team members (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function setup() {
    const org = await s.organization('Teams org');
    const alice = await s.user({ org: org.id, role: 'edit', name: 'Alice' });
    const bob = await s.user({ org: org.id, role: 'read', name: 'Bob' });
    const guest = await s.user({ org: org.id, role: null, name: 'Gus' });
    const as = (token: string) => ({ token });
    return { org, alice, bob, guest, admin: as(org.adminToken) };
  }
  const team = (orgId: string, id: string, token: string) => s.request('GET', `/v1/orgs/${orgId}/teams/${id}`, { token });

  it('creates (PUT 201), lists with filters, reads, renames and deletes (204) teams', async () => {
    const { org, alice, bob } = await setup();
    const made = await s.request('PUT', `/v1/orgs/${org.id}/teams`, {
      token: org.adminToken,
      body: { title: 'Writers', members: [alice.id, bob.id] },
    });
    expectSpec(made, 'PUT', '/orgs/{organizationId}/teams', 201);
    expect(made.body).toMatchObject({ object: 'team', title: 'Writers', members: 2, spaces: 0, permissions: { admin: true, view: true } });
    expect(made.headers.get('location')).toBe(`${s.url}/v1/orgs/${org.id}/teams/${made.body.id}`);
    s.clock.advance(1000);
    const other = await s.request('PUT', `/v1/orgs/${org.id}/teams`, { token: org.adminToken, body: { title: 'Reviewers' } });
    expect(other.status).toBe(201);

    const list = await s.request('GET', `/v1/orgs/${org.id}/teams`, { token: bob.token });
    expectSpec(list, 'GET', '/orgs/{organizationId}/teams', 200);
    expect(list.body.items.map((t: { id: string }) => t.id)).toEqual([made.body.id, other.body.id]);
    expect(list.body.items[0].permissions).toEqual({ admin: false, view: true });
    const byTitle = await s.request('GET', `/v1/orgs/${org.id}/teams?title=WRIT`, { token: bob.token });
    expect(byTitle.body.items.map((t: { id: string }) => t.id)).toEqual([made.body.id]);
    const paged = await s.request('GET', `/v1/orgs/${org.id}/teams?limit=1`, { token: bob.token });
    expect(paged.body.items).toHaveLength(1);
    const rest = await s.request('GET', `/v1/orgs/${org.id}/teams?limit=1&page=${paged.body.next.page}`, { token: bob.token });
    expect(rest.body.items.map((t: { id: string }) => t.id)).toEqual([other.body.id]);

    // owner: the teams that member can manage (an admin manages all).
    expect((await s.request('GET', `/v1/orgs/${org.id}/teams?owner=${alice.id}`, { token: bob.token })).body.items).toEqual([]);
    expect(
      (
        await s.request('PUT', `/v1/orgs/${org.id}/teams/${made.body.id}/members/${alice.id}`, {
          token: org.adminToken,
          body: { role: 'owner' },
        })
      ).status,
    ).toBe(204);
    const owned = await s.request('GET', `/v1/orgs/${org.id}/teams?owner=${alice.id}`, { token: bob.token });
    expect(owned.body.items.map((t: { id: string }) => t.id)).toEqual([made.body.id]);
    expect((await s.request('GET', `/v1/orgs/${org.id}/teams?owner=${org.adminId}`, { token: bob.token })).body.items).toHaveLength(2);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/teams?owner=nobody`, { token: bob.token }), 400, /owner/);

    const read = await team(org.id, made.body.id, alice.token);
    expectSpec(read, 'GET', '/orgs/{organizationId}/teams/{teamId}', 200);
    expect(read.body.permissions.admin).toBe(true);
    const renamed = await s.request('PATCH', `/v1/orgs/${org.id}/teams/${made.body.id}`, {
      token: org.adminToken,
      body: { title: 'Authors' },
    });
    expectSpec(renamed, 'PATCH', '/orgs/{organizationId}/teams/{teamId}', 200);
    expect(renamed.body.title).toBe('Authors');
    expectError(await s.request('PATCH', `/v1/orgs/${org.id}/teams/${made.body.id}`, { token: alice.token, body: { title: 'Mine' } }), 403);
    expectError(await s.request('DELETE', `/v1/orgs/${org.id}/teams/${made.body.id}`, { token: alice.token }), 403);
    const del = await s.request('DELETE', `/v1/orgs/${org.id}/teams/${made.body.id}`, { token: org.adminToken });
    expect(del.status).toBe(204);
    expectError(await team(org.id, made.body.id, org.adminToken), 404);
    expect((await s.request('GET', `/v1/orgs/${org.id}/members/${alice.id}`, { token: org.adminToken })).body.teams).toBe(0);
  });

  it('refuses bad titles, members from outside, and non-admins', async () => {
    const { org, alice, guest } = await setup();
    const put = (body: unknown, token = org.adminToken) => s.request('PUT', `/v1/orgs/${org.id}/teams`, { token, body });
    expectError(await put({ title: '' }), 400, /body\.title/);
    expectError(await put({ title: 't'.repeat(65) }), 400, /body\.title/);
    expect((await put({ title: 't'.repeat(64) })).status).toBe(201);
    expectError(await put({}), 400, /title/);
    const stranger = await s.user();
    expectError(await put({ title: 'X', members: [alice.id, stranger.id] }), 400, /body\.members\.1/);
    expectError(await put({ title: 'X' }, alice.token), 403);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/teams`, { token: guest.token }), 403);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/teams`, { token: stranger.token }), 404);
    expectError(await team(org.id, 'unknown', org.adminToken), 404);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/teams?limit=0`, { token: org.adminToken }), 400, /limit/);
  });

  it('changes members in bulk by id or e-mail, with roles; counts stay true', async () => {
    const { org, alice, bob, guest } = await setup();
    const t = (await s.request('PUT', `/v1/orgs/${org.id}/teams`, { token: org.adminToken, body: { title: 'Bulk' } })).body;
    const bulk = (body: unknown, token = org.adminToken) => s.request('PUT', `/v1/orgs/${org.id}/teams/${t.id}/members`, { token, body });
    const res = await bulk({
      add: [alice.id, bob.email.toUpperCase(), guest.id],
      remove: [guest.email],
      memberships: { [alice.id]: { role: 'owner' } },
    });
    expect(res.status).toBe(204);
    const members = await s.request('GET', `/v1/orgs/${org.id}/teams/${t.id}/members`, { token: org.adminToken });
    expectSpec(members, 'GET', '/orgs/{organizationId}/teams/{teamId}/members', 200);
    const roles = Object.fromEntries(
      members.body.items.map((i: { organization: { id: string }; team: { role: string } }) => [i.organization.id, i.team.role]),
    );
    expect(roles).toEqual({ [alice.id]: 'owner', [bob.id]: 'member' });
    expect(members.body.items[0].organization.teams).toBe(1);
    expect((await team(org.id, t.id, org.adminToken)).body.members).toBe(2);

    // A team owner manages its members; an ordinary member does not.
    expect((await bulk({ add: [guest.id] }, alice.token)).status).toBe(204);
    expectError(await bulk({ remove: [alice.id] }, bob.token), 403);
    expect((await s.request('DELETE', `/v1/orgs/${org.id}/teams/${t.id}/members/${guest.id}`, { token: alice.token })).status).toBe(204);
    expect((await s.request('DELETE', `/v1/orgs/${org.id}/teams/${t.id}/members/${guest.id}`, { token: alice.token })).status).toBe(204);
    expect((await team(org.id, t.id, org.adminToken)).body.members).toBe(2);

    const stranger = await s.user();
    expectError(await bulk({ add: [stranger.email] }), 400, new RegExp(`body\\.add\\.0.*${stranger.email.replace('.', '\\.')}`));
    expectError(await bulk({ remove: ['nobody'] }), 400, /body\.remove\.0/);
    expectError(await bulk({ memberships: { [bob.id]: { role: 'boss' } } }), 400, /memberships/);
    expectError(
      await s.request('PUT', `/v1/orgs/${org.id}/teams/${t.id}/members/${stranger.id}`, { token: org.adminToken, body: {} }),
      404,
    );

    // The member's teams list, with the title filter.
    const mine = await s.request('GET', `/v1/orgs/${org.id}/members/${alice.id}/teams?title=bul`, { token: alice.token });
    expectSpec(mine, 'GET', '/orgs/{organizationId}/members/{userId}/teams', 200);
    expect(mine.body.items).toEqual([expect.objectContaining({ member: { role: 'owner' }, team: expect.objectContaining({ id: t.id }) })]);
    expect((await s.request('GET', `/v1/orgs/${org.id}/members/${alice.id}/teams?title=zzz`, { token: alice.token })).body.items).toEqual(
      [],
    );

    // Removing a member from the organization removes them from its teams.
    expect((await s.request('DELETE', `/v1/orgs/${org.id}/members/${bob.id}`, { token: org.adminToken })).status).toBe(204);
    expect((await team(org.id, t.id, org.adminToken)).body.members).toBe(1);
  });

  it("counts the spaces a team reaches and gives its members the team's role", async () => {
    const { org, guest } = await setup();
    const t = (
      await s.request('PUT', `/v1/orgs/${org.id}/teams`, { token: org.adminToken, body: { title: 'Guests', members: [guest.id] } })
    ).body;
    const space = await createSpace(s, { title: 'Shared' }, { org: org.id, token: org.adminToken });
    expectError(await s.request('GET', `/v1/spaces/${space.id}`, { token: guest.token }), 404);
    expect(
      (await s.request('POST', `/v1/spaces/${space.id}/permissions`, { token: org.adminToken, body: { role: 'edit', teams: [t.id] } }))
        .status,
    ).toBe(204);
    const seen = await s.request('GET', `/v1/spaces/${space.id}`, { token: guest.token });
    expect(seen.body.permissions).toMatchObject({ edit: true, review: false });
    expect((await team(org.id, t.id, org.adminToken)).body.spaces).toBe(1);
    expect((await s.request('GET', `/v1/orgs/${org.id}/members/${guest.id}`, { token: org.adminToken })).body.spaces).toBe(1);
    // Deleting the space or the team takes it away.
    expect((await s.request('DELETE', `/v1/orgs/${org.id}/teams/${t.id}`, { token: org.adminToken })).status).toBe(204);
    expectError(await s.request('GET', `/v1/spaces/${space.id}`, { token: guest.token }), 404);
  });
});
