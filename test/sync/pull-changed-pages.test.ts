import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { pull } from '../../src/sync/pull/pull.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { placesOf, snapshotOf } from '../../src/sync/remote/snapshot.js';
import { readState } from '../../src/sync/state/state.js';
import { loadFolder } from '../../src/workspace/index.js';
import { hostedProxy, type HostedProxy } from '../helpers/hosted-proxy.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { editMain, git } from './fixture.js';

/**
 * A pull of a platform edit of pages' own files, from a server with the `changed-pages` extension,
 * reads and writes those pages alone (issue 23: a pull of one remote page edit in 5,000 pages
 * within 1.5x of the same pull in 10), and leaves the folder as a read of the whole revision does.
 */
describe('pull reads only the pages the platform changed', () => {
  let s: TestServer;
  let proxy: HostedProxy;
  let client: Client;
  let work: string;
  beforeAll(async () => {
    s = await startServer('sqlite');
    proxy = await hostedProxy(s.url, { passThrough: true });
    client = createClient({ baseUrl: proxy.url, token: s.token });
    work = await mkdtemp(join(tmpdir(), 'docsync-pull-changed-'));
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  /** Sections with child pages, cloned into `work/<name>`. */
  async function nestedSpace(name: string) {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: name, empty: true } })).body;
    const ids = await editMain(s, space.id, [
      { operation: 'insert_page', ref: 'home', title: 'Home', document: { markdown: '# Home\n\nWelcome.\n' } },
      { operation: 'insert_page', ref: 'guides', title: 'Guides', document: { markdown: '# Guides\n\nAll guides.\n' } },
      { operation: 'insert_page', ref: 'api', title: 'API', document: { markdown: '# API\n\nThe API.\n' } },
    ]);
    const children = await editMain(s, space.id, [
      ...['Install', 'Configure', 'Upgrade'].map((title) => ({
        operation: 'insert_page',
        ref: title.toLowerCase(),
        into: ids.get('guides'),
        title,
        document: { markdown: `# ${title}\n\nHow to ${title.toLowerCase()}.\n` },
      })),
      { operation: 'insert_page', ref: 'auth', into: ids.get('api'), title: 'Auth', document: { markdown: '# Auth\n\nTokens.\n' } },
    ]);
    const dir = join(work, name);
    await clone({ client, apiUrl: proxy.url, spaceId: space.id, dir });
    return { spaceId: space.id as string, dir, ids: new Map([...ids, ...children]) };
  }

  /** The folder a read of the whole revision gives, file for file, against what the pull left on disk and in HEAD. */
  async function expectWholeRead(dir: string, spaceId: string) {
    const state = await readState(dir);
    const expected = snapshotOf(await fetchContent(client, { space: spaceId }), placesOf(state.branches.main!.index)).files;
    const onDisk = await loadFolder(dir);
    expect([...onDisk.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, bytes] of expected) expect(Buffer.from(onDisk.get(path)!).toString(), path).toBe(Buffer.from(bytes).toString());
    expect(git(dir, 'status', '--porcelain')).toBe('');
  }

  const requestsOf = async (run: () => Promise<unknown>) => {
    const before = proxy.seen.length;
    await run();
    return proxy.seen.slice(before);
  };
  /** Reads of a whole revision or page tree: what a pull of the whole revision makes. */
  const wholeReads = (requests: string[]) =>
    requests.filter((r) => /^GET \/v1\/spaces\/[^/]+\/(content|revisions\/[^/?]+)(\/pages)?(\?|$)/.test(r));

  it('a document and a description edited on the platform: two page reads, no read of the revision, the folder a whole read gives', async () => {
    const t = await nestedSpace('pages-only');
    const before = (await readState(t.dir)).branches.main!;
    await editMain(s, t.spaceId, [
      {
        operation: 'update_page',
        page: t.ids.get('configure'),
        document: { markdown: '# Configure\n\nEdited on the platform: see [Auth](../api/auth.md).\n' },
      },
      { operation: 'update_page', page: t.ids.get('auth'), description: 'How tokens work' },
    ]);
    let results: Awaited<ReturnType<typeof pull>> = [];
    const requests = await requestsOf(async () => (results = await pull(client, t.dir)));
    expect(results[0]!.changes.map((c) => `${c.status} ${c.path}`)).toEqual(['modified api/auth.md', 'modified guides/configure.md']);
    expect(requests.filter((r) => r.includes('/changed-pages?'))).toHaveLength(1);
    expect(requests.filter((r) => /\/page\/[^/?]+\?/.test(r))).toHaveLength(2);
    expect(wholeReads(requests)).toEqual([]);
    await expectWholeRead(t.dir, t.spaceId);
    expect(await readFile(join(t.dir, 'api/auth.md'), 'utf8')).toContain('How tokens work');
    const after = (await readState(t.dir)).branches.main!;
    expect(after.index).toEqual(before.index);
    expect(after.remoteRevision).toBe((await s.request('GET', `/v1/spaces/${t.spaceId}`)).body.revision);
    // Every earlier state is in git: the remote commit is a parent of main's.
    expect(git(t.dir, 'rev-list', '--parents', '-n', '1', 'main').trim().split(' ')).toContain(after.syncedCommit);
  });

  it('a title, a new page or a moved page changes more than pages: the whole revision is read', async () => {
    const t = await nestedSpace('structure');
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.ids.get('install'), title: 'Installation' }]);
    let requests = await requestsOf(() => pull(client, t.dir));
    expect(wholeReads(requests).length).toBeGreaterThan(0);
    await expectWholeRead(t.dir, t.spaceId);
    await editMain(s, t.spaceId, [
      { operation: 'insert_page', into: t.ids.get('api'), title: 'Errors', document: { markdown: '# Errors\n\nCodes.\n' } },
    ]);
    requests = await requestsOf(() => pull(client, t.dir));
    expect(wholeReads(requests).length).toBeGreaterThan(0);
    await expectWholeRead(t.dir, t.spaceId);
  });

  it('looks for uncommitted edits at the changed files only: an edit elsewhere stays uncommitted and as it was, one of a changed file is saved and merged', async () => {
    const t = await nestedSpace('uncommitted');
    await writeFile(join(t.dir, 'guides/upgrade.md'), '# Upgrade\n\nA local edit, not committed.\n');
    await editMain(s, t.spaceId, [
      {
        operation: 'update_page',
        page: t.ids.get('install'),
        document: { markdown: '# Install\n\nEdited on the platform.\n\nStep one.\n\nStep two.\n' },
      },
    ]);
    const [elsewhere] = await pull(client, t.dir);
    expect(elsewhere!.savedLocalEdits).toBeUndefined();
    expect(git(t.dir, 'status', '--porcelain')).toBe(' M guides/upgrade.md\n');
    expect(await readFile(join(t.dir, 'guides/upgrade.md'), 'utf8')).toBe('# Upgrade\n\nA local edit, not committed.\n');
    expect(await readFile(join(t.dir, 'guides/install.md'), 'utf8')).toContain('Edited on the platform.');

    await writeFile(join(t.dir, 'guides/install.md'), '# Install\n\nEdited on the platform.\n\nStep one.\n\nStep two, done locally.\n');
    await editMain(s, t.spaceId, [
      {
        operation: 'update_page',
        page: t.ids.get('install'),
        document: { markdown: '# Install\n\nEdited on the platform, again.\n\nStep one.\n\nStep two.\n' },
      },
    ]);
    const [same] = await pull(client, t.dir);
    expect(same!.savedLocalEdits).toMatch(/^[0-9a-f]{40}$/);
    expect(same!.conflicts).toEqual([]);
    expect(await readFile(join(t.dir, 'guides/install.md'), 'utf8')).toBe(
      '# Install\n\nEdited on the platform, again.\n\nStep one.\n\nStep two, done locally.\n',
    );
  });

  it('a server without the extension (the hosted API): the whole revision is read, with the same folder', async () => {
    const hosted = await hostedProxy(s.url);
    const hostedClient = createClient({ baseUrl: hosted.url, token: s.token });
    try {
      const t = await nestedSpace('hosted');
      await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.ids.get('auth'), document: { markdown: '# Auth\n\nEdited.\n' } }]);
      const before = hosted.seen.length;
      await pull(hostedClient, t.dir);
      const requests = hosted.seen.slice(before);
      expect(requests.filter((r) => r.includes('/changed-pages'))).toEqual([]);
      expect(wholeReads(requests).length).toBeGreaterThan(0);
      await expectWholeRead(t.dir, t.spaceId);
    } finally {
      await hostedClient.close();
      await hosted.close();
    }
  });
});
