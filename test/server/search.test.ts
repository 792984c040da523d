import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { docPage, readTree, storeMarkdown, writeTree } from '../helpers/content.js';
import type { ContentTree, TreePage } from '../../src/model/index.js';

const tree = (pages: TreePage[]): ContentTree => ({ pages, files: [], variables: {}, reusableContents: [] });
const q = (text: string) => encodeURIComponent(text);

describe.each(testDialects())('space search (%s)', (dialect) => {
  let s: TestServer;
  let spaceId: string;
  beforeAll(async () => {
    s = await startServer(dialect);
    spaceId = (await createSpace(s, { title: 'Handbook' })).id;
    const install = await storeMarkdown(
      s,
      '# Installing\n\nDownload the package.\n\n## On Windows\n\nRun the setup wizard as administrator.\n\n## On Linux\n\nUse apt to install the zebrafish tool.\n',
    );
    const faq = await storeMarkdown(s, 'Questions people ask.\n\n## Licensing\n\nThe installing guide covers licences. Привет мир.\n');
    await writeTree(
      s,
      { spaceId },
      tree([
        docPage('intro', 'Introduction', { slug: 'introduction' }),
        docPage('guides', 'Guides', {
          slug: 'guides',
          description: 'How to do things',
          pages: [docPage('install', 'Installing', { slug: 'install', document: install })],
        }),
        docPage('faq', 'FAQ', { slug: 'faq', document: faq }),
      ]),
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  it('finds a section by its body text and answers in the published shape', async () => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/search?query=zebrafish`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/search', 200);
    expect(res.body.count).toBe(1);
    expect(res.body).not.toHaveProperty('next');
    const [page] = res.body.items;
    expect(page).toMatchObject({
      id: 'install',
      title: 'Installing',
      path: 'guides/install',
      rank: 1,
      ancestors: [{ title: 'Guides' }],
      urls: { app: `${s.url}/app/spaces/${spaceId}/pages/install` },
    });
    expect(page.score).toBeGreaterThan(0);
    expect(page.sections).toEqual([
      {
        id: 'install#on-linux',
        title: 'On Linux',
        path: 'guides/install#on-linux',
        score: expect.any(Number),
        body: 'Use apt to install the zebrafish tool.',
        urls: { app: `${s.url}/app/spaces/${spaceId}/pages/install#on-linux` },
      },
    ]);
  });

  it('finds pages by title, description, path, prefix and in any script; ANDs the words', async () => {
    const ids = async (text: string) => {
      const res = await s.request('GET', `/v1/spaces/${spaceId}/search?query=${q(text)}`);
      expectSpec(res, 'GET', '/spaces/{spaceId}/search', 200);
      return (res.body.items as { id: string }[]).map((i) => i.id);
    };
    expect(await ids('Introduction')).toEqual(['intro']);
    expect(await ids('things')).toEqual(['guides']);
    expect(await ids('faq')).toEqual(['faq']);
    expect(await ids('zebraf')).toEqual(['install']);
    expect(await ids('привет')).toEqual(['faq']);
    expect(await ids('setup wizard')).toEqual(['install']);
    expect(await ids('setup licences')).toEqual([]);
    expect(await ids('nothing-matches-this')).toEqual([]);
  });

  it('ranks a title match above a body match', async () => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/search?query=installing`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/search', 200);
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual(['install', 'faq']);
    expect(res.body.items.map((i: { rank: number }) => i.rank)).toEqual([1, 2]);
    expect(res.body.items[0].score).toBeGreaterThan(res.body.items[1].score);
  });

  it('requires a query of 1 to 512 characters', async () => {
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/search`), 400, /query/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/search?query=`), 400, /query/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/search?query=${'a'.repeat(513)}`), 400, /query/);
    expectSpec(await s.request('GET', `/v1/spaces/${spaceId}/search?query=${'a'.repeat(512)}`), 'GET', '/spaces/{spaceId}/search', 200);
  });

  it('treats query syntax as text: quotes, operators and column filters never fail', async () => {
    for (const text of [
      '"',
      '""',
      'title:zebrafish',
      'zebra*',
      'NEAR(a b)',
      'a AND OR NOT',
      "it's",
      '\\',
      '(',
      '!!!',
      '-zebrafish',
      '^x',
      '&|!:*',
    ]) {
      const res = await s.request('GET', `/v1/spaces/${spaceId}/search?query=${q(text)}`);
      expectSpec(res, 'GET', '/spaces/{spaceId}/search', 200);
    }
    // `install:` is a word here, not a column filter: both words must occur.
    const res = await s.request('GET', `/v1/spaces/${spaceId}/search?query=${q('install:zebrafish')}`);
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual(['install']);
  });

  it('is 404 for an unknown space and for a caller who cannot see it', async () => {
    expectError(await s.request('GET', '/v1/spaces/nope/search?query=x'), 404);
    const other = await s.organization();
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/search?query=x`, { token: other.adminToken }), 404);
  });
});

describe.each(testDialects())('search follows the head (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const ids = async (spaceId: string, text: string) => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/search?query=${q(text)}`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/search', 200);
    return (res.body.items as { id: string }[]).map((i) => i.id).sort();
  };

  it('reflects edits, renames, moves and deletes of the head', async () => {
    const spaceId = (await createSpace(s)).id;
    const a = await storeMarkdown(s, 'alpha words');
    await writeTree(
      s,
      { spaceId },
      tree([docPage('a', 'First', { document: a }), docPage('b', 'Second', { document: await storeMarkdown(s, 'beta words') })]),
    );
    expect(await ids(spaceId, 'words')).toEqual(['a', 'b']);

    await writeTree(s, { spaceId }, tree([docPage('a', 'Renamed', { document: await storeMarkdown(s, 'gamma words') })]));
    expect(await ids(spaceId, 'alpha')).toEqual([]);
    expect(await ids(spaceId, 'gamma')).toEqual(['a']);
    expect(await ids(spaceId, 'renamed')).toEqual(['a']);
    expect(await ids(spaceId, 'beta')).toEqual([]);
    expect(await ids(spaceId, 'second')).toEqual([]);
  });

  it('reindexes only the pages that changed', async () => {
    const spaceId = (await createSpace(s)).id;
    const pages = await Promise.all(
      Array.from({ length: 30 }, async (_, i) =>
        docPage(`p${i}`, `Page ${i}`, { slug: `page-${i}`, document: await storeMarkdown(s, `# H${i}\n\ncommon text ${i}`) }),
      ),
    );
    await writeTree(s, { spaceId }, tree(pages));
    expect(await ids(spaceId, 'common')).toHaveLength(30);
    const db = s.server.db.kysely as any;
    const before = await db.selectFrom('search_sections').select(['id', 'page_id']).where('space_id', '=', spaceId).execute();

    const edited = pages.map((p, i) => (i === 7 ? { ...p, document: undefined } : p));
    await writeTree(s, { spaceId }, tree(edited));
    expect(await ids(spaceId, 'common')).toHaveLength(29);
    const after = await db.selectFrom('search_sections').select(['id', 'page_id']).where('space_id', '=', spaceId).execute();
    const rowIds = (rows: { id: number; page_id: string }[], keep: (p: string) => boolean) =>
      rows
        .filter((r) => keep(r.page_id))
        .map((r) => Number(r.id))
        .sort((x, y) => x - y);
    // Rows of the 29 untouched pages survive as they were; only page 7's were replaced.
    expect(rowIds(after, (p) => p !== 'p7')).toEqual(rowIds(before, (p) => p !== 'p7'));
    expect(rowIds(after, (p) => p === 'p7')).toHaveLength(1);
    expect(Math.min(...rowIds(after, (p) => p === 'p7'))).toBeGreaterThan(Math.max(...rowIds(before, () => true)));
    const indexed = await db.selectFrom('search_spaces').select('revision_id').where('space_id', '=', spaceId).executeTakeFirst();
    const space = await s.request('GET', `/v1/spaces/${spaceId}`);
    expect(indexed.revision_id).toBe(space.body.revision);
    expect((await readTree(s, { spaceId })).pages).toHaveLength(30);
  });

  it('indexes once when many searches race on a new head', async () => {
    const spaceId = (await createSpace(s)).id;
    const pages = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        docPage(`c${i}`, `Race ${i}`, { slug: `race-${i}`, document: await storeMarkdown(s, `# A\n\nrace body\n\n# B\n\nmore`) }),
      ),
    );
    await writeTree(s, { spaceId }, tree(pages));
    const results = await Promise.all(Array.from({ length: 8 }, () => ids(spaceId, 'race')));
    for (const result of results) expect(result).toHaveLength(20);
    const db = s.server.db.kysely as any;
    const rows = await db.selectFrom('search_sections').select(['page_id', 'position']).where('space_id', '=', spaceId).execute();
    // Each page: its own row (position 0) and one per heading; no page indexed twice.
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((r: { page_id: string; position: number }) => `${r.page_id}/${r.position}`)).size).toBe(60);
  });

  it('pages through ranked results with opaque cursors bound to the query', async () => {
    const spaceId = (await createSpace(s)).id;
    const pages = await Promise.all(
      Array.from({ length: 7 }, async (_, i) =>
        docPage(`r${i}`, `Result ${i}`, { slug: `r-${i}`, document: await storeMarkdown(s, `${'needle '.repeat(i + 1)}haystack`) }),
      ),
    );
    await writeTree(s, { spaceId }, tree(pages));
    const seen: string[] = [];
    let page: string | undefined;
    let rounds = 0;
    do {
      const res = await s.request('GET', `/v1/spaces/${spaceId}/search?query=needle&limit=3${page ? `&page=${page}` : ''}`);
      expectSpec(res, 'GET', '/spaces/{spaceId}/search', 200);
      expect(res.body.count).toBe(res.body.items.length);
      seen.push(...res.body.items.map((i: { id: string }) => i.id));
      expect(res.body.items.map((i: { rank: number }) => i.rank)).toEqual(
        res.body.items.map((_: unknown, k: number) => rounds * 3 + k + 1),
      );
      page = res.body.next?.page;
      rounds += 1;
    } while (page);
    expect(rounds).toBe(3);
    expect(new Set(seen).size).toBe(7);
    expect(seen.sort()).toEqual(pages.map((p) => p.id).sort());

    const first = await s.request('GET', `/v1/spaces/${spaceId}/search?query=needle&limit=3`);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/search?query=haystack&page=${first.body.next.page}`), 400, /page/);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/search?query=needle&page=garbage`), 400, /page/);
  });
});

