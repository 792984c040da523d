import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangedPagesResponse } from '../../src/model/index.js';
import { expectSchema } from '../helpers/expect-schema.js';
import { expectError } from '../helpers/expect-spec.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { editMain } from '../sync/fixture.js';

/** GET /v1/spaces/{id}/revisions/{id}/changed-pages?since= (extension `changed-pages`, docs/api.md). */
describe('changed pages between two revisions', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('sqlite');
  });
  afterAll(async () => {
    await s?.close();
  });

  const head = async (spaceId: string) => (await s.request('GET', `/v1/spaces/${spaceId}`)).body.revision as string;
  const changed = (spaceId: string, revision: string, since: string, token?: string) =>
    s.request('GET', `/v1/spaces/${spaceId}/revisions/${revision}/changed-pages?since=${since}`, token ? { token } : {});

  async function space(title: string) {
    const created = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title, empty: true } })).body;
    const ids = await editMain(s, created.id, [
      { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: '# Alpha\n\nOne.\n' } },
      { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: '# Beta\n\nTwo.\n' } },
    ]);
    const child = await editMain(s, created.id, [
      { operation: 'insert_page', ref: 'c', into: ids.get('b'), title: 'Gamma', document: { markdown: '# Gamma\n\nThree.\n' } },
    ]);
    return { spaceId: created.id as string, a: ids.get('a')!, b: ids.get('b')!, c: child.get('c')!, start: await head(created.id) };
  }

  it('lists the pages whose own fields changed, with those fields, and is advertised in x-docsync-extensions', async () => {
    const t = await space('fields');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.c, document: { markdown: '# Gamma\n\nEdited.\n' } },
      { operation: 'update_page', page: t.a, description: 'About alpha', hidden: true },
    ]);
    const res = await changed(t.spaceId, await head(t.spaceId), t.start);
    expectSchema(res, 200, ChangedPagesResponse);
    expect(res.headers.get('x-docsync-extensions')!.split(',')).toContain('changed-pages');
    expect(res.body).toMatchObject({
      since: t.start,
      structure: false,
      pages: [
        { id: t.a, fields: ['description', 'hidden'] },
        { id: t.c, fields: ['document'] },
      ],
    });
    // The same revision, or back the other way: nothing, and the same pages.
    expect((await changed(t.spaceId, t.start, t.start)).body).toMatchObject({ pages: [], structure: false });
    expect((await changed(t.spaceId, t.start, await head(t.spaceId))).body.pages.map((p: { id: string }) => p.id)).toEqual([t.a, t.c]);
  });

  it('says structure for a title, a slug, a new, moved or deleted page, or the variables', async () => {
    const t = await space('structure');
    const edits: unknown[][] = [
      [{ operation: 'update_page', page: t.a, title: 'Alpha renamed' }],
      [{ operation: 'update_page', page: t.c, slug: 'gamma-moved' }],
      [{ operation: 'insert_page', title: 'Delta', document: { markdown: '# Delta\n' } }],
      [{ operation: 'update_page', page: t.c, into: null }],
      [{ operation: 'delete_page', page: t.a }],
      [{ operation: 'set_variables', variables: { product: 'Docsync' } }],
    ];
    for (const changes of edits) {
      const before = await head(t.spaceId);
      await editMain(s, t.spaceId, changes);
      const res = await changed(t.spaceId, await head(t.spaceId), before);
      expectSchema(res, 200, ChangedPagesResponse);
      expect(res.body, JSON.stringify(changes)).toMatchObject({ pages: [], structure: true });
    }
  });

  it('404 for a revision of another space, an unknown revision or a space the caller cannot read; 400 without since', async () => {
    const t = await space('errors');
    const other = await space('other');
    expectError(await changed(t.spaceId, await head(t.spaceId), other.start), 404);
    expectError(await changed(t.spaceId, 'nosuchrevision', t.start), 404);
    expectError(await s.request('GET', `/v1/spaces/${t.spaceId}/revisions/${t.start}/changed-pages`), 400);
    const stranger = await s.organization('Elsewhere');
    expectError(await changed(t.spaceId, t.start, t.start, stranger.adminToken), 404);
  });
});
