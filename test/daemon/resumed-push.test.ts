import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { startDaemon, type DaemonEvent } from '../../src/daemon/index.js';
import { writeJournal } from '../../src/sync/push/journal.js';
import { readState } from '../../src/sync/state/state.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';
import { clonedSpace, git } from '../sync/fixture.js';
import { eventually } from './watch-process.js';

vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

// Found by the kill test's daemon part beside a second copy of the suite (kill-commands, watch,
// kill 8): the daemon was killed after every batch of its push had landed but before the push
// recorded it; the next daemon committed the rest of the writer's saves, and its push resumed the
// journal, sent nothing (all had landed) and marked the branch idle at its new head. The commits
// made since were never pushed (`unpushed: ["main"]`, 119 idle cycles).
describe('the daemon after a resumed push', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-resumed-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const page = async (dir: string, name: string, title: string) => {
    await writeFile(join(dir, `${name}.md`), `# ${title}\n\ntext of ${name}\n`);
    const summary = git(dir, 'show', 'HEAD:SUMMARY.md');
    await writeFile(join(dir, 'SUMMARY.md'), `${summary.trimEnd()}\n* [${title}](${name}.md)\n`);
  };

  /** Everything saved is committed and pushed: main's outbox is synced at HEAD's content (its commit may be a read-back's). */
  const caughtUp = (dir: string) =>
    eventually(async () => {
      expect(git(dir, 'status', '--porcelain')).toBe('');
      const synced = (await readState(dir)).branches.main!.outbox?.syncedCommit;
      expect(synced).toBeDefined();
      expect(git(dir, 'diff', '--name-only', synced!, 'HEAD')).toBe('');
    }, EVENT_WAIT_MS);

  it('pushes the commits made after the batches a killed push left had all landed', async () => {
    const t = await clonedSpace(s, client, work, 'resumed');
    const events: DaemonEvent[] = [];
    const options = { dir: t.dir, client, debounceMs: 50, pollMs: 200, onEvent: (e: DaemonEvent) => void events.push(e) };
    // main's outbox change request, opened by a first save.
    let daemon = await startDaemon(options);
    await page(t.dir, 'first', 'First');
    await caughtUp(t.dir);
    await daemon.stop();
    const outbox = (await readState(t.dir)).branches.main!.outbox!;

    // What a kill after the last batch landed leaves: the journal of a push with nothing left to
    // send, its revision the change request's head. Then the writer saves another page.
    await writeJournal(t.dir, {
      version: 1,
      branch: 'main',
      changeRequestId: outbox.changeRequestId!,
      startRevision: outbox.remoteRevision,
      batches: [],
      landed: 0,
      revision: outbox.remoteRevision,
      created: {},
    });
    await page(t.dir, 'second', 'Second');
    events.length = 0;
    daemon = await startDaemon(options);
    try {
      await caughtUp(t.dir);
    } finally {
      await daemon.stop();
    }
    const pushed = events.filter((e): e is Extract<DaemonEvent, { type: 'pushed' }> => e.type === 'pushed');
    expect(pushed.map((e) => e.resumed)).toEqual([true, false]);
    const content = await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${outbox.changeRequestId}/content/pages`);
    expect(content.body.pages.map((p: { title: string }) => p.title)).toEqual(['Alpha', 'Beta', 'First', 'Second']);
  });
});