describe.each(testDialects())('organization search (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('searches the spaces the caller can read, grouped by space', async () => {
    const open = (await createSpace(s, { title: 'Open' })).id;
    const closed = (await createSpace(s, { title: 'Closed' })).id;
    const other = (await createSpace(s, { title: 'Other' })).id;
    await writeTree(s, { spaceId: open }, tree([docPage('o1', 'Kiwi one', { slug: 'one' }), docPage('o2', 'Kiwi two', { slug: 'two' })]));
    await writeTree(s, { spaceId: closed }, tree([docPage('c1', 'Kiwi secret', { slug: 'secret' })]));
    await writeTree(s, { spaceId: other }, tree([docPage('x1', 'Mango', { slug: 'mango' })]));
    const patched = await s.request('PATCH', `/v1/spaces/${closed}`, { body: { defaultLevel: null } });
    expect(patched.status).toBe(200);

    const admin = await s.request('GET', `/v1/orgs/${s.orgId}/search?query=kiwi`);
    expectSpec(admin, 'GET', '/orgs/{organizationId}/search', 200);
    expect(admin.body.items.map((i: { id: string }) => i.id).sort()).toEqual([closed, open].sort());
    const openItem = admin.body.items.find((i: { id: string }) => i.id === open);
    expect(openItem).toMatchObject({ type: 'space', id: open, title: 'Open' });
    expect(openItem.pages.map((p: { id: string }) => p.id).sort()).toEqual(['o1', 'o2']);

    // A guest searches only what was shared with them.
    const reader = await s.user({ org: s.orgId, role: null });
    expect((await s.request('POST', `/v1/spaces/${open}/permissions`, { body: { role: 'read', users: [reader.id] } })).status).toBe(204);
    const res = await s.request('GET', `/v1/orgs/${s.orgId}/search?query=kiwi`, { token: reader.token });
    expectSpec(res, 'GET', '/orgs/{organizationId}/search', 200);
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([open]);

    const paged = await s.request('GET', `/v1/orgs/${s.orgId}/search?query=kiwi&limit=1`);
    expectSpec(paged, 'GET', '/orgs/{organizationId}/search', 200);
    expect(paged.body.items).toHaveLength(1);
    const rest = await s.request('GET', `/v1/orgs/${s.orgId}/search?query=kiwi&limit=1&page=${paged.body.next.page}`);
    expectSpec(rest, 'GET', '/orgs/{organizationId}/search', 200);
    expect([...paged.body.items, ...rest.body.items].map((i: { id: string }) => i.id).sort()).toEqual([closed, open].sort());
    expect(rest.body).not.toHaveProperty('next');
  });

  it('is 404 for a non-member and 400 without a query', async () => {
    const outsider = await s.organization();
    expectError(await s.request('GET', `/v1/orgs/${s.orgId}/search?query=kiwi`, { token: outsider.adminToken }), 404);
    expectError(await s.request('GET', `/v1/orgs/${s.orgId}/search`), 400, /query/);
  });

  it('leaves deleted spaces out', async () => {
    const gone = (await createSpace(s, { title: 'Gone' })).id;
    await writeTree(s, { spaceId: gone }, tree([docPage('g1', 'Papaya', { slug: 'papaya' })]));
    expect((await s.request('GET', `/v1/orgs/${s.orgId}/search?query=papaya`)).body.items).toHaveLength(1);
    expect((await s.request('DELETE', `/v1/spaces/${gone}`)).status).toBe(205);
    const res = await s.request('GET', `/v1/orgs/${s.orgId}/search?query=papaya`);
    expectSpec(res, 'GET', '/orgs/{organizationId}/search', 200);
    expect(res.body.items).toEqual([]);
  });
});
