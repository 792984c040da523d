import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createCollection, createSpace } from '../helpers/spaces.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe.each(testDialects())('spaces: delete, restore, purge (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const listed = async (id: string) => {
    const res = await s.request('GET', `/v1/orgs/${s.orgId}/spaces?limit=1000`);
    expect(res.status).toBe(200);
    return (res.body.items as { id: string }[]).some((i) => i.id === id);
  };
  const revisionsOf = (spaceId: string) =>
    s.server.db.kysely.selectFrom('revisions').select('id').where('space_id', '=', spaceId).execute();

  it('DELETE answers 205 with no body; the space is gone until restored', async () => {
    const space = await createSpace(s, { title: 'Short-lived' });
    const del = await s.request('DELETE', `/v1/spaces/${space.id}`);
    expectSpec(del, 'DELETE', '/spaces/{spaceId}', 205);
    expect(del.body).toBeUndefined();

    expectError(await s.request('GET', `/v1/spaces/${space.id}`), 404);
    expectError(await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { title: 'x' } }), 404);
    expectError(await s.request('DELETE', `/v1/spaces/${space.id}`), 404);
    expectError(await s.request('POST', `/v1/spaces/${space.id}/duplicate`), 404);
    expect(await listed(space.id)).toBe(false);

    s.clock.advance(HOUR);
    const restored = await s.request('POST', `/v1/spaces/${space.id}/restore`);
    expectSpec(restored, 'POST', '/spaces/{spaceId}/restore', 200);
    expect(restored.body).toMatchObject({ id: space.id, title: 'Short-lived', revision: space.revision });
    expect(restored.body).not.toHaveProperty('deletedAt');
    const got = await s.request('GET', `/v1/spaces/${space.id}`);
    expectSpec(got, 'GET', '/spaces/{spaceId}', 200);
    expect(got.body).toEqual(restored.body);
    expect(await listed(space.id)).toBe(true);
  });

  it('restoring a space that is not deleted is a 409', async () => {
    const space = await createSpace(s);
    expectError(await s.request('POST', `/v1/spaces/${space.id}/restore`), 409, /not deleted/);
    expectError(await s.request('POST', '/v1/spaces/neverExisted/restore'), 404);
  });

  it('only admins restore; non-members get 404', async () => {
    const space = await createSpace(s);
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const stranger = await s.user();
    expect((await s.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
    expectError(await s.request('POST', `/v1/spaces/${space.id}/restore`, { token: reader.token }), 403, /admin/);
    expectError(await s.request('POST', `/v1/spaces/${space.id}/restore`, { token: stranger.token }), 404);
    expectSpec(await s.request('POST', `/v1/spaces/${space.id}/restore`), 'POST', '/spaces/{spaceId}/restore', 200);
  });

  it('after 7 days restore is a 409 naming the deadline, and the job purges space and revisions', async () => {
    const space = await createSpace(s, { title: 'Doomed' });
    const keep = await createSpace(s, { title: 'Bystander' });
    expect(await revisionsOf(space.id)).toHaveLength(1);
    expect((await s.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
    const row = await s.server.db.kysely.selectFrom('spaces').select('deleted_at').where('id', '=', space.id).executeTakeFirstOrThrow();
    const deadline = new Date(Date.parse(row.deleted_at!) + 7 * DAY).toISOString();

    s.clock.advance(6 * DAY);
    await s.server.jobs.runNow();
    expect(await revisionsOf(space.id)).toHaveLength(1);

    s.clock.advance(DAY + HOUR);
    const late = await s.request('POST', `/v1/spaces/${space.id}/restore`);
    expectError(late, 409, deadline);

    await s.server.jobs.runNow();
    expectError(await s.request('POST', `/v1/spaces/${space.id}/restore`), 404);
    expectError(await s.request('GET', `/v1/spaces/${space.id}`), 404);
    expect(await revisionsOf(space.id)).toEqual([]);
    expect(await s.server.db.kysely.selectFrom('spaces').select('id').where('id', '=', space.id).execute()).toEqual([]);
    const jobs = await s.server.db.kysely.selectFrom('jobs').select('payload').execute();
    expect(jobs.filter((j) => j.payload.includes(space.id))).toEqual([]);

    expectSpec(await s.request('GET', `/v1/spaces/${keep.id}`), 'GET', '/spaces/{spaceId}', 200);
    expect(await revisionsOf(keep.id)).toHaveLength(1);
  });

  it('a restored space is left alone by its pending purge job', async () => {
    const space = await createSpace(s, { title: 'Saved' });
    expect((await s.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
    s.clock.advance(DAY);
    expectSpec(await s.request('POST', `/v1/spaces/${space.id}/restore`), 'POST', '/spaces/{spaceId}/restore', 200);
    s.clock.advance(8 * DAY);
    await s.server.jobs.runNow();
    const got = await s.request('GET', `/v1/spaces/${space.id}`);
    expectSpec(got, 'GET', '/spaces/{spaceId}', 200);
    expect(got.body.title).toBe('Saved');
    expect(await revisionsOf(space.id)).toHaveLength(1);
  });

  it('deleted again after a restore, a space gets a full new 7 days', async () => {
    const space = await createSpace(s, { title: 'Twice' });
    expect((await s.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
    s.clock.advance(DAY);
    expect((await s.request('POST', `/v1/spaces/${space.id}/restore`)).status).toBe(200);
    s.clock.advance(DAY);
    expect((await s.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
    // The first deletion's job is due now; the second deletion is only 5 days and 1 hour old.
    s.clock.advance(5 * DAY + HOUR);
    await s.server.jobs.runNow();
    expect(await revisionsOf(space.id)).toHaveLength(1);
    expectSpec(await s.request('POST', `/v1/spaces/${space.id}/restore`), 'POST', '/spaces/{spaceId}/restore', 200);
  });

  it('a space restored after its collection was deleted comes back at the root, no longer in-collection', async () => {
    const collection = await createCollection(s, { title: 'Temporary' });
    const space = await createSpace(s, { parent: collection.id });
    expect(space.visibility).toBe('in-collection');
    expect((await s.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
    expect((await s.request('DELETE', `/v1/collections/${collection.id}`)).status).toBe(205);
    const restored = await s.request('POST', `/v1/spaces/${space.id}/restore`);
    expectSpec(restored, 'POST', '/spaces/{spaceId}/restore', 200);
    expect(restored.body).not.toHaveProperty('parent');
    expect(restored.body.visibility).toBe('private');
  });
});
