import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { readState } from '../../src/sync/state/state.js';
import { loadFolder } from '../../src/workspace/index.js';
import { clonedSpace, git } from '../sync/fixture.js';
import { spawnCli } from './run-cli.js';
import { hostedProxy } from '../helpers/hosted-proxy.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/**
 * A push killed (SIGKILL, through the journal's test hook) at every step of a three-batch push,
 * then run again: the change request ends up exactly as the branch, no page twice, none lost.
 */
describe('docsync push killed mid-way', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-push-crash-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  /** A branch adding 60 pages at the top, a new section with 45 new pages under it, and an edit. */
  async function bigBranch(name: string) {
    const t = await clonedSpace(s, client, work, name);
    git(t.dir, 'checkout', '-qb', 'bulk');
    const lines = ['# Table of contents', '', '* [Alpha](README.md)', '* [Beta](beta.md)'];
    for (let i = 0; i < 60; i += 1) {
      await writeFile(join(t.dir, `page-${i}.md`), `# Page ${i}\n\nbody ${i}\n`);
      lines.push(`* [Page ${i}](page-${i}.md)`);
    }
    await mkdir(join(t.dir, 'section'));
    await writeFile(join(t.dir, 'section', 'README.md'), '# Section\n\nthe section\n');
    lines.push('* [Section](section/README.md)');
    for (let i = 0; i < 45; i += 1) {
      await writeFile(join(t.dir, 'section', `child-${i}.md`), `# Child ${i}\n\nchild ${i}\n`);
      lines.push(`  * [Child ${i}](section/child-${i}.md)`);
    }
    await writeFile(join(t.dir, 'SUMMARY.md'), `${lines.join('\n')}\n`);
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta, edited in bulk\n');
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Bulk pages');
    return t;
  }

  const env = () => ({ DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token });

  async function expectChangeRequestIsBranch(dir: string, spaceId: string, pages = 108) {
    const { changeRequestId } = (await readState(dir)).branches.bulk!;
    const remote = snapshotOf(await fetchContent(client, { space: spaceId, changeRequest: changeRequestId! }));
    const local = await loadFolder(dir);
    const text = (m: Map<string, Uint8Array | string>) =>
      new Map([...m].filter(([p]) => !p.startsWith('.git/')).map(([p, b]) => [p, Buffer.from(b as Uint8Array).toString()]));
    expect(text(local)).toEqual(text(remote.files));
    // 2 + 60 + 1 + 45 pages, each once.
    const res = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`);
    const count = (pages: any[]): number => pages.reduce((n, p) => n + 1 + count(p.pages ?? []), 0);
    expect(count(res.body.pages)).toBe(pages);
    expect(await readdir(join(dir, '.git', 'docsync', 'journal'))).toEqual([]);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  }

  it('plans three batches (the section before its children)', async () => {
    const t = await bigBranch('plan');
    const dry = spawnCli(['push', '--dry-run', '--json', '--dir', t.dir], env());
    expect(await dry.exited, dry.stderr()).toBe(0);
    const planned = JSON.parse(dry.stdout());
    expect(planned.batches).toBe(3);
    expect(planned.counts).toMatchObject({ inserted: 106, updated: 1 });
  });

  for (const kill of ['sent:0', 'recorded:0', 'sent:1', 'recorded:1', 'sent:2', 'recorded:2']) {
    it(`resumes a push killed at ${kill} with an exact result`, async () => {
      const t = await bigBranch(`kill-${kill.replace(':', '-')}`);
      const killed = spawnCli(['push', '--dir', t.dir], { ...env(), DOCSYNC_TEST_KILL: kill });
      expect(await killed.exited, killed.stderr()).toBe('SIGKILL');
      const resumed = spawnCli(['push', '--json', '--dir', t.dir], env());
      expect(await resumed.exited, resumed.stderr()).toBe(0);
      const result = JSON.parse(resumed.stdout());
      expect(result.resumed).toBe(true);
      expect(result.changeRequest.opened).toBe(false);
      await expectChangeRequestIsBranch(t.dir, t.spaceId);
      // One change request only: the killed run opened it, the second run reused it.
      const open = [];
      for await (const cr of client.changeRequests.list(t.spaceId)) open.push(cr);
      expect(open).toHaveLength(1);
    });
  }

  /** Page ids of the change request by title. */
  async function idsByTitle(spaceId: string, changeRequestId: string): Promise<Map<string, string>> {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`);
    const ids = new Map<string, string>();
    const walk = (pages: any[]) => {
      for (const page of pages) {
        ids.set(page.title, page.id);
        walk(page.pages ?? []);
      }
    };
    walk(res.body.pages);
    return ids;
  }

  for (const via of ['our server', 'the hosted API'] as const) {
    it(`a push killed once every batch landed, run again after new commits, sends them and keeps their text (${via})`, async () => {
      const proxy = via === 'the hosted API' ? await hostedProxy(s.url) : undefined;
      const envVia = () => ({ ...env(), ...(proxy ? { DOCSYNC_API_URL: proxy.url } : {}) });
      try {
        const t = await bigBranch(`kill-then-commit-${proxy ? 'hosted' : 'direct'}`);
        // And a page in a file of the writer's own naming (GitBook's would be odd-one.md).
        await mkdir(join(t.dir, 'notes'));
        await writeFile(join(t.dir, 'notes', 'kept-here.md'), '# Odd one\n\nplaced by hand\n');
        await writeFile(join(t.dir, 'SUMMARY.md'), `${git(t.dir, 'show', 'HEAD:SUMMARY.md').trimEnd()}\n* [Odd one](notes/kept-here.md)\n`);
        git(t.dir, 'add', '-A');
        git(t.dir, 'commit', '-qm', 'A hand-placed page');
        const killed = spawnCli(['push', '--dir', t.dir], { ...envVia(), DOCSYNC_TEST_KILL: 'recorded:2' });
        expect(await killed.exited, killed.stderr()).toBe('SIGKILL');
        const journal = JSON.parse(await readFile(join(t.dir, '.git', 'docsync', 'journal', 'bulk.json'), 'utf8'));
        expect(journal.landed).toBe(3);
        const landed = await idsByTitle(t.spaceId, journal.changeRequestId);

        // The writer goes on before pushing again: pages the killed push created (one in a file
        // of the writer's naming), a page it updated, and a new page.
        const edited = new Map([
          ['page-7.md', '# Page 7\n\nbody 7, edited after the kill\n'],
          ['notes/kept-here.md', '# Odd one\n\nplaced by hand, edited after the kill\n'],
          ['beta.md', '# Beta\n\nbeta, edited after the kill\n'],
          ['late-note.md', '# Late\n\nwritten after the kill\n'],
        ]);
        for (const [path, text] of edited) await writeFile(join(t.dir, path), text);
        await writeFile(join(t.dir, 'SUMMARY.md'), `${git(t.dir, 'show', 'HEAD:SUMMARY.md').trimEnd()}\n* [Late](late-note.md)\n`);
        git(t.dir, 'add', '-A');
        git(t.dir, 'commit', '-qm', 'After the kill');

        const again = spawnCli(['push', '--json', '--dir', t.dir], envVia());
        expect(await again.exited, again.stderr()).toBe(0);
        expect(JSON.parse(again.stdout())).toMatchObject({
          resumed: true,
          changeRequest: { opened: false },
          counts: { inserted: 1, updated: 3, deleted: 0 },
        });
        for (const [path, text] of edited) expect(await readFile(join(t.dir, path), 'utf8'), path).toBe(text);
        if (!proxy) await expectChangeRequestIsBranch(t.dir, t.spaceId, 110);
        // The pages the killed push created were updated where they are, not made again.
        const now = await idsByTitle(t.spaceId, journal.changeRequestId);
        expect(now.size).toBe(110);
        for (const [title, id] of landed) expect(now.get(title), title).toBe(id);
        for (const [title, text] of [
          ['Odd one', 'placed by hand, edited after the kill\n'],
          ['Beta', 'beta, edited after the kill\n'],
          ['Late', 'written after the kill\n'],
        ]) {
          const page = await s.request(
            'GET',
            `/v1/spaces/${t.spaceId}/change-requests/${journal.changeRequestId}/content/page/${now.get(title!)}?format=markdown`,
          );
          expect(page.body.markdown, title).toBe(text);
        }
        // Nothing is left to push, nor in flight.
        expect(git(t.dir, 'diff', '--name-only', (await readState(t.dir)).branches.bulk!.syncedCommit, 'HEAD')).toBe('');
        expect(await readdir(join(t.dir, '.git', 'docsync', 'journal'))).toEqual([]);
      } finally {
        await proxy?.close();
      }
    });
  }

  /**
   * A branch `topic` whose edit of Beta (`text`) was pushed, with the journal a push killed after
   * recording its result and before removing its journal leaves.
   */
  async function pushedWithStaleJournal(name: string, text: string) {
    const t = await clonedSpace(s, client, work, name);
    git(t.dir, 'checkout', '-qb', 'topic');
    await writeFile(join(t.dir, 'beta.md'), `# Beta\n\n${text}\n`);
    git(t.dir, 'commit', '-qam', 'An edit');
    const first = spawnCli(['push', '--dir', t.dir], env());
    expect(await first.exited, first.stderr()).toBe(0);
    const entry = (await readState(t.dir)).branches.topic!;
    const stale = {
      version: 1,
      branch: 'topic',
      changeRequestId: entry.changeRequestId,
      startRevision: 'before-the-push',
      batches: [[{ operation: 'update_page', page: t.beta, document: { markdown: `${text}\n` } }]],
      landed: 1,
      revision: entry.remoteRevision,
      created: {},
    };
    await mkdir(join(t.dir, '.git', 'docsync', 'journal'), { recursive: true });
    await writeFile(join(t.dir, '.git', 'docsync', 'journal', 'topic.json'), JSON.stringify(stale));
    return { ...t, changeRequestId: entry.changeRequestId! };
  }

  it('a journal left after its push was recorded is not resumed: the next push sends the new commits', async () => {
    const t = await pushedWithStaleJournal('stale-journal', 'first edit');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nsecond edit\n');
    git(t.dir, 'commit', '-qam', 'Second edit');
    const second = spawnCli(['push', '--json', '--dir', t.dir], env());
    expect(await second.exited, second.stderr()).toBe(0);
    expect(JSON.parse(second.stdout())).toMatchObject({ resumed: false, counts: { updated: 1 } });
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe('# Beta\n\nsecond edit\n');
    const remote = await s.request(
      'GET',
      `/v1/spaces/${t.spaceId}/change-requests/${t.changeRequestId}/content/page/${t.beta}?format=markdown`,
    );
    expect(remote.body.markdown).toBe('second edit\n');
    expect(await readdir(join(t.dir, '.git', 'docsync', 'journal'))).toEqual([]);
  });

  it('docsync sync removes a journal left after its push was recorded, with nothing else to push', async () => {
    const t = await pushedWithStaleJournal('stale-journal-sync', 'an edit');
    const sync = spawnCli(['sync', '--dir', t.dir], env());
    expect(await sync.exited, sync.stderr()).toBe(0);
    expect(await readdir(join(t.dir, '.git', 'docsync', 'journal'))).toEqual([]);
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe('# Beta\n\nan edit\n');
  });
});
