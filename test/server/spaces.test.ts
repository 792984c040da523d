import { loadTree } from '../../src/server/store/trees.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { specHasOperation } from '../helpers/spec.js';
import { createCollection, createSpace } from '../helpers/spaces.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe.each(testDialects())('spaces: create, read, update (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('POST /v1/orgs/{id}/spaces answers 201 with every field of a Space and a Location', async () => {
    const res = await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Handbook', emoji: '📘' } });
    expectSpec(res, 'POST', '/orgs/{organizationId}/spaces', 201);
    const space = res.body;
    expect(space).toMatchObject({
      object: 'space',
      title: 'Handbook',
      emoji: '📘',
      visibility: 'private',
      editMode: 'live',
      organization: s.orgId,
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      mergeRules: { type: 'inherit' },
    });
    expect(space.id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(space.revision).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(space.createdAt).toMatch(ISO);
    expect(space.updatedAt).toBe(space.createdAt);
    expect(space).not.toHaveProperty('deletedAt');
    expect(space).not.toHaveProperty('parent');
    expect(space.urls.location).toBe(`${s.url}/v1/spaces/${space.id}`);
    expect(typeof space.urls.app).toBe('string');
    expect(res.headers.get('location')).toBe(`${s.url}/v1/spaces/${space.id}`);
    expect(space.permissions).toEqual({
      view: true,
      access: true,
      admin: true,
      viewInviteLinks: true,
      edit: true,
      triggerGitSync: true,
      comment: true,
      merge: true,
      review: true,
      installIntegration: true,
    });
  });

  it('POST without a body creates an untitled private space', async () => {
    const res = await s.request('POST', `/v1/orgs/${s.orgId}/spaces`);
    expectSpec(res, 'POST', '/orgs/{organizationId}/spaces', 201);
    expect(res.body).toMatchObject({ title: '', emoji: '', visibility: 'private' });
  });

  it('a new space starts with one revision holding one empty root page; `empty: true` has none', async () => {
    const db = s.server.db.kysely;
    const space = await createSpace(s, { title: 'Tree' });
    const row = await db.selectFrom('revisions').selectAll().where('id', '=', space.revision).executeTakeFirstOrThrow();
    expect(row.space_id).toBe(space.id);
    expect(JSON.parse(row.parents)).toEqual([]);
    const tree = await loadTree(db, row.tree_sha);
    expect(tree.pages).toHaveLength(1);
    expect(tree.pages[0]).toMatchObject({ type: 'document', pages: [] });
    expect(tree.files).toEqual([]);

    const empty = await createSpace(s, { title: 'Empty', empty: true });
    const emptyRow = await db.selectFrom('revisions').selectAll().where('id', '=', empty.revision).executeTakeFirstOrThrow();
    expect((await loadTree(db, emptyRow.tree_sha)).pages).toEqual([]);
  });

  it('GET /v1/spaces/{id} returns the space; the list has it too', async () => {
    const created = await createSpace(s, { title: 'Readable' });
    const res = await s.request('GET', `/v1/spaces/${created.id}`);
    expectSpec(res, 'GET', '/spaces/{spaceId}', 200);
    expect(res.body).toEqual(created);
    const list = await s.request('GET', `/v1/orgs/${s.orgId}/spaces?limit=1000`);
    expectSpec(list, 'GET', '/orgs/{organizationId}/spaces', 200);
    expect(list.body.count).toBe(list.body.items.length);
    expect(list.body.items.map((i: { id: string }) => i.id)).toContain(created.id);
    expect(list.body).not.toHaveProperty('next');
  });

  it('GET of an unknown space is 404; a malformed id or an unknown query parameter is 400', async () => {
    expectError(await s.request('GET', '/v1/spaces/doesNotExist'), 404, /doesNotExist/);
    expectError(await s.request('GET', '/v1/spaces/not.an.id'), 400, /path\.spaceId/);
    expectError(await s.request('GET', `/v1/spaces/${'a'.repeat(65)}`), 400, /path\.spaceId/);
    const space = await createSpace(s);
    expectSpec(await s.request('GET', `/v1/spaces/${space.id}?shareKey=abc`), 'GET', '/spaces/{spaceId}', 200);
    expectError(await s.request('GET', `/v1/spaces/${space.id}?expand=all`), 400, /expand/);
  });

  it('PATCH updates title, emoji, editMode and defaultLevel', async () => {
    const created = await createSpace(s, { title: 'Before' });
    s.clock.advance(1000);
    const res = await s.request('PATCH', `/v1/spaces/${created.id}`, {
      body: { title: 'After', emoji: '1f389', editMode: 'locked', defaultLevel: 'comment' },
    });
    expectSpec(res, 'PATCH', '/spaces/{spaceId}', 200);
    expect(res.body).toMatchObject({ title: 'After', emoji: '1f389', editMode: 'locked', defaultLevel: 'comment' });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect(res.body.createdAt).toBe(created.createdAt);
    const again = await s.request('GET', `/v1/spaces/${created.id}`);
    expect(again.body).toEqual(res.body);

    const cleared = await s.request('PATCH', `/v1/spaces/${created.id}`, { body: { defaultLevel: null, emoji: '' } });
    expectSpec(cleared, 'PATCH', '/spaces/{spaceId}', 200);
    expect(cleared.body).toMatchObject({ defaultLevel: null, emoji: '', title: 'After' });

    await s.request('PATCH', `/v1/spaces/${created.id}`, { body: { emoji: '📕' } });
    const nulled = await s.request('PATCH', `/v1/spaces/${created.id}`, { body: { emoji: null } });
    expectSpec(nulled, 'PATCH', '/spaces/{spaceId}', 200);
    expect(nulled.body.emoji).toBe('');
  });

  it('GET /v1/spaces/{id}/links answers an empty link listing', async () => {
    const space = await createSpace(s);
    expect(specHasOperation('GET', '/spaces/{spaceId}/links')).toBe(false);
    const res = await s.request('GET', `/v1/spaces/${space.id}/links`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], count: 0, stats: { total: 0, broken: { total: 0, changeRequest: 0 } } });
    const filtered = await s.request('GET', `/v1/spaces/${space.id}/links?status=broken&limit=10`);
    expect(filtered.body).toEqual({ items: [], count: 0, stats: { total: 0, broken: { total: 0, changeRequest: 0 } } });
    expectError(await s.request('GET', `/v1/spaces/${space.id}/links?status=nope`), 400, /query(string)?\.status/);
    expectError(await s.request('GET', `/v1/spaces/${space.id}/links?page=%25%25garbage`), 400, /page/);
    expectError(await s.request('GET', '/v1/spaces/unknownSpace/links'), 404);
  });

  describe('bounds', () => {
    it('a 50-character title is accepted, 51 is a 400 naming body.title', async () => {
      const fifty = 'x'.repeat(50);
      const ok = await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: fifty } });
      expectSpec(ok, 'POST', '/orgs/{organizationId}/spaces', 201);
      expect(ok.body.title).toBe(fifty);
      expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'x'.repeat(51) } }), 400, /body\.title/);
      expectError(await s.request('PATCH', `/v1/spaces/${ok.body.id}`, { body: { title: 'x'.repeat(51) } }), 400, /body\.title/);
      const patched = await s.request('PATCH', `/v1/spaces/${ok.body.id}`, { body: { title: 'y'.repeat(50) } });
      expectSpec(patched, 'PATCH', '/spaces/{spaceId}', 200);
    });

    it('an emoji that is too long or not an emoji is a 400 naming body.emoji', async () => {
      const space = await createSpace(s);
      for (const emoji of ['🎉'.repeat(51), 'hello', '<b>', '1f3']) {
        expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { emoji } }), 400, /body\.emoji/);
        expectError(await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { emoji } }), 400, /body\.emoji/);
      }
      const family = await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { emoji: '👨‍👩‍👧' } });
      expectSpec(family, 'PATCH', '/spaces/{spaceId}', 200);
    });

    it('unknown body fields, wrong types and bad enum values are 400s naming the field', async () => {
      const space = await createSpace(s);
      expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'a', colour: 'red' } }), 400, /colour/);
      expectError(await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { colour: 'red' } }), 400, /colour/);
      expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 5 } }), 400, /body\.title/);
      expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { visibility: 'secret' } }), 400, /body\.visibility/);
      expectError(await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { visibility: 'secret' } }), 400, /body\.visibility/);
      expectError(await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { editMode: 'frozen' } }), 400, /body\.editMode/);
      expectError(await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { defaultLevel: 'owner' } }), 400, /body\.defaultLevel/);
      expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { raw: '{"title": ' }), 400);
    });

    it('visibility in-collection needs a parent collection, on create and on PATCH', async () => {
      expectError(
        await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { visibility: 'in-collection' } }),
        400,
        /body\.visibility/,
      );
      const root = await createSpace(s);
      expectError(await s.request('PATCH', `/v1/spaces/${root.id}`, { body: { visibility: 'in-collection' } }), 400, /body\.visibility/);
      const collection = await createCollection(s, { title: 'Guides' });
      const inside = await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { parent: collection.id } });
      expectSpec(inside, 'POST', '/orgs/{organizationId}/spaces', 201);
      expect(inside.body).toMatchObject({ parent: collection.id, visibility: 'in-collection' });
      const publicInside = await createSpace(s, { parent: collection.id, visibility: 'public' });
      const back = await s.request('PATCH', `/v1/spaces/${publicInside.id}`, { body: { visibility: 'in-collection' } });
      expectSpec(back, 'PATCH', '/spaces/{spaceId}', 200);
      expect(back.body.visibility).toBe('in-collection');
    });

    it('a parent that is not a collection of the organization is a 400 naming body.parent', async () => {
      expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { parent: 'noSuchCollection' } }), 400, /body\.parent/);
      const other = await s.organization();
      const foreign = await createCollection(s, { title: 'Theirs' }, { org: other.id, token: other.adminToken });
      expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { parent: foreign.id } }), 400, /body\.parent/);
    });

    it('limit must be 1 to 1000 and page must come from a previous answer', async () => {
      const path = `/v1/orgs/${s.orgId}/spaces`;
      expectError(await s.request('GET', `${path}?limit=0`), 400, /query(string)?\.limit/);
      expectError(await s.request('GET', `${path}?limit=1001`), 400, /query(string)?\.limit/);
      expectError(await s.request('GET', `${path}?limit=ten`), 400, /query(string)?\.limit/);
      expectError(await s.request('GET', `${path}?page=garbage`), 400, /page/);
      expectError(await s.request('GET', `${path}?page=${Buffer.from('[1]').toString('base64url')}`), 400, /page/);
      expectError(await s.request('GET', `${path}?sort=asc`), 400, /sort/);
      expectSpec(await s.request('GET', `${path}?limit=1000`), 'GET', '/orgs/{organizationId}/spaces', 200);
      expectSpec(await s.request('GET', `${path}?limit=1`), 'GET', '/orgs/{organizationId}/spaces', 200);
    });
  });
});
