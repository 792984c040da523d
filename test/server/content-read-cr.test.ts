import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { MARKDOWN, writeFixture } from './content-read-fixture.js';

const CR = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';

describe.each(testDialects())('content reads of a change request (%s)', (dialect) => {
  let s: TestServer;
  let spaceId: string;
  let cr: { id: string; number: number };
  let revision: string;
  beforeAll(async () => {
    s = await startServer(dialect);
    spaceId = (await createSpace(s, { title: 'Docs' })).id;
    const created = await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'Rewrite' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    cr = created.body;
    revision = (await writeFixture(s, { spaceId, changeRequestId: cr.id })).revision;
  });
  afterAll(async () => {
    await s?.close();
  });

  it("reads the change request's head by id and by number; main is untouched", async () => {
    for (const ref of [cr.id, String(cr.number)]) {
      const res = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${ref}/content`);
      expectSpec(res, 'GET', CR, 200);
      expect(res.body.id).toBe(revision);
      expect(res.body.urls.app).toBe(`${s.url}/app/spaces/${spaceId}/change-requests/${cr.number}`);
      expect(res.body.pages[0].urls.app).toBe(`${s.url}/app/spaces/${spaceId}/change-requests/${cr.number}/pages/p-intro`);
    }
    const main = await s.request('GET', `/v1/spaces/${spaceId}/content/pages`);
    expect(main.body.pages.map((p: { title: string }) => p.title)).toEqual(['Introduction']);
    expect(main.body.pages[0].id).not.toBe('p-intro');
  });

  it('pages, files, file, page and path under the change request', async () => {
    const base = `/v1/spaces/${spaceId}/change-requests/${cr.number}/content`;
    const pages = await s.request('GET', `${base}/pages?format=markdown`);
    expectSpec(pages, 'GET', `${CR}/pages`, 200);
    expect(pages.body.pages[1].pages[0].markdown).toBe(MARKDOWN.install);
    const files = await s.request('GET', `${base}/files?limit=2`);
    expectSpec(files, 'GET', `${CR}/files`, 200);
    expect(files.body.count).toBe(2);
    const file = await s.request('GET', `${base}/files/file-logo`);
    expectSpec(file, 'GET', `${CR}/files/{fileId}`, 200);
    expect(file.body.downloadURL).toBe(`${s.url}/v1/spaces/${spaceId}/revisions/${revision}/files/file-logo/download`);
    const page = await s.request('GET', `${base}/page/p-api?format=markdown&evaluated=deterministic-only`);
    expectSpec(page, 'GET', `${CR}/page/{pageId}`, 200);
    expect(page.body.markdown).toBe(MARKDOWN.api);
    const byPath = await s.request('GET', `${base}/path/guides/install/deep`);
    expectSpec(byPath, 'GET', `${CR}/path/{pagePath}`, 200);
    expect(byPath.body.id).toBe('p-deep');
  });

  it('an unknown change request, page or file is a 404 naming it', async () => {
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/99/content`), 404, /change request 99/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/nope/content/pages`), 404, /change request nope/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/nope`), 404, /page nope/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/files/nope`), 404, /file nope/);
    const other = await createSpace(s, { title: 'Other' });
    expectError(await s.request('GET', `/v1/spaces/${other.id}/change-requests/${cr.id}/content`), 404, /change request/);
    const stranger = await s.user();
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { token: stranger.token }), 404, /space/);
  });

  it('a merge revision carries the change request it merged (mergedFrom)', async () => {
    const merged = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const res = await s.request('GET', `/v1/spaces/${spaceId}/revisions/${merged.body.revision}`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/revisions/{revisionId}', 200);
    expect(res.body.type).toBe('merge');
    expect(res.body.mergedFrom).toMatchObject({
      object: 'change-request',
      id: cr.id,
      status: 'merged',
      revisionMerged: merged.body.revision,
    });
    const head = await s.request('GET', `/v1/spaces/${spaceId}/content`);
    expectSpec(head, 'GET', '/spaces/{spaceId}/content', 200);
    expect(head.body.id).toBe(merged.body.revision);
  });
});
