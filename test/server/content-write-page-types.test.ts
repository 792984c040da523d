import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { readTree } from '../helpers/content.js';
import { toWorkspacePage } from '../../src/sync/remote/content.js';
import type { RevisionPage } from '../../src/model/index.js';

const SPEC = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';

/** The docsync extensions of the batch: groups, link pages, link titles and GitBook's slugs. */
describe.each(testDialects())('content batch: page types, link titles, slugs (%s)', (dialect) => {
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
    expect(cr.status).toBe(201);
    const intro = (await readTree(s, { spaceId: space.id })).pages[0]!.id;
    return { spaceId: space.id as string, crId: cr.body.id as string, intro };
  }
  type Target = Awaited<ReturnType<typeof setup>>;
  const write = (t: Target, changes: unknown[]) =>
    s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content?compat=false`, { body: { changes } });
  const ids = (res: { body: { changes: { page: { id: string } }[] } }) => res.body.changes.map((c) => c.page.id);
  const headOf = async (t: Target) => (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}`)).body.revision as string;

  /** A group holding a document with a link title and GitBook's slug, and a link page. */
  async function writeGroup(t: Target) {
    const res = await write(t, [
      { operation: 'insert_page', type: 'group', title: 'Getting Started', slug: 'getting-started', document: {} },
    ]);
    expectSpec(res, 'POST', SPEC, 200);
    const [group] = ids(res);
    const filled = await write(t, [
      {
        operation: 'insert_page',
        into: group,
        title: 'Detox + Jest',
        slug: 'detox-+-jest',
        linkTitle: 'Detox',
        document: { markdown: '# Detox + Jest\n\nBody.\n' },
      },
      {
        operation: 'insert_page',
        into: group,
        type: 'link',
        title: 'Changelog',
        href: 'https://github.com/currents-dev/x/blob/main/CHANGELOG.md',
        document: {},
      },
    ]);
    expectSpec(filled, 'POST', SPEC, 200);
    const [doc, link] = ids(filled);
    return { group: group!, doc: doc!, link: link! };
  }

  it('creates a group, a document with a link title and slug detox-+-jest, and a link page; reads give them back within the spec', async () => {
    const t = await setup();
    const { group, doc, link } = await writeGroup(t);
    const base = `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content`;

    const revision = await s.request('GET', base);
    expectSpec(revision, 'GET', SPEC, 200);
    const top = revision.body.pages as RevisionPage[];
    expect(top[1]).toMatchObject({
      id: group,
      type: 'group',
      kind: 'group',
      title: 'Getting Started',
      slug: 'getting-started',
      path: 'getting-started',
    });
    expect(top[1]!.pages![0]).toMatchObject({
      id: doc,
      type: 'document',
      title: 'Detox + Jest',
      linkTitle: 'Detox',
      slug: 'detox-+-jest',
      path: 'getting-started/detox-+-jest',
      git: { path: 'getting-started/detox-+-jest.md' },
      markdown: 'Body.\n',
    });
    expect(top[1]!.pages![1]).toMatchObject({
      id: link,
      type: 'link',
      kind: 'link',
      href: 'https://github.com/currents-dev/x/blob/main/CHANGELOG.md',
      target: { kind: 'url', url: 'https://github.com/currents-dev/x/blob/main/CHANGELOG.md' },
    });
    expect(top[0]).not.toHaveProperty('linkTitle');

    const pages = await s.request('GET', `${base}/pages?format=markdown`);
    expectSpec(pages, 'GET', `${SPEC}/pages`, 200);
    expect(pages.body.pages[1].pages[0]).toMatchObject({ linkTitle: 'Detox', markdown: 'Body.\n' });
    const page = await s.request('GET', `${base}/page/${doc}`);
    expectSpec(page, 'GET', `${SPEC}/page/{pageId}`, 200);
    expect(page.body.linkTitle).toBe('Detox');
    const byPath = await s.request('GET', `${base}/path/getting-started/detox-+-jest`);
    expectSpec(byPath, 'GET', `${SPEC}/path/{pagePath}`, 200);
    expect(byPath.body.id).toBe(doc);

    // The sync tool reads the same pages into the workspace format.
    expect(toWorkspacePage(top[1]!)).toEqual({
      type: 'group',
      id: group,
      title: 'Getting Started',
      slug: 'getting-started',
      pages: [
        expect.objectContaining({ type: 'document', id: doc, slug: 'detox-+-jest', linkTitle: 'Detox', markdown: 'Body.\n' }),
        { type: 'link', id: link, title: 'Changelog', href: 'https://github.com/currents-dev/x/blob/main/CHANGELOG.md' },
      ],
    });
  });

  it("updates a link page's href, a group's title and removes a link title; merged into main they stay", async () => {
    const t = await setup();
    const { group, doc, link } = await writeGroup(t);
    const res = await write(t, [
      { operation: 'update_page', page: link, href: 'https://example.com/changes', title: 'Changes' },
      { operation: 'update_page', page: group, title: 'Start here', at: 0 },
      { operation: 'update_page', page: doc, linkTitle: '' },
      { operation: 'update_page', page: t.intro, linkTitle: 'Home', into: group },
    ]);
    expectSpec(res, 'POST', SPEC, 200);
    expect(ids(res)).toEqual([link, group, doc, t.intro]);
    const tree = await readTree(s, { spaceId: t.spaceId, changeRequestId: t.crId });
    expect(tree.pages).toHaveLength(1);
    expect(tree.pages[0]).toMatchObject({ id: group, type: 'group', title: 'Start here', slug: 'getting-started' });
    expect(tree.pages[0]!.pages.map((p) => [p.id, p.type, p.linkTitle, p.href])).toEqual([
      [doc, 'document', undefined, undefined],
      [link, 'link', undefined, 'https://example.com/changes'],
      [t.intro, 'document', 'Home', undefined],
    ]);

    const merged = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/merge`);
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const main = await s.request('GET', `/v1/spaces/${t.spaceId}/content/pages`);
    expectSpec(main, 'GET', '/spaces/{spaceId}/content/pages', 200);
    expect(main.body.pages[0]).toMatchObject({ type: 'group', title: 'Start here' });
    expect(main.body.pages[0].pages[1]).toMatchObject({ type: 'link', href: 'https://example.com/changes' });
    expect(main.body.pages[0].pages[2]).toMatchObject({ linkTitle: 'Home' });
  });

  it('refuses what the page types cannot hold with a 400 naming the change and the field, leaving no trace', async () => {
    const t = await setup();
    const { group, doc, link } = await writeGroup(t);
    const head = await headOf(t);
    const insert = (extra: object) => ({ operation: 'insert_page', document: {}, ...extra });
    const cases: [unknown[], string | RegExp][] = [
      [[insert({ title: 'Fine' }), insert({ type: 'group', into: doc })], 'changes[1]: into: groups are only at the top level'],
      [[insert({ type: 'group', document: { markdown: 'text' } })], 'changes[0]: document: groups have no document; send `document: {}`'],
      [[insert({ type: 'link' })], 'changes[0]: href: a link page needs `href`, the absolute URL it points to'],
      [
        [insert({ type: 'link', href: 'guides/install.md' })],
        'changes[0]: href must be an absolute URL with a scheme (https://...) or a section of a page (page.md#section), got "guides/install.md"',
      ],
      [
        [insert({ type: 'link', href: 'https://x.test', slug: 'x' })],
        'changes[0]: slug: link pages have no slug (only document pages and groups do)',
      ],
      [[insert({ type: 'group', linkTitle: 'G' })], 'changes[0]: linkTitle: groups have no linkTitle (only document pages do)'],
      [[insert({ href: 'https://x.test' })], 'changes[0]: href: document pages have no href (only link pages do)'],
      [[insert({ into: link })], `changes[0]: into: page ${link} is a link page, which has no subpages`],
      [[{ operation: 'update_page', page: doc, into: link }], `changes[0]: into: page ${link} is a link page, which has no subpages`],
      [[{ operation: 'update_page', page: group, into: t.intro }], 'changes[0]: into: groups are only at the top level'],
      [[{ operation: 'update_page', page: group, document: { markdown: 'text' } }], 'changes[0]: document: groups have no document'],
      [[{ operation: 'update_page', page: link, href: 'nope' }], 'changes[0]: href must be an absolute URL'],
      [[{ operation: 'update_page', page: doc, href: 'https://x.test' }], 'changes[0]: href: document pages have no href'],
      [[{ operation: 'update_page', page: doc, slug: '..' }], 'changes[0]: slug ".." must not be `..`'],
      [[{ operation: 'update_page', page: doc, slug: 'a/b' }], 'changes[0]: slug "a/b" must not contain `/`'],
      // Schema checks: a page's type never changes, and the extension fields have limits.
      [[{ operation: 'update_page', page: doc, type: 'group' }], 'body.changes.0 has an unknown field `type`'],
      [[insert({ type: 'folder' })], /^body\.changes\.0\.type must be equal to one of the allowed values/],
      [[insert({ linkTitle: 'x'.repeat(101) })], 'body.changes.0.linkTitle must be at most 100 characters'],
      [[insert({ type: 'link', href: `https://x.test/${'x'.repeat(2048)}` })], 'body.changes.0.href must be at most 2048 characters'],
    ];
    for (const [changes, message] of cases) {
      const res = await write(t, changes);
      expectError(res, 400);
      if (typeof message === 'string') expect(res.body.error.message).toContain(message);
      else expect(res.body.error.message).toMatch(message);
    }
    expect(await headOf(t)).toBe(head);
  });

  it('keeps sibling slugs unique for documents and groups (409) but not for link pages', async () => {
    const t = await setup();
    const { group } = await writeGroup(t);
    const res = await write(t, [
      { operation: 'insert_page', into: group, type: 'link', title: 'Detox + Jest', href: 'https://detox.example.com', document: {} },
      { operation: 'insert_page', type: 'link', title: 'Getting Started', href: 'https://start.example.com', document: {} },
    ]);
    expectSpec(res, 'POST', SPEC, 200);
    expectError(
      await write(t, [{ operation: 'insert_page', into: group, title: 'Other', slug: 'detox-+-jest', document: {} }]),
      409,
      'changes[0]: slug "detox-+-jest" is already used',
    );
    expectError(
      await write(t, [{ operation: 'insert_page', type: 'group', title: 'Other', slug: 'getting-started', document: {} }]),
      409,
      'changes[0]: slug "getting-started" is already used by another page at the top level',
    );
  });
});
