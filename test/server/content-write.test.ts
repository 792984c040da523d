import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { readTree } from '../helpers/content.js';
import { getText } from '../../src/server/store/blobs.js';
import { findPage, refPaths, renderPageMarkdown, splitTemplate } from '../../src/content/index.js';

const SPEC = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';

describe.each(testDialects())('content batch writes (%s)', (dialect) => {
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
    return { spaceId: space.id as string, crId: cr.body.id as string, number: cr.body.number as number, intro };
  }
  const write = (t: { spaceId: string; crId: string }, changes: unknown[], query = '', token?: string) =>
    s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content${query}`, {
      body: { changes },
      ...(token ? { token } : {}),
    });
  const tree = (t: { spaceId: string; crId: string }) => readTree(s, { spaceId: t.spaceId, changeRequestId: t.crId });
  /** A page's document as reads render it (stored page and file links are references). */
  const docOf = async (t: { spaceId: string; crId: string }, pageId: string) => {
    const current = await tree(t);
    const sha = findPage(current.pages, pageId)?.document;
    const stored = sha === undefined ? undefined : await getText(s.server.db.kysely, sha);
    return stored === undefined ? undefined : renderPageMarkdown(splitTemplate(stored), pageId, refPaths(current));
  };
  const revisionCount = async () =>
    Number(
      (
        await s.server.db.kysely
          .selectFrom('revisions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers the updated change request by default, with one new edits revision as its head', async () => {
    const t = await setup();
    const before = await revisionCount();
    const res = await write(t, [
      { operation: 'insert_page', title: 'Getting started', document: { markdown: '# Getting started\n\nHello.\n' } },
    ]);
    expectSpec(res, 'POST', SPEC, 200);
    expect(res.body).toMatchObject({ object: 'change-request', id: t.crId, status: 'open' });
    expect(await revisionCount()).toBe(before + 1);
    const row = await s.server.db.kysely.selectFrom('revisions').selectAll().where('id', '=', res.body.revision).executeTakeFirstOrThrow();
    const cr = await s.server.db.kysely
      .selectFrom('change_requests')
      .select('revision_initial')
      .where('id', '=', t.crId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ type: 'edits', change_request_id: t.crId, parents: JSON.stringify([cr.revision_initial]) });
    const page = (await tree(t)).pages[1]!;
    expect(page).toMatchObject({ title: 'Getting started', slug: 'getting-started' });
    expect(await docOf(t, page.id)).toBe('Hello.\n');
    // Main is untouched until the change request is merged.
    expect((await readTree(s, { spaceId: t.spaceId })).pages).toHaveLength(1);
  });

  it('compat=false lists the affected pages with their locations and echoes refs; the CR can be named by number', async () => {
    const t = await setup();
    const res = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.number}/content?compat=false`, {
      body: {
        changes: [
          { operation: 'insert_page', ref: 'new', title: 'New', document: {} },
          { operation: 'update_page', page: t.intro, title: 'Welcome' },
          { operation: 'update_page', page: t.intro, description: 'twice, listed once' },
        ],
      },
    });
    expectSpec(res, 'POST', SPEC, 200);
    const created = (await tree(t)).pages[1]!.id;
    expect(res.body.changeRequest.id).toBe(t.crId);
    expect(res.body.changes).toEqual([
      {
        object: 'created_page',
        ref: 'new',
        page: {
          object: 'page',
          id: created,
          urls: {
            location: expect.stringMatching(new RegExp(`/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content/page/${created}$`)),
          },
        },
      },
      {
        object: 'updated_page',
        page: { object: 'page', id: t.intro, urls: { location: expect.stringContaining(`/content/page/${t.intro}`) } },
      },
    ]);
    expect(res.body.insertedFiles).toBeUndefined();
    const location = await s.request('GET', new URL(res.body.changes[0].page.urls.location).pathname);
    expect(location.status).toBe(200);
    expect(location.body.id).toBe(created);
  });

  it('accepts 50 changes and refuses 51 and 0 without a trace', async () => {
    const t = await setup();
    const inserts = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ operation: 'insert_page', title: `Page ${i}`, document: { markdown: `Body ${i}` } }));
    expectSpec(await write(t, inserts(50)), 'POST', SPEC, 200);
    expect((await tree(t)).pages).toHaveLength(51);
    const before = await revisionCount();
    expectError(await write(t, inserts(51)), 400, /body\.changes must NOT have more than 50 items/);
    expectError(await write(t, []), 400, /body\.changes must NOT have fewer than 1 items/);
    expect(await revisionCount()).toBe(before);
  });

  it('a batch with one bad change leaves no trace: no revision, head and blobs unchanged', async () => {
    const t = await setup();
    const head = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}`)).body.revision;
    const revisions = await revisionCount();
    const res = await write(t, [
      { operation: 'insert_page', title: 'Fine', document: { markdown: 'a unique body that must not be stored 7f3a' } },
      {
        operation: 'insert_files',
        files: [{ name: 'x.txt', base64: Buffer.from('unique bytes 7f3a').toString('base64'), contentType: 'text/plain' }],
      },
      { operation: 'update_page', page: 'missing-page', title: 'x' },
    ]);
    expectError(res, 400, 'changes[2]: page missing-page not found');
    expect((await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}`)).body.revision).toBe(head);
    expect(await revisionCount()).toBe(revisions);
    const blobs = await s.server.db.kysely
      .selectFrom('blobs')
      .select('sha256')
      .where('size', '=', Buffer.byteLength('unique bytes 7f3a'))
      .execute();
    expect(blobs).toEqual([]);
  });

  it('refuses unknown fields and operations, naming them', async () => {
    const t = await setup();
    expectError(
      await write(t, [{ operation: 'insert_page', document: {}, colour: 'red' }]),
      400,
      /body\.changes\.0 has an unknown field `colour`/,
    );
    expectError(await write(t, [{ operation: 'rename_page', page: 'x' }]), 400, /body\.changes\.0/);
    expectError(await write(t, [{ operation: 'insert_page', document: { markdown: 'x', html: 'y' } }]), 400, /body\.changes\.0\.document/);
    expectError(await write(t, [{ operation: 'insert_page', document: {}, at: -1 }]), 400, /body\.changes\.0\.at must be at least 0/);
    expectError(await write(t, [{ operation: 'insert_page', document: {}, slug: 'x'.repeat(101) }]), 400, /slug must be at most 100/);
    expectError(
      await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content`, { body: { changes: [], extra: 1 } }),
      400,
      /unknown field `extra`/,
    );
  });

  it('updates, moves, deletes and reverts pages', async () => {
    const t = await setup();
    const created = await write(
      t,
      [
        { operation: 'insert_page', ref: 'a', title: 'Guide', document: { markdown: 'guide' } },
        { operation: 'insert_page', title: 'Child', document: { markdown: 'child' } },
      ],
      '?compat=false',
    );
    const [guide, child] = created.body.changes.map((c: { page: { id: string } }) => c.page.id);
    expectSpec(
      await write(t, [
        {
          operation: 'update_page',
          page: child,
          into: guide,
          at: 0,
          slug: 'kid',
          document: { markdown: '---\nhidden: true\n---\nnew child text' },
        },
        { operation: 'update_page', page: t.intro, emoji: '1f389', title: 'Intro!' },
      ]),
      'POST',
      SPEC,
      200,
    );
    let pages = (await tree(t)).pages;
    expect(pages.map((p) => p.id)).toEqual([t.intro, guide]);
    expect(pages[1]!.pages[0]).toMatchObject({ id: child, slug: 'kid', hidden: true });
    expect(pages[0]).toMatchObject({ title: 'Intro!', slug: 'introduction', emoji: '1f389' });
    expect(await docOf(t, child)).toBe('new child text\n');

    const reverted = await write(
      t,
      [
        { operation: 'revert_page', page: t.intro },
        { operation: 'delete_page', page: guide },
      ],
      '?compat=false',
    );
    expectSpec(reverted, 'POST', SPEC, 200);
    expect(reverted.body.changes).toEqual([
      { object: 'updated_page', page: expect.objectContaining({ id: t.intro }) },
      { object: 'deleted_page', page: guide },
      { object: 'deleted_page', page: child },
    ]);
    pages = (await tree(t)).pages;
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ title: 'Introduction' });
    expect(pages[0]!.emoji).toBeUndefined();

    // Reverting a page the change request added removes it; an unknown revision is a 400.
    const added = await write(t, [{ operation: 'insert_page', title: 'Temp', document: {} }], '?compat=false');
    const temp = added.body.changes[0].page.id;
    expectSpec(await write(t, [{ operation: 'revert_page', page: temp }]), 'POST', SPEC, 200);
    expect((await tree(t)).pages.map((p) => p.id)).toEqual([t.intro]);
    expectError(
      await write(t, [{ operation: 'revert_page', page: t.intro, revision: 'nope' }]),
      400,
      'changes[0]: revision nope not found in this space',
    );
  });

  it('refuses a move into its own subtree and a slug taken by a sibling (409)', async () => {
    const t = await setup();
    const made = await write(t, [{ operation: 'insert_page', title: 'Parent', document: {} }], '?compat=false');
    const parent = made.body.changes[0].page.id;
    const kid = (await write(t, [{ operation: 'insert_page', title: 'Kid', into: parent, document: {} }], '?compat=false')).body.changes[0]
      .page.id;
    expectError(
      await write(t, [{ operation: 'update_page', page: parent, into: kid }]),
      400,
      /cannot move into itself or one of its subpages/,
    );
    expectError(
      await write(t, [{ operation: 'insert_page', title: 'Other', slug: 'introduction', document: {} }]),
      409,
      /changes\[0\]: slug "introduction" is already used/,
    );
  });

  it('resolves refs across the batch and links to existing pages, storing Git Sync relative paths', async () => {
    const t = await setup();
    const res = await write(
      t,
      [
        {
          operation: 'insert_page',
          ref: 'index',
          title: 'Index',
          document: {
            markdown:
              'See [the guide](./guide.md), [intro](/pages/introduction), [nothing](/pages/nowhere) and [web](https://example.com).',
          },
        },
        {
          operation: 'insert_page',
          ref: 'guide',
          title: 'Guide',
          document: { markdown: `Back to [index](./index.md#top) and [intro by id](/pages/${t.intro}).` },
        },
      ],
      '?compat=false',
    );
    expectSpec(res, 'POST', SPEC, 200);
    const [index, guide] = res.body.changes.map((c: { page: { id: string } }) => c.page.id);
    // A link resolving to nothing is kept as written (the published API makes it text).
    expect(await docOf(t, index)).toBe(
      'See [the guide](guide.md), [intro](README.md), [nothing](/pages/nowhere) and [web](https://example.com).\n',
    );
    expect(await docOf(t, guide)).toBe('Back to [index](index.md#top) and [intro by id](README.md).\n');
  });

  it('front matter overrides the operation fields, and the title comes from front matter or the heading', async () => {
    const t = await setup();
    const res = await write(
      t,
      [
        {
          operation: 'insert_page',
          title: 'Field',
          description: 'field',
          noIndex: false,
          document: { markdown: '---\ntitle: From front matter\ndescription: fm\nnoIndex: true\n---\n# Heading stays\n' },
        },
        { operation: 'insert_page', title: 'Field', document: { markdown: '# From heading\n\nText' } },
      ],
      '?compat=false',
    );
    expectSpec(res, 'POST', SPEC, 200);
    const pages = (await tree(t)).pages;
    expect(pages[1]).toMatchObject({ title: 'From front matter', description: 'fm', noIndex: true, slug: 'from-front-matter' });
    expect(await docOf(t, pages[1]!.id)).toBe('# Heading stays\n');
    expect(pages[2]).toMatchObject({ title: 'From heading', slug: 'from-heading' });
    expect(await docOf(t, pages[2]!.id)).toBe('Text\n');
    expectError(
      await write(t, [{ operation: 'insert_page', document: { markdown: '---\nnoIndex: maybe\n---\n' } }]),
      400,
      'changes[0]: front matter `noIndex` must be true or false, got "maybe"',
    );
  });

  it('insert_files with base64: stored, listed in insertedFiles, linkable by ref; limits enforced', async () => {
    const t = await setup();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const res = await write(
      t,
      [
        { operation: 'insert_page', title: 'With image', document: { markdown: '![logo](./logo)' } },
        { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', base64: png.toString('base64'), contentType: 'image/png' }] },
      ],
      '?compat=false',
    );
    expectSpec(res, 'POST', SPEC, 200);
    expect(res.body.insertedFiles).toEqual([expect.objectContaining({ name: 'logo.png', contentType: 'image/png', size: png.length })]);
    const file = res.body.insertedFiles[0];
    const download = await fetch(file.downloadURL, { headers: { authorization: `Bearer ${s.token}` } });
    expect(Buffer.from(await download.arrayBuffer())).toEqual(png);
    expect(await docOf(t, res.body.changes[0].page.id)).toBe('![logo](.gitbook/assets/logo.png)\n');

    const many = Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, base64: 'QQ==', contentType: 'text/plain' }));
    expectError(await write(t, [{ operation: 'insert_files', files: many }]), 400, /files must NOT have more than 20 items/);
    const big = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    expectError(
      await write(t, [{ operation: 'insert_files', files: [{ name: 'big.bin', base64: big, contentType: 'application/octet-stream' }] }]),
      400,
      'changes[0].files[0].base64 is larger than 1 MB',
    );
    expectError(
      await write(t, [{ operation: 'insert_files', files: [{ name: 'a.txt', base64: 'QQ==' }] }]),
      400,
      'changes[0].files[0].contentType is required with `base64`',
    );
    expectError(
      await write(t, [
        { operation: 'insert_files', files: [{ name: 'a.txt', base64: 'QQ==', contentType: 'text/plain', url: 'https://example.com/a' }] },
      ]),
      400,
      'exactly one of `url` or `base64`',
    );
    expectError(
      await write(t, [{ operation: 'insert_files', files: [{ name: 'a.txt', base64: '!!!', contentType: 'text/plain' }] }]),
      400,
      'not valid base64',
    );
  });

  it('refuses a url on a private address when the server does not allow private fetches', async () => {
    const t = await setup();
    expectError(
      await write(t, [{ operation: 'insert_files', files: [{ name: 'a.txt', url: `${s.url}/anything` }] }]),
      400,
      /changes\[0\]\.files\[0\]\.url: .*refused, 127\.0\.0\.1 is a loopback address/,
    );
  });

  it('two clients writing different pages to one change request at once both land', async () => {
    const t = await setup();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        write(t, [{ operation: 'insert_page', title: `Writer ${i}`, document: { markdown: `from writer ${i}` } }]),
      ),
    );
    for (const res of results) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const titles = (await tree(t)).pages.map((p) => p.title).sort();
    expect(titles).toEqual(['Introduction', ...Array.from({ length: 6 }, (_, i) => `Writer ${i}`)].sort());
  });

  it('refuses writes to a locked space (space_locked), to merged and archived change requests (409), and to readers (403)', async () => {
    const t = await setup();
    const change = [{ operation: 'update_page', page: t.intro, title: 'x' }];
    expect((await s.request('PATCH', `/v1/spaces/${t.spaceId}`, { body: { editMode: 'locked' } })).status).toBe(200);
    expectError(await write(t, change), 409, `space ${t.spaceId} is locked`);
    expect((await s.request('PATCH', `/v1/spaces/${t.spaceId}`, { body: { editMode: 'live' } })).status).toBe(200);

    const reader = await s.user({ org: s.orgId, role: 'read' });
    expectError(await write(t, change, '', reader.token), 403);
    const outsider = await s.user();
    expectError(await write(t, change, '', outsider.token), 404);
    expectError(await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/nope/content`, { body: { changes: change } }), 404);

    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/merge`)).status).toBe(200);
    expectError(await write(t, change), 409, /is merged/);
    const other = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: 'x' } });
    expect(
      (await s.request('PATCH', `/v1/spaces/${t.spaceId}/change-requests/${other.body.id}`, { body: { status: 'archived' } })).status,
    ).toBe(200);
    expectError(await write({ spaceId: t.spaceId, crId: other.body.id }, change), 409, /is archived/);
  });
});

