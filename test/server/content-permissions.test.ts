import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createCollection, createSpace } from '../helpers/spaces.js';

/**
 * The published spec's permission operations of spaces and collections (issue 18): give, list,
 * change and take back roles, and the aggregate of effective roles, each with its status, shape,
 * permission and bad input (docs/api.md, "Permissions of spaces and collections").
 */
describe.each(testDialects())('permissions of spaces and collections (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  for (const kind of ['spaces', 'collections'] as const) {
    const spec = kind === 'spaces' ? '/spaces/{spaceId}/permissions' : '/collections/{collectionId}/permissions';

    it(`${kind}: give, list, change, take back, aggregate`, async () => {
      const org = await s.organization();
      const as = (token: string) => ({ token });
      const admin = as(org.adminToken);
      const content =
        kind === 'spaces'
          ? await createSpace(s, { title: 'Shared' }, { org: org.id, token: org.adminToken })
          : await createCollection(s, { title: 'Shared' }, { org: org.id, token: org.adminToken });
      const base = `/v1/${kind}/${content.id}/permissions`;
      const guest = await s.user({ org: org.id, role: null, name: 'Gus Guest' });
      const reader = await s.user({ org: org.id, role: 'read', name: 'Rae Reader' });
      const team = (await s.request('PUT', `/v1/orgs/${org.id}/teams`, { ...admin, body: { title: 'Writers', members: [guest.id] } })).body;

      // Give: 204; the lists show who was given what, in the order given.
      expect((await s.request('POST', base, { ...admin, body: { role: 'comment', users: [guest.id] } })).status).toBe(204);
      expect((await s.request('POST', base, { ...admin, body: { role: 'edit', teams: [team.id] } })).status).toBe(204);
      const users = await s.request('GET', `${base}/users`, admin);
      expectSpec(users, 'GET', `${spec}/users`, 200);
      expect(users.body.items).toEqual([{ permission: 'comment', user: expect.objectContaining({ id: guest.id }) }]);
      const teams = await s.request('GET', `${base}/teams`, as(reader.token));
      expectSpec(teams, 'GET', `${spec}/teams`, 200);
      expect(teams.body.items).toEqual([{ permission: 'edit', team: expect.objectContaining({ id: team.id, object: 'team' }) }]);

      // Aggregate: everyone who can see the content with their effective role; `role` filters.
      const all = await s.request('GET', `${base}/aggregate`, admin);
      expectSpec(all, 'GET', `${spec}/aggregate`, 200);
      const roles = Object.fromEntries(all.body.items.map((i: { permission: string; user: { id: string } }) => [i.user.id, i.permission]));
      expect(roles).toEqual({ [org.adminId]: 'admin', [reader.id]: 'read', [guest.id]: 'edit' });
      const edits = await s.request('GET', `${base}/aggregate?role=edit`, admin);
      expect(edits.body.items.map((i: { user: { id: string } }) => i.user.id)).toEqual([guest.id]);
      expectError(await s.request('GET', `${base}/aggregate?role=owner`, admin), 400, 'query.role');

      // Change one: PATCH 204; role null takes it back; an empty body changes nothing.
      expect((await s.request('PATCH', `${base}/users/${guest.id}`, { ...admin, body: { role: 'review' } })).status).toBe(204);
      expect((await s.request('GET', `${base}/users`, admin)).body.items).toEqual([
        { permission: 'review', user: expect.objectContaining({ id: guest.id }) },
      ]);
      expect((await s.request('PATCH', `${base}/users/${guest.id}`, { ...admin, body: {} })).status).toBe(204);
      expect((await s.request('GET', `${base}/users`, admin)).body.items).toHaveLength(1);
      expect((await s.request('PATCH', `${base}/teams/${team.id}`, { ...admin, body: { role: null } })).status).toBe(204);
      expect((await s.request('GET', `${base}/teams`, admin)).body.items).toEqual([]);

      // Take back: 205 when a role was there, 204 when none was.
      expect((await s.request('DELETE', `${base}/users/${guest.id}`, admin)).status).toBe(205);
      expect((await s.request('DELETE', `${base}/users/${guest.id}`, admin)).status).toBe(204);
      expect((await s.request('DELETE', `${base}/teams/${team.id}`, admin)).status).toBe(204);
      expect((await s.request('GET', `${base}/users`, admin)).body.items).toEqual([]);
      // With nothing given, the guest sees nothing again.
      expectError(await s.request('GET', `/v1/${kind}/${content.id}`, as(guest.token)), 404);
    });

    it(`${kind}: who may, and bad input that changes nothing`, async () => {
      const org = await s.organization();
      const admin = { token: org.adminToken };
      const content =
        kind === 'spaces'
          ? await createSpace(s, { title: 'Guarded' }, { org: org.id, token: org.adminToken })
          : await createCollection(s, { title: 'Guarded' }, { org: org.id, token: org.adminToken });
      const base = `/v1/${kind}/${content.id}/permissions`;
      const editor = await s.user({ org: org.id, role: 'edit' });
      const guest = await s.user({ org: org.id, role: null });
      const other = await s.organization();
      const stranger = await s.user();
      const otherTeam = (await s.request('PUT', `/v1/orgs/${other.id}/teams`, { token: other.adminToken, body: { title: 'Theirs' } })).body;

      // Reading needs read; changing needs admin on the content; no role at all is a 404.
      expect((await s.request('GET', `${base}/users`, { token: editor.token })).status).toBe(200);
      expectError(await s.request('POST', base, { token: editor.token, body: { role: 'admin', users: [editor.id] } }), 403);
      expectError(await s.request('PATCH', `${base}/users/${editor.id}`, { token: editor.token, body: { role: 'admin' } }), 403);
      expectError(await s.request('DELETE', `${base}/users/${editor.id}`, { token: editor.token }), 403);
      expectError(await s.request('GET', `${base}/users`, { token: guest.token }), 404);
      expectError(await s.request('GET', `${base}/aggregate`, { token: other.adminToken }), 404);
      expectError(await s.request('GET', `${base}/users`, { token: null }), 401);
      // A content admin by grant may manage it.
      expect((await s.request('PATCH', `${base}/users/${editor.id}`, { ...admin, body: { role: 'admin' } })).status).toBe(204);
      expect((await s.request('POST', base, { token: editor.token, body: { role: 'read', users: [guest.id] } })).status).toBe(204);

      // Bad input names the field, and nothing changes.
      const before = (await s.request('GET', `${base}/users`, admin)).body.items;
      expectError(await s.request('POST', base, { ...admin, body: { role: 'read' } }), 400, /body\.users or body\.teams/);
      expectError(await s.request('POST', base, { ...admin, body: { role: 'owner', users: [guest.id] } }), 400, 'body.role');
      expectError(await s.request('POST', base, { ...admin, body: { role: 'read', users: [guest.id, stranger.id] } }), 404, 'body.users.1');
      expectError(await s.request('POST', base, { ...admin, body: { role: 'read', teams: [otherTeam.id] } }), 404, 'body.teams.0');
      expectError(await s.request('PATCH', `${base}/users/${stranger.id}`, { ...admin, body: { role: 'read' } }), 404, 'path.userId');
      expectError(await s.request('PATCH', `${base}/teams/${otherTeam.id}`, { ...admin, body: { role: 'read' } }), 404, 'path.teamId');
      expectError(await s.request('PATCH', `${base}/users/${guest.id}`, { ...admin, body: { role: 'boss' } }), 400, 'body.role');
      expect((await s.request('GET', `${base}/users`, admin)).body.items).toEqual(before);
      expectError(await s.request('GET', `/v1/${kind}/nope/permissions/users`, admin), 404);
    });
  }
});
