import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { childOrder, listAll, makeCollection, makeSpace } from '../helpers/collections.js';

describe.each(testDialects())('POST /v1/collections/{id}/move (%s)', (dialect) => {
  let s: TestServer;
  let org: { id: string; adminToken: string };
  // Per test, a fresh tree in a fresh organization:
  //   root: A, B, S (space)
  //   A:    sa1, sa2, sa3 (spaces), A1 (collection)
  //   A1:   A1a (collection)
  let A: any, B: any, S: any, A1: any, A1a: any, sa: any[];
  const as = () => ({ org: org.id, token: org.adminToken });
  const move = (id: string, body: unknown, token = org.adminToken) => s.request('POST', `/v1/collections/${id}/move`, { body, token });
  const spacePtr = (id: string) => ({ type: 'space', space: id });
  const collPtr = (id: string) => ({ type: 'collection', collection: id });

  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });
  beforeEach(async () => {
    org = await s.organization('Moves');
    A = await makeCollection(s, { title: 'A' }, as());
    B = await makeCollection(s, { title: 'B' }, as());
    S = await makeSpace(s, { title: 'S' }, as());
    sa = [];
    for (const title of ['sa1', 'sa2', 'sa3']) sa.push(await makeSpace(s, { title, parent: A.id }, as()));
    A1 = await makeCollection(s, { title: 'A1', parent: A.id }, as());
    A1a = await makeCollection(s, { title: 'A1a', parent: A1.id }, as());
  });

  it('starts from the order things were created in', async () => {
    expect(await childOrder(s, org.id, null)).toEqual([A.id, B.id, S.id]);
    expect(await childOrder(s, org.id, A.id)).toEqual([...sa.map((x) => x.id), A1.id]);
  });

  it('refuses to make a collection its own ancestor: under itself, a child or a grandchild', async () => {
    expectError(await move(A.id, { parent: A.id }), 400, /body\.parent.*itself/);
    expectError(await move(A.id, { parent: A1.id }), 400, /body\.parent.*own ancestor/);
    expectError(await move(A.id, { parent: A1a.id }), 400, /body\.parent.*own ancestor/);
    expectError(await move(A1.id, { parent: A1a.id }), 400, /body\.parent/);
    const after = await s.request('GET', `/v1/collections/${A.id}`, { token: org.adminToken });
    expect(after.body.parent).toBeUndefined();
    expect((await s.request('GET', `/v1/collections/${A1.id}`, { token: org.adminToken })).body.parent).toBe(A.id);
  });

  it('moves a collection under another one (appended last) and back to the root', async () => {
    const res = await move(B.id, { parent: A.id });
    expectSpec(res, 'POST', '/collections/{collectionId}/move', 200);
    expect(res.body).toMatchObject({ id: B.id, parent: A.id, organization: org.id });
    expect(await childOrder(s, org.id, A.id)).toEqual([...sa.map((x) => x.id), A1.id, B.id]);
    expect(await childOrder(s, org.id, null)).toEqual([A.id, S.id]);
    const nested = await s.request('GET', `/v1/orgs/${org.id}/collections?nested=false`, { token: org.adminToken });
    expect(nested.body.items.map((c: any) => c.id)).toEqual([A.id]);

    const back = await move(B.id, { parent: null });
    expectSpec(back, 'POST', '/collections/{collectionId}/move', 200);
    expect(back.body.parent).toBeUndefined();
    expect(await childOrder(s, org.id, null)).toEqual([A.id, S.id, B.id]);
  });

  it('moves a nested collection out with its own children', async () => {
    const res = await move(A1.id, { parent: B.id });
    expectSpec(res, 'POST', '/collections/{collectionId}/move', 200);
    expect(res.body.parent).toBe(B.id);
    expect((await s.request('GET', `/v1/collections/${A1a.id}`, { token: org.adminToken })).body.parent).toBe(A1.id);
    expect(await childOrder(s, org.id, A.id)).toEqual(sa.map((x) => x.id));
    // A is no longer an ancestor of A1a, so A can now go under it.
    expectSpec(await move(A.id, { parent: A1a.id }), 'POST', '/collections/{collectionId}/move', 200);
  });

  it('places the collection before or after a sibling space or collection', async () => {
    expectSpec(
      await move(B.id, { parent: A.id, position: { before: spacePtr(sa[1].id) } }),
      'POST',
      '/collections/{collectionId}/move',
      200,
    );
    expect(await childOrder(s, org.id, A.id)).toEqual([sa[0].id, B.id, sa[1].id, sa[2].id, A1.id]);

    // Only a position: the parent stays.
    const res = await move(B.id, { position: { after: collPtr(A1.id) } });
    expectSpec(res, 'POST', '/collections/{collectionId}/move', 200);
    expect(res.body.parent).toBe(A.id);
    expect(await childOrder(s, org.id, A.id)).toEqual([...sa.map((x) => x.id), A1.id, B.id]);

    expectSpec(await move(B.id, { position: { before: spacePtr(sa[0].id) } }), 'POST', '/collections/{collectionId}/move', 200);
    expect(await childOrder(s, org.id, A.id)).toEqual([B.id, ...sa.map((x) => x.id), A1.id]);

    expectSpec(
      await move(A1.id, { position: { after: spacePtr(sa[0].id), before: spacePtr(sa[1].id) } }),
      'POST',
      '/collections/{collectionId}/move',
      200,
    );
    expect(await childOrder(s, org.id, A.id)).toEqual([B.id, sa[0].id, A1.id, sa[1].id, sa[2].id]);

    // Collections moving around never disturb the order of the spaces among themselves.
    const listed = await listAll(s, `/v1/collections/${A.id}/spaces`, 2, org.adminToken);
    expect(listed.items.map((x) => x.id)).toEqual(sa.map((x) => x.id));

    // At the root, among a space and a collection.
    expectSpec(await move(B.id, { parent: null, position: { before: collPtr(A.id) } }), 'POST', '/collections/{collectionId}/move', 200);
    expect(await childOrder(s, org.id, null)).toEqual([B.id, A.id, S.id]);
  });

  it('keeps the sibling order that moved spaces show in the collection listing', async () => {
    // The spaces listing follows the shared sibling order, so moving a space shows up there.
    const moved = await s.request('POST', `/v1/spaces/${sa[2].id}/move`, {
      token: org.adminToken,
      body: { position: { before: spacePtr(sa[0].id) } },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expectSpec(
      await move(B.id, { parent: A.id, position: { after: spacePtr(sa[2].id) } }),
      'POST',
      '/collections/{collectionId}/move',
      200,
    );
    const listed = await listAll(s, `/v1/collections/${A.id}/spaces`, 2, org.adminToken);
    expect(listed.items.map((x) => x.id)).toEqual([sa[2].id, sa[0].id, sa[1].id]);
    expect(await childOrder(s, org.id, A.id)).toEqual([sa[2].id, B.id, sa[0].id, sa[1].id, A1.id]);
  });

  it('refuses pointers that are not among the target parent children, at itself, or not neighbours', async () => {
    // S lives at the root, not in A.
    expectError(await move(B.id, { parent: A.id, position: { before: spacePtr(S.id) } }), 400, /body\.position\.before/);
    // A1 is a collection: a space pointer with its id is not the same sibling.
    expectError(await move(B.id, { parent: A.id, position: { after: spacePtr(A1.id) } }), 400, /body\.position\.after/);
    expectError(await move(B.id, { parent: A.id, position: { after: collPtr('missing') } }), 400, /body\.position\.after/);
    expectError(await move(B.id, { position: { before: collPtr(B.id) } }), 400, /body\.position\.before/);
    expectError(await move(B.id, { parent: A.id, position: { after: spacePtr(sa[0].id), before: spacePtr(sa[2].id) } }), 400, /neighbours/);
    expectError(await move(B.id, { position: { before: { type: 'page', page: 'x' } } }), 400, /body\.position/);
    expect(await childOrder(s, org.id, A.id)).toEqual([...sa.map((x) => x.id), A1.id]);
    expect(await childOrder(s, org.id, null)).toEqual([A.id, B.id, S.id]);
  });

  it('answers 409 when the move changes nothing', async () => {
    expectError(await move(A1.id, { parent: A.id }), 409, /would not change anything/);
    expectError(await move(A1.id, { position: { after: spacePtr(sa[2].id) } }), 409);
    expectError(await move(A.id, { parent: null, position: { before: collPtr(B.id) } }), 409);
    expectError(await move(S.id, { parent: null }), 404);
  });

  it('never makes a cycle when two collections are moved under each other at the same time', async () => {
    for (let round = 0; round < 5; round += 1) {
      const X = await makeCollection(s, { title: `X${round}` }, as());
      const Y = await makeCollection(s, { title: `Y${round}` }, as());
      const [xy, yx] = await Promise.all([move(X.id, { parent: Y.id }), move(Y.id, { parent: X.id })]);
      // Exactly one of them wins; the other now finds its target inside itself.
      expect([xy.status, yx.status].sort()).toEqual([200, 400]);
      const parents = await s.server.db.kysely
        .selectFrom('collections')
        .select(['id', 'parent_id'])
        .where('id', 'in', [X.id, Y.id])
        .execute();
      expect(parents.filter((p) => p.parent_id === null)).toHaveLength(1);
    }
  });

  it('refuses a parent from another organization or an unknown one with 400', async () => {
    const other = await s.organization('Other');
    const foreign = await makeCollection(s, {}, { org: other.id, token: other.adminToken });
    expectError(await move(B.id, { parent: foreign.id }), 400, /body\.parent/);
    expectError(await move(B.id, { parent: 'missing' }), 400, /body\.parent/);
  });

  it('needs admin on the collection and the right to create in the target parent', async () => {
    const creator = await s.user({ org: org.id, role: 'create' });
    expectError(await move(B.id, { parent: A.id }, creator.token), 403);
    // Admin on B through its default level, but only a reader of the organization and of A.
    const reader = await s.user({ org: org.id, role: 'read' });
    await s.request('PATCH', `/v1/collections/${B.id}`, { token: org.adminToken, body: { defaultLevel: 'admin' } });
    expectError(await move(B.id, { parent: A.id }, reader.token), 403);
    expectError(await move(B.id, { position: { before: collPtr(A.id) } }, reader.token), 403);
    await s.request('PATCH', `/v1/collections/${A.id}`, { token: org.adminToken, body: { defaultLevel: 'create' } });
    const res = await move(B.id, { parent: A.id }, reader.token);
    expectSpec(res, 'POST', '/collections/{collectionId}/move', 200);
    expect(res.body.parent).toBe(A.id);
  });
});
