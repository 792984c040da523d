import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';

const SPEC = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';
const PAGE_SPEC = '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}';

/**
 * The `front-matter` extension (docs/api.md): a document page keeps its Git Sync file's front
 * matter as written (`frontMatter` on insert_page and update_page, read back on the page); a
 * field changed on the platform is rewritten in it in place, every other line kept.
 */
describe.each(testDialects())('content batch: frontMatter, the front matter as written (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const yaml = "# kept\ndescription: 'A page, as written'\nhidden: false\ncustom: [1, 2]\n";

  it('stores it beside the fields, gives it back, and rewrites only a field the platform changes', async () => {
    const space = await createSpace(s, { title: 'Docs' });
    const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Edits' } })).body;
    const url = `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`;
    const inserted = await s.request('POST', url, {
      body: {
        changes: [
          {
            operation: 'insert_page',
            title: 'Page',
            frontMatter: yaml,
            document: { markdown: "---\ndescription: 'A page, as written'\ncustom: [1, 2]\n---\n\nBody\n" },
          },
        ],
      },
    });
    expectSpec(inserted, 'POST', SPEC, 200);
    const id = inserted.body.changes[0].page.id as string;
    const read = async () => {
      const res = await s.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${id}`);
      expectSpec(res, 'GET', PAGE_SPEC, 200);
      return res.body as { frontMatter?: string; description?: string; hidden: boolean };
    };
    expect(await read()).toMatchObject({ frontMatter: yaml, description: 'A page, as written', hidden: false });

    expectSpec(
      await s.request('POST', url, { body: { changes: [{ operation: 'update_page', page: id, description: 'New' }] } }),
      'POST',
      SPEC,
      200,
    );
    expect((await read()).frontMatter).toBe(yaml.replace("'A page, as written'", 'New'));
    expectSpec(
      await s.request('POST', url, { body: { changes: [{ operation: 'update_page', page: id, hidden: true }] } }),
      'POST',
      SPEC,
      200,
    );
    expect((await read()).frontMatter).toBe(yaml.replace("'A page, as written'", 'New').replace('hidden: false', 'hidden: true'));

    expectSpec(
      await s.request('POST', url, { body: { changes: [{ operation: 'update_page', page: id, frontMatter: null }] } }),
      'POST',
      SPEC,
      200,
    );
    expect((await read()).frontMatter).toBeUndefined();
  });

  it('a cover (or any key kept in the stored markdown) a new document changes is rewritten in the front matter as written', async () => {
    const space = await createSpace(s, { title: 'Docs' });
    const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Cover' } })).body;
    const url = `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`;
    const written = "description: Covered\ncover: '.gitbook/assets/a.png'   # the hero\ncoverY: 10\ntags: [x]\n";
    const inserted = await s.request('POST', url, {
      body: {
        changes: [
          {
            operation: 'insert_page',
            title: 'Covered',
            frontMatter: written,
            document: { markdown: `---\n${written}---\n\nBody\n` },
          },
        ],
      },
    });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    const id = inserted.body.changes[0].page.id as string;
    const frontMatter = async () =>
      (await s.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${id}`)).body.frontMatter as string;

    // A body edit that sends the same keys leaves the text as written.
    const same = await s.request('POST', url, {
      body: { changes: [{ operation: 'update_page', page: id, document: { markdown: `---\n${written}---\n\nBody, edited\n` } }] },
    });
    expect(same.status).toBe(200);
    expect(await frontMatter()).toBe(written);

    // Another editor (no frontMatter) points the cover elsewhere and drops coverY: those lines follow, the rest stays.
    const changed = await s.request('POST', url, {
      body: {
        changes: [
          {
            operation: 'update_page',
            page: id,
            document: { markdown: '---\ndescription: Covered\ncover: .gitbook/assets/b.png\ntags: [x]\n---\n\nBody, edited\n' },
          },
        ],
      },
    });
    expect(changed.status).toBe(200);
    // The cover's own line is replaced (with its trailing comment), coverY's removed; description and tags stay as written.
    expect(await frontMatter()).toBe('description: Covered\ncover: .gitbook/assets/b.png\ntags: [x]\n');
  });

  it('refuses front matter that is not a YAML mapping, and on a page type that has none, naming the field', async () => {
    const space = await createSpace(s, { title: 'Docs' });
    const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Edits' } })).body;
    const url = `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`;
    const bad = await s.request('POST', url, {
      body: { changes: [{ operation: 'insert_page', title: 'P', frontMatter: '- a\n', document: {} }] },
    });
    expectError(bad, 400, /frontMatter/);
    const group = await s.request('POST', url, {
      body: { changes: [{ operation: 'insert_page', type: 'group', title: 'G', frontMatter: 'a: 1\n', document: {} }] },
    });
    expectError(group, 400, /frontMatter/);
  });
});
