import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentTree } from '../../src/model/index.js';
import { putBlob } from '../../src/server/store/blobs.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';
import { specHasOperation } from '../helpers/spec.js';
import { docPage, storeMarkdown, writeTree } from '../helpers/content.js';
import { createSpace } from '../helpers/spaces.js';

type Location = { kind: string; [key: string]: any };
type Item = { status: string; relation: string; targetReference?: Location; locationReferences: Location[] };

const describeTarget = (item: Item) => {
  const t = item.targetReference!;
  if (t.kind === 'page') return `page:${t.page.id}${t.internalLocation ? `#${t.internalLocation.anchor}` : ''}`;
  if (t.kind === 'file') return `file:${t.file.id}`;
  return `url:${t.url}`;
};

async function linkedTree(s: TestServer, extraIntro = ''): Promise<ContentTree> {
  const intro = [
    '# Intro',
    '',
    '[install](guides/install.md) [ext](https://example.com) [app](' + s.url + '/app/spaces/x/pages/y)',
    '[gone](missing.md) ![logo](.gitbook/assets/logo.png) [steps](guides/install.md#steps) [bad](guides/install.md#nope)',
    extraIntro,
  ].join('\n');
  const guides = '# Guides\n\n[home](../README.md) and [logo again](/files/f-logo) and [install](install.md)\n';
  const install = '# Install\n\n## Steps\n\n[here](#steps)\n\n<img src="../.gitbook/assets/logo.png" alt="logo">\n';
  return {
    pages: [
      docPage('p-intro', 'Intro', { document: await storeMarkdown(s, intro) }),
      docPage('p-guides', 'Guides', {
        document: await storeMarkdown(s, guides),
        pages: [docPage('p-install', 'Install', { document: await storeMarkdown(s, install) })],
      }),
      docPage('p-plain', 'Plain'),
    ],
    files: [
      {
        id: 'f-logo',
        name: 'logo.png',
        contentType: 'image/png',
        size: 3,
        blob: await putBlob(s.server.db.kysely, Buffer.from([1, 2, 3])),
      },
    ],
    variables: {},
    reusableContents: [],
  };
}