describe.each(testDialects())('content batch writes with private fetches allowed (%s)', (dialect) => {
  let s: TestServer;
  let files: import('node:http').Server;
  let filesUrl: string;
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    const { createServer } = await import('node:http');
    files = createServer((req, res) => {
      if (req.url === '/logo.svg') res.writeHead(200, { 'content-type': 'image/svg+xml; charset=utf-8' }).end('<svg/>');
      else if (req.url === '/moved') res.writeHead(301, { location: '/logo.svg' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as import('node:net').AddressInfo).port}`;
  });
  afterAll(async () => {
    await s?.close();
    files?.closeAllConnections();
    await new Promise((resolve) => files?.close(resolve));
  });

  it('fetches url files (following redirects), typed by the source unless contentType overrides it', async () => {
    const space = await createSpace(s, {});
    const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: {} })).body;
    const res = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      body: {
        changes: [
          {
            operation: 'insert_files',
            files: [
              { name: 'logo.svg', url: `${filesUrl}/moved` },
              { name: 'raw.txt', url: `${filesUrl}/logo.svg`, contentType: 'text/plain' },
            ],
          },
        ],
      },
    });
    expectSpec(res, 'POST', SPEC, 200);
    expect(res.body.insertedFiles.map((f: { name: string; contentType: string; size: number }) => [f.name, f.contentType, f.size])).toEqual(
      [
        ['logo.svg', 'image/svg+xml', 6],
        ['raw.txt', 'text/plain', 6],
      ],
    );
    const missing = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: { changes: [{ operation: 'insert_files', files: [{ name: 'x', url: `${filesUrl}/missing` }] }] },
    });
    expectError(missing, 400, /changes\[0\]\.files\[0\]\.url: .*HTTP 404/);
  });
});
