import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';

const SPEC = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';
const PAGES_SPEC = '/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages';

const source = { props: { models: true }, type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } } };

/**
 * The `computed-pages` extension (docs/api.md): the published computed page (an OpenAPI
 * reference, SUMMARY.md's fenced `yaml` entry) written through the batch and read back as
 * RevisionPageComputed, its source keys in the order written.
 */
describe.each(testDialects())('content batch: computed pages (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function setup() {
    const space = await createSpace(s, { title: 'Docs' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Edits' } });
    return { spaceId: space.id as string, crId: cr.body.id as string };
  }
  const write = (t: { spaceId: string; crId: string }, changes: unknown[]) =>
    s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content?compat=false`, { body: { changes } });

  it('is created, read back within the spec with its source as written, and changed', async () => {
    const t = await setup();
    expect((await s.request('GET', `/v1/spaces/${t.spaceId}`)).headers.get('x-docsync-extensions')!.split(',')).toContain('computed-pages');
    const res = await write(t, [{ operation: 'insert_page', type: 'computed', title: 'petstore', computed: source, document: {} }]);
    expectSpec(res, 'POST', SPEC, 200);
    const id = res.body.changes[0].page.id as string;
    const pages = await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content/pages`);
    expectSpec(pages, 'GET', PAGES_SPEC, 200);
    const page = pages.body.pages.find((p: { id: string }) => p.id === id);
    expect(page).toMatchObject({ type: 'computed', title: 'petstore', computed: source });
    expect(Object.keys(page.computed)).toEqual(['props', 'type', 'dependencies']);
    expect(page).not.toHaveProperty('slug');

    const changed = { ...source, props: { models: false } };
    expectSpec(await write(t, [{ operation: 'update_page', page: id, computed: changed }]), 'POST', SPEC, 200);
    const after = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content/pages`)).body.pages.find(
      (p: { id: string }) => p.id === id,
    );
    expect(after.computed).toEqual(changed);
  });

  it('refuses a computed page without a source, with a document or subpages, and a source on another type (400)', async () => {
    const t = await setup();
    const cases: [unknown[], RegExp][] = [
      [[{ operation: 'insert_page', type: 'computed', title: 'x', document: {} }], /computed: a computed page needs/],
      [
        [{ operation: 'insert_page', type: 'computed', title: 'x', computed: source, document: { markdown: 'body' } }],
        /document: computed pages have no document/,
      ],
      [[{ operation: 'insert_page', title: 'x', computed: source, document: {} }], /computed: document pages have no computed/],
      [[{ operation: 'insert_page', type: 'computed', title: 'x', computed: { props: {} }, document: {} }], /computed/],
    ];
    for (const [changes, message] of cases) {
      const res = await write(t, changes);
      expectError(res, 400);
      expect(res.body.error.message).toMatch(message);
    }
    const made = await write(t, [{ operation: 'insert_page', type: 'computed', title: 'x', computed: source, document: {} }]);
    const under = await write(t, [{ operation: 'insert_page', title: 'child', into: made.body.changes[0].page.id, document: {} }]);
    expectError(under, 400);
    expect(under.body.error.message).toMatch(/computed page, whose subpages are generated/);
  });
});
