import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { startDaemon, type DaemonEvent } from '../../src/daemon/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { clonedSpace, git } from '../sync/fixture.js';
import { cycleAfterTouch } from './watch-process.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

// Issue 13, item 11: the daemon says a thing once. A file with conflict markers is not pushed
// (and "pushed ... left out" said) again at every poll; a rebase stopped at a conflict is named
// as such; a branch made from main before any edit on it opens no change request.
describe('the daemon, quiet when nothing changes', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-daemon-quiet-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const until = async (events: DaemonEvent[], found: (e: DaemonEvent) => boolean, what: string, ms = EVENT_WAIT_MS) => {
    const end = Date.now() + ms;
    while (!events.some(found)) {
      if (Date.now() > end) throw new Error(`no ${what}; got ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('pushes a file with pending markers once, not at every poll', async () => {
    const t = await clonedSpace(s, client, work, 'markers');
    const events: DaemonEvent[] = [];
    const daemon = await startDaemon({ client, dir: t.dir, debounceMs: 200, pollMs: 100, comments: false, onEvent: (e) => events.push(e) });
    try {
      await until(events, (e) => e.type === 'started', 'start');
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\n<<<<<<< local\nmine\n=======\ntheirs\n>>>>>>> remote\n');
      await until(events, (e) => e.type === 'pushed', 'push');
      // More looks at the branch (each touch starts a cycle that would push it again).
      for (let n = 0; n < 3; n += 1) await cycleAfterTouch(t.dir, 'README.md');
      const pushed = events.filter((e) => e.type === 'pushed');
      expect(pushed).toHaveLength(1);
      expect(pushed[0]).toMatchObject({ skipped: [{ path: 'beta.md' }] });
      // Resolving it is pushed.
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nmine and theirs\n');
      await until(events, (e) => e.type === 'pushed' && e.pages.updated === 1, 'the resolved push');
    } finally {
      await daemon.stop();
    }
  });

  it('names a rebase stopped at a conflict, and opens no change request for a branch made before any edit', async () => {
    const t = await clonedSpace(s, client, work, 'rebase');
    const events: DaemonEvent[] = [];
    const daemon = await startDaemon({ client, dir: t.dir, debounceMs: 200, pollMs: 100, comments: false, onEvent: (e) => events.push(e) });
    try {
      await until(events, (e) => e.type === 'started', 'start');
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\non main\n');
      await until(events, (e) => e.type === 'pushed', 'the push of main');
      git(t.dir, 'checkout', '-qb', 'fresh');
      await until(events, (e) => e.type === 'branch' && e.to === 'fresh', 'the branch change');
      for (let n = 0; n < 2; n += 1) await cycleAfterTouch(t.dir, 'README.md');
      expect(events.filter((e) => e.type === 'pushed' && e.branch === 'fresh')).toEqual([]);
      const open = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests?status=open`)).body.items;
      expect(open).toHaveLength(1);

      await daemon.stop();
      // A rebase that stops at a conflict: HEAD is detached, and the daemon says why.
      git(t.dir, 'checkout', '-q', 'main');
      git(t.dir, 'checkout', '-qb', 'other', 'HEAD~1');
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\non other\n');
      git(t.dir, 'commit', '-qam', 'other');
      expect(() => git(t.dir, 'rebase', '-q', 'main')).toThrow();
      const again: DaemonEvent[] = [];
      const second = await startDaemon({
        client,
        dir: t.dir,
        debounceMs: 200,
        pollMs: 100,
        comments: false,
        onEvent: (e) => again.push(e),
      });
      try {
        await until(again, (e) => e.type === 'paused', 'a pause');
        expect(again.find((e) => e.type === 'paused')).toEqual({ type: 'paused', reason: 'a rebase is in progress' });
      } finally {
        await second.stop();
      }
    } finally {
      await daemon.stop();
    }
  });
});
