import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { readState } from '../../src/sync/state/state.js';
import { loadFolder } from '../../src/workspace/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { clonedSpace, git } from '../sync/fixture.js';
import { eventually, expectExitOk, spawnWatch } from './watch-process.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/**
 * The daemon killed with SIGKILL in the middle of a three-batch push (through the journal's test
 * hook), then started again: the change request ends up exactly as the workspace, every page once.
 */
describe('docsync watch killed mid-push', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-watch-crash-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });
  const env = () => ({ DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token });

  /** 60 new pages at the top, a section with 45 pages under it (three batches), one edit. */
  async function saveMany(dir: string) {
    const lines = ['# Table of contents', '', '* [Alpha](README.md)', '* [Beta](beta.md)'];
    for (let i = 0; i < 60; i += 1) {
      await writeFile(join(dir, `page-${i}.md`), `# Page ${i}\n\nbody ${i}\n`);
      lines.push(`* [Page ${i}](page-${i}.md)`);
    }
    await mkdir(join(dir, 'section'));
    await writeFile(join(dir, 'section', 'README.md'), '# Section\n\nthe section\n');
    lines.push('* [Section](section/README.md)');
    for (let i = 0; i < 45; i += 1) {
      await writeFile(join(dir, 'section', `child-${i}.md`), `# Child ${i}\n\nchild ${i}\n`);
      lines.push(`  * [Child ${i}](section/child-${i}.md)`);
    }
    await writeFile(join(dir, 'beta.md'), '# Beta\n\nbeta, edited in bulk\n');
    await writeFile(join(dir, 'SUMMARY.md'), `${lines.join('\n')}\n`);
  }

  for (const kill of ['sent:1', 'recorded:0']) {
    it(`resumes exactly after a kill at ${kill}`, async () => {
      const t = await clonedSpace(s, client, work, `crash-${kill.replace(':', '-')}`);
      // A long debounce: the 106 writes are one burst, one commit, even on a loaded machine.
      const doomed = spawnWatch(t.dir, { ...env(), DOCSYNC_TEST_KILL: kill }, ['--debounce', '3000']);
      await doomed.waitFor((e) => e.type === 'started');
      await saveMany(t.dir);
      expect(await doomed.exited, doomed.stderr()).toBe('SIGKILL');
      expect(doomed.events().filter((e) => e.type === 'committed')).toHaveLength(1);

      const again = spawnWatch(t.dir, env());
      try {
        const pushed = await again.waitFor((e) => e.type === 'pushed');
        expect(pushed).toMatchObject({ branch: 'main', resumed: true, changeRequest: { opened: false } });
        // The change request opened by the killed run was not taken for one opened on the platform.
        expect(again.events().filter((e) => e.type === 'pulled' && e.created)).toEqual([]);
      } finally {
        await expectExitOk(again);
      }
      const state = await readState(t.dir);
      expect(Object.keys(state.branches)).toEqual(['main']);
      const crId = state.branches.main!.outbox!.changeRequestId!;
      const remote = snapshotOf(await fetchContent(client, { space: t.spaceId, changeRequest: crId }));
      const local = await loadFolder(t.dir);
      const text = (m: Map<string, Uint8Array | string>) =>
        new Map([...m].filter(([p]) => !p.startsWith('.git/')).map(([p, b]) => [p, Buffer.from(b as Uint8Array).toString()]));
      expect(text(local)).toEqual(text(remote.files));
      const res = await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${crId}/content`);
      const count = (pages: any[]): number => pages.reduce((n, p) => n + 1 + count(p.pages ?? []), 0);
      expect(count(res.body.pages)).toBe(108);
      expect(await readdir(join(t.dir, '.git', 'docsync', 'journal'))).toEqual([]);
      expect(git(t.dir, 'status', '--porcelain')).toBe('');
      const open = [];
      for await (const cr of client.changeRequests.list(t.spaceId)) open.push(cr);
      expect(open).toHaveLength(1);
    });
  }

  it('a daemon killed once every batch landed, started again after more saves, pushes them in the resumed push', async () => {
    const t = await clonedSpace(s, client, work, 'crash-then-save');
    const doomed = spawnWatch(t.dir, { ...env(), DOCSYNC_TEST_KILL: 'recorded:2' }, ['--debounce', '3000']);
    await doomed.waitFor((e) => e.type === 'started');
    await saveMany(t.dir);
    expect(await doomed.exited, doomed.stderr()).toBe('SIGKILL');
    const journal = JSON.parse(await readFile(join(t.dir, '.git', 'docsync', 'journal', 'main.json'), 'utf8'));
    expect(journal.landed).toBe(3);

    // Saved while no daemon ran: the next one commits them, then pushes, in one cycle.
    await writeFile(join(t.dir, 'page-7.md'), '# Page 7\n\nbody 7, saved while the daemon was down\n');
    await writeFile(join(t.dir, 'late.md'), '# Late\n\nsaved while the daemon was down\n');
    await writeFile(join(t.dir, 'SUMMARY.md'), `${(await readFile(join(t.dir, 'SUMMARY.md'), 'utf8')).trimEnd()}\n* [Late](late.md)\n`);
    const again = spawnWatch(t.dir, env());
    try {
      const pushed = await again.waitFor((e) => e.type === 'pushed');
      expect(pushed).toMatchObject({ branch: 'main', resumed: true, pages: { inserted: 1, updated: 1, deleted: 0 } });
      await eventually(async () => {
        const outbox = (await readState(t.dir)).branches.main!.outbox!;
        expect(git(t.dir, 'status', '--porcelain')).toBe('');
        expect(git(t.dir, 'diff', '--name-only', outbox.syncedCommit, 'HEAD')).toBe('');
      }, 60_000);
    } finally {
      await expectExitOk(again);
    }
    expect(await readFile(join(t.dir, 'page-7.md'), 'utf8')).toBe('# Page 7\n\nbody 7, saved while the daemon was down\n');
    const crId = (await readState(t.dir)).branches.main!.outbox!.changeRequestId!;
    const remote = snapshotOf(await fetchContent(client, { space: t.spaceId, changeRequest: crId }));
    const local = await loadFolder(t.dir);
    const text = (m: Map<string, Uint8Array | string>) =>
      new Map([...m].filter(([p]) => !p.startsWith('.git/')).map(([p, b]) => [p, Buffer.from(b as Uint8Array).toString()]));
    expect(text(local)).toEqual(text(remote.files));
    expect(await readdir(join(t.dir, '.git', 'docsync', 'journal'))).toEqual([]);
  });
});
