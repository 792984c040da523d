import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { specHasOperation } from '../helpers/spec.js';
import { createCollection, createSpace, joinAs, spacesOfCollection } from '../helpers/spaces.js';

/** The published spec no longer has the transfer operation; check the answer against GET's Space. */
function expectSpace(res: { status: number; body: unknown; headers: Headers }) {
  expect(specHasOperation('POST', '/spaces/{spaceId}/transfer')).toBe(false);
  expectSpec(res, 'GET', '/spaces/{spaceId}', 200);
}

describe.each(testDialects())('spaces: transfer (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const transfer = (id: string, body: unknown, token?: string) =>
    s.request('POST', `/v1/spaces/${id}/transfer`, { body, ...(token ? { token } : {}) });
  const idsIn = async (org: string, token?: string) => {
    const res = await s.request('GET', `/v1/orgs/${org}/spaces?limit=1000`, token ? { token } : {});
    expect(res.status).toBe(200);
    return (res.body.items as { id: string }[]).map((i) => i.id);
  };

  it('moves a space to an organization the caller administers', async () => {
    const other = await s.organization('Target');
    await joinAs(s, other.id, 'admin');
    const space = await createSpace(s, { title: 'Travelling', emoji: '🧳' });
    const reader = await s.user({ org: s.orgId, role: 'read' });
    expect((await s.request('GET', `/v1/spaces/${space.id}`, { token: reader.token })).status).toBe(200);

    const res = await transfer(space.id, { organization: other.id });
    expectSpace(res);
    expect(res.body).toMatchObject({ id: space.id, organization: other.id, title: 'Travelling', emoji: '🧳', revision: space.revision });
    expect(res.body).not.toHaveProperty('parent');

    expect(await idsIn(s.orgId)).not.toContain(space.id);
    expect(await idsIn(other.id)).toContain(space.id);
    // Access now follows the target organization: its admin sees it, the old org's reader does not.
    const theirs = await s.request('GET', `/v1/spaces/${space.id}`, { token: other.adminToken });
    expectSpec(theirs, 'GET', '/spaces/{spaceId}', 200);
    expect(theirs.body.organization).toBe(other.id);
    expectError(await s.request('GET', `/v1/spaces/${space.id}`, { token: reader.token }), 404);
    const revisions = await s.server.db.kysely.selectFrom('revisions').select('id').where('space_id', '=', space.id).execute();
    expect(revisions.map((r) => r.id)).toEqual([space.revision]);
  });

  it('is a 403 when the caller is not an admin of the target organization', async () => {
    const readOnly = await s.organization('Read only');
    await joinAs(s, readOnly.id, 'read');
    const stranger = await s.organization('Stranger');
    const space = await createSpace(s);
    expectError(await transfer(space.id, { organization: readOnly.id }), 403, /body\.organization/);
    expectError(await transfer(space.id, { organization: stranger.id }), 403, /body\.organization/);
    expectError(await transfer(space.id, { organization: 'noSuchOrg' }), 403, /body\.organization/);
    const got = await s.request('GET', `/v1/spaces/${space.id}`);
    expect(got.body.organization).toBe(s.orgId);
  });

  it('can land in a collection of the target organization', async () => {
    const other = await s.organization('With shelves');
    await joinAs(s, other.id, 'admin');
    const shelf = await createCollection(s, { title: 'Shelf' }, { org: other.id });
    const first = await createSpace(s, { parent: shelf.id }, { org: other.id });
    const space = await createSpace(s, { title: 'Incoming' });
    const res = await transfer(space.id, { organization: other.id, collection: shelf.id });
    expectSpace(res);
    expect(res.body).toMatchObject({ organization: other.id, parent: shelf.id });
    expect(await spacesOfCollection(s, shelf.id)).toEqual([first.id, space.id]);
  });

  it('a collection that is not in the target organization is a 400 naming body.collection', async () => {
    const other = await s.organization('Elsewhere');
    await joinAs(s, other.id, 'admin');
    const mine = await createCollection(s, { title: 'Home shelf' });
    const space = await createSpace(s);
    expectError(await transfer(space.id, { organization: other.id, collection: mine.id }), 400, /body\.collection/);
    expectError(await transfer(space.id, { organization: other.id, collection: 'noSuchCollection' }), 400, /body\.collection/);
    expect((await s.request('GET', `/v1/spaces/${space.id}`)).body.organization).toBe(s.orgId);
  });

  it('an in-collection space needs a collection in the target organization', async () => {
    const other = await s.organization('Flat');
    await joinAs(s, other.id, 'admin');
    const shelf = await createCollection(s, { title: 'Source shelf' });
    const space = await createSpace(s, { parent: shelf.id });
    expectError(await transfer(space.id, { organization: other.id }), 400, /in-collection/);
    const target = await createCollection(s, { title: 'Target shelf' }, { org: other.id });
    const res = await transfer(space.id, { organization: other.id, collection: target.id });
    expectSpace(res);
    expect(res.body).toMatchObject({ organization: other.id, parent: target.id, visibility: 'in-collection' });
    expect(await spacesOfCollection(s, shelf.id)).toEqual([]);
  });

  it('within the same organization it moves between collections; a transfer to where it is is a 409', async () => {
    const shelf = await createCollection(s, { title: 'Same-org shelf' });
    const space = await createSpace(s);
    expectError(await transfer(space.id, { organization: s.orgId }), 409, /would not change/);
    const res = await transfer(space.id, { organization: s.orgId, collection: shelf.id });
    expectSpace(res);
    expect(res.body).toMatchObject({ organization: s.orgId, parent: shelf.id });
    expectError(await transfer(space.id, { organization: s.orgId, collection: shelf.id }), 409);
  });

  it('validates the body and needs admin on the space', async () => {
    const space = await createSpace(s);
    expectError(await transfer(space.id, {}), 400, /organization/);
    expectError(await transfer(space.id, { organization: s.orgId, colour: 'red' }), 400, /colour/);
    expectError(await transfer(space.id, { organization: 5 }), 400, /body\.organization/);
    const creator = await s.user({ org: s.orgId, role: 'create' });
    expectError(await transfer(space.id, { organization: s.orgId }, creator.token), 403, /admin/);
    const stranger = await s.user();
    expectError(await transfer(space.id, { organization: s.orgId }, stranger.token), 404);
  });
});
