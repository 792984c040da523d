import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createCollection, createSpace, spacesOfCollection } from '../helpers/spaces.js';

describe.each(testDialects())('spaces: move (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const move = (id: string, body: unknown) => s.request('POST', `/v1/spaces/${id}/move`, { body });
  const at = (space: string) => ({ type: 'space', space });

  /** A collection holding three spaces, created in the order a, b, c. */
  async function threeInCollection() {
    const collection = await createCollection(s, { title: 'Shelf' });
    const a = (await createSpace(s, { parent: collection.id, title: 'a' })).id as string;
    const b = (await createSpace(s, { parent: collection.id, title: 'b' })).id as string;
    const c = (await createSpace(s, { parent: collection.id, title: 'c' })).id as string;
    expect(await spacesOfCollection(s, collection.id)).toEqual([a, b, c]);
    return { collection: collection.id as string, a, b, c };
  }

  it('moves a space into a collection (last) and back to the root', async () => {
    const { collection, a, b, c } = await threeInCollection();
    const space = await createSpace(s, { title: 'Loose' });
    const into = await move(space.id, { parent: collection });
    expectSpec(into, 'POST', '/spaces/{spaceId}/move', 200);
    expect(into.body).toMatchObject({ id: space.id, parent: collection, visibility: 'private', organization: s.orgId });
    expect(await spacesOfCollection(s, collection)).toEqual([a, b, c, space.id]);

    const out = await move(space.id, { parent: null });
    expectSpec(out, 'POST', '/spaces/{spaceId}/move', 200);
    expect(out.body).not.toHaveProperty('parent');
    expect(await spacesOfCollection(s, collection)).toEqual([a, b, c]);
    const got = await s.request('GET', `/v1/spaces/${space.id}`);
    expect(got.body).not.toHaveProperty('parent');
  });

  it('places a space before or after a sibling', async () => {
    const { collection, a, b, c } = await threeInCollection();
    expectSpec(await move(c, { position: { before: at(a) } }), 'POST', '/spaces/{spaceId}/move', 200);
    expect(await spacesOfCollection(s, collection)).toEqual([c, a, b]);
    expectSpec(await move(c, { position: { after: at(a) } }), 'POST', '/spaces/{spaceId}/move', 200);
    expect(await spacesOfCollection(s, collection)).toEqual([a, c, b]);
    expectSpec(await move(a, { position: { after: at(b) } }), 'POST', '/spaces/{spaceId}/move', 200);
    expect(await spacesOfCollection(s, collection)).toEqual([c, b, a]);
    expectSpec(await move(a, { position: { after: at(c), before: at(b) } }), 'POST', '/spaces/{spaceId}/move', 200);
    expect(await spacesOfCollection(s, collection)).toEqual([c, a, b]);
  });

  it('moves into a collection at a given place in one call', async () => {
    const { collection, a, b, c } = await threeInCollection();
    const space = await createSpace(s, { title: 'Newcomer' });
    const res = await move(space.id, { parent: collection, position: { before: at(b) } });
    expectSpec(res, 'POST', '/spaces/{spaceId}/move', 200);
    expect(await spacesOfCollection(s, collection)).toEqual([a, space.id, b, c]);
  });

  it('collections and spaces share one order under a parent', async () => {
    const { collection, a, b, c } = await threeInCollection();
    const sub = await createCollection(s, { title: 'Sub', parent: collection });
    const res = await move(a, { position: { after: { type: 'collection', collection: sub.id } } });
    expectSpec(res, 'POST', '/spaces/{spaceId}/move', 200);
    expect(await spacesOfCollection(s, collection)).toEqual([b, c, a]);
    expectSpec(await move(a, { position: { before: at(b) } }), 'POST', '/spaces/{spaceId}/move', 200);
    expect(await spacesOfCollection(s, collection)).toEqual([a, b, c]);
  });

  it('a pointer that is not a sibling in the target parent is a 400 naming the field', async () => {
    const { collection, a, b } = await threeInCollection();
    const elsewhere = await createSpace(s, { title: 'Root space' });
    expectError(await move(a, { position: { before: at(elsewhere.id) } }), 400, /body\.position\.before/);
    expectError(await move(a, { position: { after: at('noSuchSpace') } }), 400, /body\.position\.after/);
    expectError(await move(elsewhere.id, { parent: collection, position: { after: at(elsewhere.id) } }), 400, /body\.position\.after/);
    expectError(await move(a, { position: { before: at(a) } }), 400, /body\.position\.before/);
    const c = (await spacesOfCollection(s, collection))[2]!;
    expectError(await move(c, { position: { after: at(a), before: at(a) } }), 400, /body\.position/);
    expectError(await move(a, { position: { before: { type: 'page', page: b } } }), 400, /body\.position/);
    expect((await spacesOfCollection(s, collection))[0]).toBe(a);
  });

  it('a move that changes nothing is a 409', async () => {
    const { collection, a, b, c } = await threeInCollection();
    expectError(await move(b, { position: { after: at(a) } }), 409, /would not change/);
    expectError(await move(b, { position: { before: at(c) } }), 409, /would not change/);
    expectError(await move(b, { position: { after: at(a), before: at(c) } }), 409, /would not change/);
    // Without a position the space goes last (published spec), so only the last one stays put.
    expectError(await move(c, { parent: collection }), 409, /would not change/);
    expect(await spacesOfCollection(s, collection)).toEqual([a, b, c]);
    expectSpec(await move(b, { parent: collection }), 'POST', '/spaces/{spaceId}/move', 200);
    expect(await spacesOfCollection(s, collection)).toEqual([a, c, b]);
    const root = await createSpace(s);
    expectError(await move(root.id, { parent: null }), 409);
  });

  it('bad bodies and bad parents are 400s', async () => {
    const { collection, a } = await threeInCollection();
    expectError(await move(a, {}), 400, /body/);
    expectError(await move(a, { parent: collection, extra: 1 }), 400, /extra/);
    expectError(await move(a, { parent: 'noSuchCollection' }), 400, /body\.parent/);
    const other = await s.organization();
    const foreign = await createCollection(s, { title: 'Foreign' }, { org: other.id, token: other.adminToken });
    expectError(await move(a, { parent: foreign.id }), 400, /body\.parent/);
  });

  it('an in-collection space cannot be moved to the root', async () => {
    const { collection, a } = await threeInCollection();
    const res = await move(a, { parent: null });
    expectError(res, 400, /in-collection/);
    expect(await spacesOfCollection(s, collection)).toContain(a);
    const other = await createCollection(s, { title: 'Other shelf' });
    expectSpec(await move(a, { parent: other.id }), 'POST', '/spaces/{spaceId}/move', 200);
    expect(await spacesOfCollection(s, other.id)).toEqual([a]);
  });

  it('a restored space comes back last among its siblings', async () => {
    const { collection, a, b, c } = await threeInCollection();
    expect((await s.request('DELETE', `/v1/spaces/${a}`)).status).toBe(205);
    expect(await spacesOfCollection(s, collection)).toEqual([b, c]);
    expectSpec(await move(c, { position: { before: at(b) } }), 'POST', '/spaces/{spaceId}/move', 200);
    expect(await spacesOfCollection(s, collection)).toEqual([c, b]);
    expect((await s.request('POST', `/v1/spaces/${a}/restore`)).status).toBe(200);
    expect(await spacesOfCollection(s, collection)).toEqual([c, b, a]);
  });
});
