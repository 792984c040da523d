import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { syncLockPath, withWorkspaceLock, WorkspaceBusyError } from '../../src/daemon/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { spawnCli } from '../cli/spawn-cli.js';
import { clonedSpace, editMain } from '../sync/fixture.js';
import { eventually } from './watch-process.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
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
    const job = (name: string, ms: number) =>
      withWorkspaceLock(t.dir, async () => {
        log.push(`${name} in`);
        await sleep(ms);
        log.push(`${name} out`);
        return name;
      });
    const first = job('first', 300);
    await held(t.dir);
    expect(await Promise.all([first, job('second', 10)])).toEqual(['first', 'second']);
    expect(log).toEqual(['first in', 'first out', 'second in', 'second out']);
    expect(existsSync(syncLockPath(t.dir))).toBe(false);
  });

  it('gives up after waitMs with an error naming the holder', async () => {
    const t = await clonedSpace(s, client, work, 'busy');
    const holder = withWorkspaceLock(t.dir, () => sleep(1_000));
    await held(t.dir);
    const error = await withWorkspaceLock(t.dir, async () => 'never', { waitMs: 200 }).catch((e: unknown) => e);
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
    let released = 0;
    const holder = withWorkspaceLock(t.dir, async () => {
      await sleep(1_500);
      released = Date.now();
    });
    await held(t.dir);
    const pull = spawnCli(['pull', '--dir', t.dir], { DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token });
    expect(await pull.exited, pull.stderr()).toBe(0);
    const done = Date.now();
    await holder;
    expect(released).toBeGreaterThan(0);
    expect(done).toBeGreaterThanOrEqual(released);
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toContain('from the platform');
  });
});