describe.each(testDialects())('links (%s)', (dialect) => {
  let s: TestServer;
  let spaceId: string;
  beforeAll(async () => {
    s = await startServer(dialect);
    spaceId = (await createSpace(s, { title: 'Linked' })).id;
    await writeTree(s, { spaceId }, await linkedTree(s));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('the link endpoints are seed-only (gone from the published spec): checked by hand', () => {
    expect(specHasOperation('GET', '/spaces/{spaceId}/links')).toBe(false);
    expect(specHasOperation('GET', '/spaces/{spaceId}/content/page/{pageId}/links')).toBe(false);
    expect(specHasOperation('GET', '/spaces/{spaceId}/content/files/{fileId}/backlinks')).toBe(false);
  });

  it('GET /spaces/{id}/links lists every target once with the pages linking to it, and stats', async () => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/links`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const items = res.body.items as Item[];
    expect(items.map((i) => [describeTarget(i), i.status, i.locationReferences.map((l) => l.page.id)])).toEqual([
      ['page:p-install', 'ok', ['p-intro', 'p-guides']],
      ['url:https://example.com', 'ok', ['p-intro']],
      [`url:${s.url}/app/spaces/x/pages/y`, 'in-app', ['p-intro']],
      ['url:missing.md', 'broken', ['p-intro']],
      ['file:f-logo', 'ok', ['p-intro', 'p-guides', 'p-install']],
      ['page:p-install#steps', 'ok', ['p-intro', 'p-install']],
      ['url:guides/install.md#nope', 'broken', ['p-intro']],
      ['page:p-intro', 'ok', ['p-guides']],
    ]);
    expect(res.body.count).toBe(8);
    expect(res.body).not.toHaveProperty('next');
    expect(res.body.stats).toEqual({ total: 8, broken: { total: 2, changeRequest: 0 } });
    for (const item of items) expect(item.relation).toBe('reference');

    const space = (await s.request('GET', `/v1/spaces/${spaceId}`)).body;
    const pageRef = items[0]!.targetReference!;
    expect(pageRef).toMatchObject({ kind: 'page', organization: space.organization, space: spaceId });
    expect(pageRef.page).toMatchObject({
      id: 'p-install',
      type: 'document',
      kind: 'sheet',
      path: 'guides/install',
      slug: 'install',
      pages: [],
      tags: [],
    });
    expect(pageRef).not.toHaveProperty('versionContext');
    expect(items[4]!.targetReference).toMatchObject({
      kind: 'file',
      organization: space.organization,
      space: spaceId,
      file: {
        id: 'f-logo',
        name: 'logo.png',
        contentType: 'image/png',
        size: 3,
        downloadURL: expect.stringContaining('/files/f-logo/download'),
      },
    });
    expect(items[5]!.targetReference).toMatchObject({ kind: 'page', internalLocation: { type: 'anchor', anchor: 'steps' } });
  });

  it('the status filter keeps only that status; stats still count the whole listing', async () => {
    const broken = await s.request('GET', `/v1/spaces/${spaceId}/links?status=broken`);
    expect((broken.body.items as Item[]).map(describeTarget)).toEqual(['url:missing.md', 'url:guides/install.md#nope']);
    expect(broken.body.stats).toEqual({ total: 8, broken: { total: 2, changeRequest: 0 } });
    const inApp = await s.request('GET', `/v1/spaces/${spaceId}/links?status=in-app`);
    expect((inApp.body.items as Item[]).map((i) => i.status)).toEqual(['in-app']);
    const ok = await s.request('GET', `/v1/spaces/${spaceId}/links?status=ok`);
    expect(ok.body.count).toBe(5);
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/links?status=dead`), 400, /status/);
  });

  it('pages through the listing without losing or repeating an item, also under a filter', async () => {
    for (const filter of ['', '&status=ok']) {
      const seen: string[] = [];
      let page: string | undefined;
      let rounds = 0;
      do {
        const res = await s.request('GET', `/v1/spaces/${spaceId}/links?limit=3${filter}${page ? `&page=${page}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.count).toBeLessThanOrEqual(3);
        seen.push(...(res.body.items as Item[]).map(describeTarget));
        page = res.body.next?.page;
        rounds += 1;
      } while (page && rounds < 10);
      const all = (await s.request('GET', `/v1/spaces/${spaceId}/links?limit=1000${filter}`)).body.items as Item[];
      expect(seen).toEqual(all.map(describeTarget));
    }
  });

  it('GET content/page/{pageId}/links lists the links written in one page', async () => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-guides/links`);
    expect(res.status).toBe(200);
    expect((res.body.items as Item[]).map((i) => [describeTarget(i), i.locationReferences.map((l) => l.page.id)])).toEqual([
      ['page:p-install', ['p-guides']],
      ['file:f-logo', ['p-guides']],
      ['page:p-intro', ['p-guides']],
    ]);
    expect(res.body.stats).toEqual({ total: 3, broken: { total: 0, changeRequest: 0 } });
    const intro = await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-intro/links?status=broken`);
    expect(intro.body.count).toBe(2);
    expect(intro.body.stats).toEqual({ total: 7, broken: { total: 2, changeRequest: 0 } });
    const plain = await s.request('GET', `/v1/spaces/${spaceId}/content/page/p-plain/links`);
    expect(plain.body).toEqual({ items: [], count: 0, stats: { total: 0, broken: { total: 0, changeRequest: 0 } } });
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/page/nope/links`), 404, /page nope/);
  });

  it('GET content/files/{fileId}/backlinks lists the pages linking to the file, paged', async () => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/content/files/f-logo/backlinks`);
    expect(res.status).toBe(200);
    expect((res.body.items as Location[]).map((l) => [l.kind, l.page.id])).toEqual([
      ['page', 'p-intro'],
      ['page', 'p-guides'],
      ['page', 'p-install'],
    ]);
    const first = await s.request('GET', `/v1/spaces/${spaceId}/content/files/f-logo/backlinks?limit=2`);
    expect(first.body.count).toBe(2);
    const second = await s.request('GET', `/v1/spaces/${spaceId}/content/files/f-logo/backlinks?limit=2&page=${first.body.next.page}`);
    expect((second.body.items as Location[]).map((l) => l.page.id)).toEqual(['p-install']);
    expect(second.body).not.toHaveProperty('next');
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/content/files/nope/backlinks`), 404, /file nope/);
  });

  it("change-request variants read the change request's content, with a version context", async () => {
    const cr = (await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'More links' } })).body;
    await writeTree(s, { spaceId, changeRequestId: cr.id }, await linkedTree(s, '[also gone](/pages/deleted)'));
    const links = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.number}/content/page/p-intro/links?status=broken`);
    expect(links.status).toBe(200);
    expect((links.body.items as Item[]).map(describeTarget)).toEqual([
      'url:missing.md',
      'url:guides/install.md#nope',
      'url:/pages/deleted',
    ]);
    // Two of the three were broken before the change request: it introduced one.
    expect(links.body.stats).toEqual({ total: 8, broken: { total: 3, changeRequest: 1 } });
    expect(links.body.items[0].locationReferences[0].versionContext).toMatchObject({
      type: 'changeRequest',
      changeRequest: { object: 'change-request', id: cr.id },
    });
    const all = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/links`);
    expect(all.body.stats).toEqual({ total: 9, broken: { total: 3, changeRequest: 1 } });
    const backlinks = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/files/f-logo/backlinks`);
    expect(backlinks.body.count).toBe(3);
    // Main is unchanged.
    expect((await s.request('GET', `/v1/spaces/${spaceId}/links`)).body.stats).toEqual({
      total: 8,
      broken: { total: 2, changeRequest: 0 },
    });
    expectError(await s.request('GET', `/v1/spaces/${spaceId}/change-requests/77/content/page/p-intro/links`), 404, /change request 77/);
  });

  it('malformed links are broken, never a failure of the listing', async () => {
    const other = (await createSpace(s, { title: 'Odd links' })).id;
    const markdown = '[a](#%E0%A4%A) [b](%zz.md) [c](<>) [d](../../../x.md) <a href="/files/">e</a>\n';
    await writeTree(
      s,
      { spaceId: other },
      { pages: [docPage('p-odd', 'Odd', { document: await storeMarkdown(s, markdown) })], files: [], variables: {}, reusableContents: [] },
    );
    const res = await s.request('GET', `/v1/spaces/${other}/links`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body.items as Item[]).map((i) => [i.status, describeTarget(i)])).toEqual([
      ['broken', 'url:#%E0%A4%A'],
      ['broken', 'url:%zz.md'],
      ['broken', 'url:../../../x.md'],
      ['broken', 'url:/files/'],
    ]);
  });

  it('a read member may list links; a non-member gets 404', async () => {
    const reader = await s.user({ org: s.orgId, role: 'read' });
    expect((await s.request('GET', `/v1/spaces/${spaceId}/links`, { token: reader.token })).status).toBe(200);
    const stranger = await s.user();
    for (const path of ['/links', '/content/page/p-intro/links', '/content/files/f-logo/backlinks']) {
      expectError(await s.request('GET', `/v1/spaces/${spaceId}${path}`, { token: stranger.token }), 404, /space/);
    }
  });
});
