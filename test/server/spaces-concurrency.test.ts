import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createCollection, createSpace, joinAs, spacesOfCollection } from '../helpers/spaces.js';

describe.each(testDialects())('spaces under concurrent writes (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const positionsIn = async (parentId: string) =>
    (
      await s.server.db.kysely
        .selectFrom('spaces')
        .select('position')
        .where('parent_id', '=', parentId)
        .where('deleted_at', 'is', null)
        .execute()
    ).map((r) => Number(r.position));
  const orphansOf = (collectionId: string) =>
    s.server.db.kysely.selectFrom('spaces').select('id').where('parent_id', '=', collectionId).execute();

  it('spaces created and duplicated at the same time in one collection get distinct positions', async () => {
    const shelf = await createCollection(s, { title: 'Busy' });
    const first = await createSpace(s, { parent: shelf.id, title: 'first' });
    const results = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: `s${i}`, parent: shelf.id } }),
      ),
      ...Array.from({ length: 3 }, () => s.request('POST', `/v1/spaces/${first.id}/duplicate`)),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(9).fill(201));
    const positions = await positionsIn(shelf.id);
    expect(positions).toHaveLength(10);
    expect(new Set(positions).size).toBe(10);
  });

  it('concurrent moves within one collection leave a consistent order', async () => {
    const shelf = await createCollection(s, { title: 'Shuffle' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await createSpace(s, { parent: shelf.id, title: `m${i}` })).id);
    const results = await Promise.all(
      ids.map((id, i) =>
        s.request('POST', `/v1/spaces/${id}/move`, { body: { position: { before: { type: 'space', space: ids[(i + 2) % 5]! } } } }),
      ),
    );
    // A move whose anchor moved away first may find itself already in place.
    for (const r of results) expect([200, 409]).toContain(r.status);
    const order = await spacesOfCollection(s, shelf.id);
    expect([...order].sort()).toEqual([...ids].sort());
    const positions = await positionsIn(shelf.id);
    expect(new Set(positions).size).toBe(5);
  });

  it('a space put into a collection while the collection is deleted never points at the deleted one', async () => {
    const other = await s.organization('Receiving');
    await joinAs(s, other.id, 'admin');
    for (let round = 0; round < 4; round += 1) {
      const target = await createCollection(s, { title: `Doomed ${round}` });
      const foreign = await createCollection(s, { title: `Doomed abroad ${round}` }, { org: other.id });
      const loose = await createSpace(s, { title: 'loose' });
      const travelling = await createSpace(s, { title: 'travelling' });
      const inside = await createSpace(s, { parent: target.id, title: 'inside' });
      const [created, moved, duplicated, transferred, deleted, deletedAbroad] = await Promise.all([
        s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { parent: target.id, visibility: 'public' } }),
        s.request('POST', `/v1/spaces/${loose.id}/move`, { body: { parent: target.id } }),
        s.request('POST', `/v1/spaces/${inside.id}/duplicate`),
        s.request('POST', `/v1/spaces/${travelling.id}/transfer`, { body: { organization: other.id, collection: foreign.id } }),
        s.request('DELETE', `/v1/collections/${target.id}`),
        s.request('DELETE', `/v1/collections/${foreign.id}`),
      ]);
      expect(deleted.status).toBe(205);
      expect(deletedAbroad.status).toBe(205);
      for (const r of [created, moved, duplicated, transferred]) expect([200, 201, 400, 404]).toContain(r.status);
      expect(await orphansOf(target.id)).toEqual([]);
      expect(await orphansOf(foreign.id)).toEqual([]);
      // Whatever won, every space is readable and consistent with where it is.
      for (const id of [loose.id, travelling.id, inside.id]) {
        const got = await s.request('GET', `/v1/spaces/${id}`);
        expect(got.status).toBe(200);
        if (got.body.parent === undefined) expect(got.body.visibility).not.toBe('in-collection');
      }
    }
  });

  it('a space restored while its collection is deleted comes back at a live place', async () => {
    for (let round = 0; round < 4; round += 1) {
      const shelf = await createCollection(s, { title: `Short shelf ${round}` });
      const space = await createSpace(s, { parent: shelf.id });
      expect((await s.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
      const [restored, deleted] = await Promise.all([
        s.request('POST', `/v1/spaces/${space.id}/restore`),
        s.request('DELETE', `/v1/collections/${shelf.id}`),
      ]);
      expect(restored.status).toBe(200);
      expect(deleted.status).toBe(205);
      expect(await orphansOf(shelf.id)).toEqual([]);
      const got = await s.request('GET', `/v1/spaces/${space.id}`);
      expect(got.body.parent).toBeUndefined();
      expect(got.body.visibility).toBe('private');
    }
  });
});
