import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
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

  async function expectChangeRequestIsBranch(dir: string, spaceId: string) {
    const { changeRequestId } = (await readState(dir)).branches.bulk!;
    const remote = snapshotOf(await fetchContent(client, { space: spaceId, changeRequest: changeRequestId! }));
    const local = await loadFolder(dir);
    const text = (m: Map<string, Uint8Array | string>) =>
      new Map([...m].filter(([p]) => !p.startsWith('.git/')).map(([p, b]) => [p, Buffer.from(b as Uint8Array).toString()]));
    expect(text(local)).toEqual(text(remote.files));
    // 2 + 60 + 1 + 45 pages, each once.
    const res = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`);
    const count = (pages: any[]): number => pages.reduce((n, p) => n + 1 + count(p.pages ?? []), 0);
    expect(count(res.body.pages)).toBe(108);
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
});
