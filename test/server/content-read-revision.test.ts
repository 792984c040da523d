import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { writeFixture } from './content-read-fixture.js';

/**
 * The revision read is written with JSON.stringify rather than its schema's serializer
 * (views/revision.ts, revisionJson). These tests hold it to what the schema would write: the same
 * pages as the pages listing, the same files as the files listing, the same change request as
 * its own read, all of which still go through their schemas.
 */
describe.each(testDialects())('the revision read is the schema serialisation (%s)', (dialect) => {
  let s: TestServer;
  let spaceId: string;
  let cr: { id: string; number: number };
  beforeAll(async () => {
    s = await startServer(dialect);
    spaceId = (await createSpace(s, { title: 'Docs' })).id;
    cr = (await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'Every kind of page' } })).body;
    await writeFixture(s, { spaceId, changeRequestId: cr.id });
  });
  afterAll(async () => {
    await s?.close();
  });

  for (const metadata of [true, false]) {
    it(`pages and files equal the listings'${metadata ? '' : ' (metadata=false)'}`, async () => {
      const base = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`;
      const query = metadata ? '' : '?metadata=false';
      const res = await s.request('GET', `${base}${query}`);
      expectSpec(res, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content', 200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const listed = await s.request('GET', `${base}/pages?format=markdown${metadata ? '' : '&metadata=false'}`);
      expect(res.body.pages).toEqual(listed.body.pages);
      const files = await s.request('GET', `${base}/files${query}`);
      const byId = (list: { id: string }[]) => new Map(list.map((f) => [f.id, f]));
      expect(byId(res.body.files)).toEqual(byId(files.body.items));
    });
  }

  it("a merge revision's mergedFrom equals the change request's own read", async () => {
    const merged = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const res = await s.request('GET', `/v1/spaces/${spaceId}/revisions/${merged.body.revision}`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/revisions/{revisionId}', 200);
    expect(res.body.mergedFrom).toEqual((await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body);
  });
});
