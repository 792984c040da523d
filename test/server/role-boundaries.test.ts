import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';
import { createCollection, createSpace } from '../helpers/spaces.js';
import { upsertMember } from '../../src/server/store/organizations.js';

// Issue 25, items 4 to 6: no role does more than docs/api.md's table says.
describe.each(testDialects())('role boundaries (%s)', (dialect) => {
  let s: TestServer;
  let src: Server;
  let srcUrl: string;
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    src = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Imported\n\nzanzibar text\n'));
    await new Promise<void>((resolve) => src.listen(0, '127.0.0.1', resolve));
    srcUrl = `http://127.0.0.1:${(src.address() as AddressInfo).port}/doc.md`;
  });
  afterAll(async () => {
    await s?.close();
    src?.closeAllConnections();
    await new Promise((resolve) => src?.close(resolve));
  });

  it('an import into live content needs the role a merge needs; into a change request, edit', async () => {
    const space = await createSpace(s, { title: 'Live' });
    const editor = await s.user({ org: s.orgId, role: 'edit' });
    const reviewer = await s.user({ org: s.orgId, role: 'review' });
    const body = { url: srcUrl, source: 'markdown' };
    expectError(await s.request('POST', `/v1/spaces/${space.id}/content/import`, { body, token: editor.token }), 403);
    expect((await s.request('GET', `/v1/spaces/${space.id}`)).body.revision).toBe(space.revision);
    const merge = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'x' }, token: editor.token });
    expectError(await s.request('POST', `/v1/spaces/${space.id}/change-requests/${merge.body.id}/merge`, { token: editor.token }), 403);
    const intoCr = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${merge.body.id}/content/import`, {
      body,
      token: editor.token,
    });
    expect(intoCr.status).toBe(201);
    const live = await s.request('POST', `/v1/spaces/${space.id}/content/import`, { body, token: reviewer.token });
    expect(live.status).toBe(201);
  });

  it('a transfer needs the admin role of the organization, not a content admin given by a default level', async () => {
    const other = await s.organization('Elsewhere');
    const insider = await s.user({ org: s.orgId, role: 'read' });
    // The reader administers another organization, and is content admin through the default level.
    await upsertMember(s.server.db.kysely, { orgId: other.id, userId: insider.id, role: 'admin' }, s.clock.now().toISOString());
    const space = await createSpace(s, { title: 'Open' });
    expect((await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { defaultLevel: 'admin' } })).status).toBe(200);
    const seen = await s.request('GET', `/v1/spaces/${space.id}`, { token: insider.token });
    expect(seen.status).toBe(200);
    const refused = await s.request('POST', `/v1/spaces/${space.id}/transfer`, { body: { organization: other.id }, token: insider.token });
    expectError(refused, 403, /admin role in its organization/);
    expect((await s.request('GET', `/v1/spaces/${space.id}`)).body.organization).toBe(s.orgId);
    const shelf = await createCollection(s, { title: 'Open shelf' });
    expect((await s.request('PATCH', `/v1/collections/${shelf.id}`, { body: { defaultLevel: 'admin' } })).status).toBe(200);
    expectError(
      await s.request('POST', `/v1/collections/${shelf.id}/transfer`, { body: { organization: other.id }, token: insider.token }),
      403,
      /admin role in its organization/,
    );
  });

  it('deleting a hidden collection leaves the spaces that inherited from it hidden, from reads and search', async () => {
    // A guest given `read` on the outer collection: the hidden inner one ends the chain, so its
    // spaces are not theirs to see. Deleting the inner one must not hand them the outer grant.
    const guest = await s.user({ org: s.orgId, role: null });
    const outer = await createCollection(s, { title: 'Outer' });
    expect((await s.request('POST', `/v1/collections/${outer.id}/permissions`, { body: { role: 'read', users: [guest.id] } })).status).toBe(
      204,
    );
    const hidden = await createCollection(s, { title: 'Hidden', parent: outer.id });
    expect((await s.request('PATCH', `/v1/collections/${hidden.id}`, { body: { defaultLevel: null } })).status).toBe(200);
    const space = await createSpace(s, { title: 'Secret', parent: hidden.id });
    const imported = await s.request('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: srcUrl, source: 'markdown' } });
    expect(imported.status).toBe(201);
    expectError(await s.request('GET', `/v1/spaces/${space.id}`, { token: guest.token }), 404);
    expect((await s.request('DELETE', `/v1/collections/${hidden.id}`)).status).toBe(205);
    expect((await s.request('GET', `/v1/spaces/${space.id}`)).body.parent).toBe(outer.id);
    expectError(await s.request('GET', `/v1/spaces/${space.id}`, { token: guest.token }), 404);
    const found = await s.request('GET', `/v1/orgs/${s.orgId}/search?query=zanzibar`, { token: guest.token });
    expect(found.status).toBe(200);
    expect(found.body.items).toEqual([]);
    // The level was kept as the space's own, not lost.
    expect((await s.request('GET', `/v1/spaces/${space.id}`)).body.defaultLevel).toBeNull();
  });
});
