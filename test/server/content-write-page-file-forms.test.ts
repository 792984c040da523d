import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createSpace } from '../helpers/spaces.js';

/**
 * Git Sync page files as GitBook writes them (issue 14): an empty page's blank lines after its title
 * (`# T\n`, `# T\n\n\n\n`), sent by the sync tool as a body of whitespace only, kept as sent (no
 * text stores no document); a file without its title heading (extension `title-heading`).
 */
describe.each(testDialects())('content batch: page file forms (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('keeps a body of whitespace only as sent; after a title heading, or empty, the page has no document', async () => {
    const space = await createSpace(s, { title: 'Docs' });
    const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Blank' } })).body.id;
    const cases: [string, string, string][] = [
      ['three', '---\ntitle: Three\n---\n\n\n\n', '\n\n\n'],
      ['none', '---\ntitle: None\nicon: link\n---\n\n', '\n'],
      ['headed', '# Headed\n', ''],
      ['headed-blank', '# Headed blank\n\n\n', ''],
      ['empty', '', ''],
    ];
    const res = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr}/content?compat=false`, {
      body: {
        changes: cases.map(([ref, markdown]) => ({ operation: 'insert_page', ref, title: ref, document: { markdown } })),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = new Map<string, string>(res.body.changes.map((c: { ref: string; page: { id: string } }) => [c.ref, c.page.id]));
    for (const [ref, , stored] of cases) {
      const page = await s.request('GET', `/v1/spaces/${space.id}/change-requests/${cr}/content/page/${ids.get(ref)}?format=markdown`);
      expect(page.body.markdown, ref).toBe(stored);
      if (stored === '') expect(page.body.git.oid, ref).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    }
  });

  it('titleHeading: false is kept on document pages and read back; true removes it; other page types refuse it', async () => {
    const space = await createSpace(s, { title: 'Docs' });
    const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Headings' } })).body.id;
    const write = (changes: unknown[]) =>
      s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr}/content?compat=false`, { body: { changes } });
    const res = await write([
      { operation: 'insert_page', ref: 'bare', title: 'Bare', titleHeading: false, document: { markdown: 'Text only.\n' } },
      { operation: 'insert_page', ref: 'plain', title: 'Plain', document: { markdown: '# Plain\n\nText.\n' } },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [bare, plain] = res.body.changes.map((c: { page: { id: string } }) => c.page.id);
    const read = async (id: string) => (await s.request('GET', `/v1/spaces/${space.id}/change-requests/${cr}/content/page/${id}`)).body;
    expect((await read(bare)).titleHeading).toBe(false);
    expect('titleHeading' in (await read(plain))).toBe(false);
    const listed = (await s.request('GET', `/v1/spaces/${space.id}/change-requests/${cr}/content`)).body.pages;
    expect(listed.find((p: { id: string }) => p.id === bare).titleHeading).toBe(false);

    expect((await write([{ operation: 'update_page', page: bare, titleHeading: true }])).status).toBe(200);
    expect('titleHeading' in (await read(bare))).toBe(false);
    expect((await write([{ operation: 'update_page', page: plain, titleHeading: false }])).status).toBe(200);
    expect((await read(plain)).titleHeading).toBe(false);
    const group = await write([{ operation: 'insert_page', type: 'group', title: 'G', titleHeading: false, document: {} }]);
    expect(group.status).toBe(400);
    expect(group.body.error.message).toMatch(/changes\[0\].*titleHeading/);
  });
});
