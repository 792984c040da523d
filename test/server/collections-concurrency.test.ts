import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { makeCollection } from '../helpers/collections.js';

describe.each(testDialects())('collections under concurrent writes (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('collections created at the same time under one parent get distinct positions', async () => {
    const parent = await makeCollection(s, { title: 'Busy' });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        s.request('POST', `/v1/orgs/${s.orgId}/collections`, { body: { title: `c${i}`, parent: parent.id } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const rows = await s.server.db.kysely.selectFrom('collections').select('position').where('parent_id', '=', parent.id).execute();
    expect(new Set(rows.map((r) => Number(r.position))).size).toBe(8);
  });

  it('a collection created while its parent is deleted is never left pointing at the deleted one', async () => {
    for (let round = 0; round < 5; round += 1) {
      const parent = await makeCollection(s, { title: `Doomed ${round}` });
      const [created, deleted] = await Promise.all([
        s.request('POST', `/v1/orgs/${s.orgId}/collections`, { body: { title: 'child', parent: parent.id } }),
        s.request('DELETE', `/v1/collections/${parent.id}`),
      ]);
      expect(deleted.status).toBe(205);
      if (created.status === 201) {
        // Created first, then moved up with the rest of the deleted collection's content.
        const child = await s.request('GET', `/v1/collections/${created.body.id}`);
        expect(child.status).toBe(200);
        expect(child.body.parent).toBeUndefined();
      } else {
        expect(created.status).toBe(400);
      }
      const orphans = await s.server.db.kysely.selectFrom('collections').select('id').where('parent_id', '=', parent.id).execute();
      expect(orphans).toEqual([]);
    }
  });

  it('two opposite transfers of nested collections neither deadlock nor split a tree', async () => {
    const adminId = (await s.request('GET', '/v1/user')).body.id;
    const other = await s.organization('Other side');
    const { upsertMember } = await import('../../src/server/store/organizations.js');
    await upsertMember(s.server.db.kysely, { orgId: other.id, userId: adminId, role: 'admin' }, new Date().toISOString());
    const here = await makeCollection(s, { title: 'here' });
    const hereChild = await makeCollection(s, { title: 'here child', parent: here.id });
    const there = await makeCollection(s, { title: 'there' }, { org: other.id, token: other.adminToken });
    const [a, b] = await Promise.all([
      s.request('POST', `/v1/collections/${here.id}/transfer`, { body: { organization: other.id } }),
      s.request('POST', `/v1/collections/${there.id}/transfer`, { body: { organization: s.orgId } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await s.request('GET', `/v1/collections/${hereChild.id}`)).body).toMatchObject({ organization: other.id, parent: here.id });
    expect((await s.request('GET', `/v1/collections/${there.id}`)).body.organization).toBe(s.orgId);
  });
});
