import { loadTree } from '../../src/server/store/trees.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createCollection, createSpace, spacesOfCollection } from '../helpers/spaces.js';

describe.each(testDialects())('spaces: duplicate (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const duplicate = (id: string, token?: string) => s.request('POST', `/v1/spaces/${id}/duplicate`, token ? { token } : {});
  const revision = (id: string) => s.server.db.kysely.selectFrom('revisions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('answers 201 with a new space, a new revision holding the same tree, and a Location', async () => {
    const source = await createSpace(s, { title: 'Original', emoji: '📗', visibility: 'unlisted', editMode: 'locked' });
    await s.request('PATCH', `/v1/spaces/${source.id}`, { body: { defaultLevel: 'comment' } });
    const res = await duplicate(source.id);
    expectSpec(res, 'POST', '/spaces/{spaceId}/duplicate', 201);
    const copy = res.body;
    expect(res.headers.get('location')).toBe(`${s.url}/v1/spaces/${copy.id}`);
    expect(copy.id).not.toBe(source.id);
    expect(copy.revision).not.toBe(source.revision);
    expect(copy).toMatchObject({
      title: 'Original (copy)',
      emoji: '📗',
      visibility: 'unlisted',
      editMode: 'locked',
      defaultLevel: 'comment',
      organization: s.orgId,
      comments: 0,
      changeRequests: 0,
    });
    expect(copy).not.toHaveProperty('parent');

    const [from, to] = [await revision(source.revision), await revision(copy.revision)];
    expect(to.space_id).toBe(copy.id);
    // The copy shares the source's tree blob: same content, nothing stored twice.
    expect(to.tree_sha).toBe(from.tree_sha);

    const got = await s.request('GET', `/v1/spaces/${copy.id}`);
    expectSpec(got, 'GET', '/spaces/{spaceId}', 200);
    expect(got.body).toEqual(copy);
    const original = await s.request('GET', `/v1/spaces/${source.id}`);
    expect(original.body.title).toBe('Original');
  });

  it('a 50-character title stays within 50 characters and still reads as a copy', async () => {
    const long = 'L'.repeat(50);
    const source = await createSpace(s, { title: long });
    const res = await duplicate(source.id);
    expectSpec(res, 'POST', '/spaces/{spaceId}/duplicate', 201);
    expect(res.body.title.length).toBeLessThanOrEqual(50);
    expect(res.body.title).toBe(`${'L'.repeat(43)} (copy)`);
    const again = await duplicate(res.body.id);
    expect(again.body.title).toBe(`${'L'.repeat(43)} (copy)`);
  });

  it('a copy stays in the same collection, after the last sibling', async () => {
    const shelf = await createCollection(s, { title: 'Shelf' });
    const a = await createSpace(s, { parent: shelf.id, title: 'a' });
    const b = await createSpace(s, { parent: shelf.id, title: 'b' });
    const res = await duplicate(a.id);
    expectSpec(res, 'POST', '/spaces/{spaceId}/duplicate', 201);
    expect(res.body).toMatchObject({ parent: shelf.id, visibility: 'in-collection', title: 'a (copy)' });
    expect(await spacesOfCollection(s, shelf.id)).toEqual([a.id, b.id, res.body.id]);
  });

  it('an empty space duplicates to an empty space', async () => {
    const source = await createSpace(s, { empty: true });
    const res = await duplicate(source.id);
    expectSpec(res, 'POST', '/spaces/{spaceId}/duplicate', 201);
    expect((await loadTree(s.server.db.kysely, (await revision(res.body.revision)).tree_sha)).pages).toEqual([]);
  });

  it('needs the create role on the space and where the copy goes; deleted and unknown spaces are 404', async () => {
    const source = await createSpace(s, { title: 'Guarded' });
    const reader = await s.user({ org: s.orgId, role: 'read' });
    expectError(await duplicate(source.id, reader.token), 403, /create/);
    // A create level on the space alone does not let a read member add spaces to the organization.
    await s.request('PATCH', `/v1/spaces/${source.id}`, { body: { defaultLevel: 'create' } });
    expectError(await duplicate(source.id, reader.token), 403, /create/);
    const creator = await s.user({ org: s.orgId, role: 'create' });
    expectSpec(await duplicate(source.id, creator.token), 'POST', '/spaces/{spaceId}/duplicate', 201);
    expectError(await duplicate(source.id, (await s.user()).token), 404);
    expectError(await duplicate('noSuchSpace'), 404);
    expect((await s.request('DELETE', `/v1/spaces/${source.id}`)).status).toBe(205);
    expectError(await duplicate(source.id), 404);
  });
});
