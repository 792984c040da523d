import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { syncLockPath, withWorkspaceLock, WorkspaceBusyError } from '../../src/daemon/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { spawnCli } from '../cli/spawn-cli.js';
import { clonedSpace, editMain } from '../sync/fixture.js';
import { eventually } from './watch-process.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/** A promise the test resolves: how long a holder keeps the lock is decided by events, not a delay. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
/** The first holder has the lock (its file is there): what the next one comes after. */
const held = (dir: string) => eventually(async () => expect(existsSync(syncLockPath(dir))).toBe(true));

describe('withWorkspaceLock', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-sync-lock-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('runs one holder at a time, in the order they came, and removes the lock after', async () => {
    const t = await clonedSpace(s, client, work, 'order');
    const log: string[] = [];
    const job = (name: string, until: Promise<void>) =>
      withWorkspaceLock(t.dir, async () => {
        log.push(`${name} in`);
        await until;
        log.push(`${name} out`);
        return name;
      });
    const firstHolds = gate();
    const first = job('first', firstHolds.opened);
    await held(t.dir);
    const second = job('second', Promise.resolve());
    firstHolds.open();
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect(log).toEqual(['first in', 'first out', 'second in', 'second out']);
    expect(existsSync(syncLockPath(t.dir))).toBe(false);
  });

  it('gives up after waitMs with an error naming the holder', async () => {
    const t = await clonedSpace(s, client, work, 'busy');
    const holds = gate();
    const holder = withWorkspaceLock(t.dir, () => holds.opened);
    await held(t.dir);
    const error = await withWorkspaceLock(t.dir, async () => 'never', { waitMs: 200 }).catch((e: unknown) => e);
    holds.open();
    expect(error).toBeInstanceOf(WorkspaceBusyError);
    expect((error as Error).message).toContain(`pid ${process.pid} on ${hostname()}`);
    await holder;
  });

  it('takes over a lock left by a dead process', async () => {
    const t = await clonedSpace(s, client, work, 'stale');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    await writeFile(syncLockPath(t.dir), JSON.stringify({ pid: Number(dead.stdout), host: hostname(), startedAt: 'then' }));
    expect(await withWorkspaceLock(t.dir, async () => 'ran', { waitMs: 1_000 })).toBe('ran');
  });

  it('creates nothing in a folder that is not a docsync workspace', async () => {
    const dir = await mkdtemp(join(work, 'plain-'));
    expect(await withWorkspaceLock(dir, async () => 'ran')).toBe('ran');
    expect(existsSync(join(dir, '.git'))).toBe(false);
    // Nor in a repository docsync does not know (or whose state was deleted under a daemon).
    spawnSync('git', ['init', '-q', dir]);
    expect(await withWorkspaceLock(dir, async () => 'ran')).toBe('ran');
    expect(existsSync(join(dir, '.git', 'docsync'))).toBe(false);
  });

  it('makes docsync pull in another process wait for the holder, then do its work', async () => {
    const t = await clonedSpace(s, client, work, 'cli');
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nfrom the platform\n' } }]);
    const holds = gate();
    const holder = withWorkspaceLock(t.dir, () => holds.opened);
    await held(t.dir);
    const pull = spawnCli(['pull', '--dir', t.dir], { DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token });
    // A taker waiting for the lock keeps its own draft of the lock beside it (src/daemon/lock.ts):
    // the pull is seen waiting, however long its start took, before the holder lets go.
    const lock = syncLockPath(t.dir);
    const waiting = `${basename(lock)}.${pull.child.pid}-`;
    await eventually(async () => {
      if (pull.child.exitCode !== null) return; // said below, with what it printed
      expect((await readdir(dirname(lock))).some((name) => name.startsWith(waiting))).toBe(true);
    });
    expect(pull.child.exitCode, pull.stderr()).toBeNull();
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).not.toContain('from the platform');
    holds.open();
    await holder;
    expect(await pull.exited, pull.stderr()).toBe(0);
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toContain('from the platform');
  });
});
