import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireDaemonLock, DaemonLockedError, isAlive, lockPath, readDaemonLock, type LockHolder } from '../../src/daemon/lock.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-lock-'));
  made.push(dir);
  return dir;
}

async function writeLock(dir: string, text: string): Promise<void> {
  await mkdir(join(dir, '.git', 'docsync'), { recursive: true });
  await writeFile(lockPath(dir), text);
}

const readLock = async (dir: string) => JSON.parse(await readFile(lockPath(dir), 'utf8')) as LockHolder;

/** The pid of a process that has exited (a short `node -e` child, waited for). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid!;
  await new Promise((done) => child.once('exit', done));
  return pid;
}

describe('acquireDaemonLock', () => {
  it('creates .git/docsync/daemon.lock naming this process, this host and the start time', async () => {
    const dir = await workspace();
    const lock = await acquireDaemonLock(dir, '2026-01-02T03:04:05.000Z');

    expect(lockPath(dir)).toBe(join(dir, '.git', 'docsync', 'daemon.lock'));
    const holder = { pid: process.pid, host: hostname(), startedAt: '2026-01-02T03:04:05.000Z' };
    expect(await readLock(dir)).toEqual(holder);
    expect(lock.holder).toEqual(holder);
    expect(await readDaemonLock(dir)).toEqual(holder);
  });

  it('stamps the current time when no start time is given', async () => {
    const dir = await workspace();
    const before = Date.now();
    const { holder } = await acquireDaemonLock(dir);
    expect(new Date(holder.startedAt).toISOString()).toBe(holder.startedAt);
    expect(Date.parse(holder.startedAt)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(holder.startedAt)).toBeLessThanOrEqual(Date.now());
  });

  it('refuses a second daemon while the first holds the lock, naming pid, host and folder, and leaves the lock as it was', async () => {
    const dir = await workspace();
    await acquireDaemonLock(dir, 'first');
    const before = await readFile(lockPath(dir), 'utf8');

    const error = await acquireDaemonLock(dir, 'second').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DaemonLockedError);
    const locked = error as DaemonLockedError;
    expect(locked.name).toBe('DaemonLockedError');
    expect(locked.holder).toEqual({ pid: process.pid, host: hostname(), startedAt: 'first' });
    expect(locked.dir).toBe(dir);
    expect(locked.message).toContain(`pid ${process.pid}`);
    expect(locked.message).toContain(hostname());
    expect(locked.message).toContain(dir);
    expect(await readFile(lockPath(dir), 'utf8')).toBe(before);
  });

  it('release removes the lock, so the next daemon gets it; releasing twice is harmless', async () => {
    const dir = await workspace();
    const lock = await acquireDaemonLock(dir, 'first');
    await lock.release();
    await expect(readFile(lockPath(dir))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readDaemonLock(dir)).toBeUndefined();
    await lock.release();

    const next = await acquireDaemonLock(dir, 'second');
    expect(next.holder.startedAt).toBe('second');
  });

  it('release leaves alone a lock that is no longer its own', async () => {
    const dir = await workspace();
    const lock = await acquireDaemonLock(dir, 'mine');
    const other = `${JSON.stringify({ pid: process.pid, host: hostname(), startedAt: 'someone else' })}\n`;
    await writeFile(lockPath(dir), other);

    await lock.release();
    expect(await readFile(lockPath(dir), 'utf8')).toBe(other);
  });

  it('takes over a lock left by a process that has exited', async () => {
    const dir = await workspace();
    const pid = await deadPid();
    await writeLock(dir, JSON.stringify({ pid, host: hostname(), startedAt: '2020-01-01T00:00:00.000Z' }));
    expect(await readDaemonLock(dir)).toBeUndefined();

    const lock = await acquireDaemonLock(dir, 'new');
    expect(await readLock(dir)).toEqual({ pid: process.pid, host: hostname(), startedAt: 'new' });
    expect(lock.holder.pid).toBe(process.pid);
    expect(await readdir(join(dir, '.git', 'docsync'))).toEqual(['daemon.lock']);
  });

  const garbage: [string, string][] = [
    ['an empty file', ''],
    ['a file cut short', '{"pid":12'],
    ['not JSON', 'docsync was here\n'],
    ['JSON null', 'null'],
    ['a JSON array', '[1,2,3]'],
    ['an object without fields', '{}'],
    ['a pid that is a string', JSON.stringify({ pid: '12', host: hostname(), startedAt: 'x' })],
    ['no host', JSON.stringify({ pid: 12, startedAt: 'x' })],
    ['pid 0 (the process group)', JSON.stringify({ pid: 0, host: hostname(), startedAt: 'x' })],
    ['pid -1 (every process)', JSON.stringify({ pid: -1, host: hostname(), startedAt: 'x' })],
    ['a fractional pid', JSON.stringify({ pid: 1.5, host: hostname(), startedAt: 'x' })],
  ];
  it.each(garbage)('takes over a lock file holding %s', async (_, text) => {
    const dir = await workspace();
    await writeLock(dir, text);
    expect(await readDaemonLock(dir)).toBeUndefined();

    await acquireDaemonLock(dir, 'new');
    expect(await readLock(dir)).toEqual({ pid: process.pid, host: hostname(), startedAt: 'new' });
  });

  it('counts a lock from another host as alive (its pid cannot be checked from here)', async () => {
    const dir = await workspace();
    const holder = { pid: await deadPid(), host: 'build-box.example', startedAt: '2026-01-01T00:00:00.000Z' };
    await writeLock(dir, JSON.stringify(holder));

    expect(await readDaemonLock(dir)).toEqual(holder);
    const error = await acquireDaemonLock(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DaemonLockedError);
    expect((error as DaemonLockedError).holder).toEqual(holder);
    expect((error as Error).message).toContain('build-box.example');
    expect(await readLock(dir)).toEqual(holder);
  });

  it('gets past a start-up left half-way by a process that died while taking the lock', async () => {
    const dir = await workspace();
    await writeLock(dir, JSON.stringify({ pid: await deadPid(), host: hostname(), startedAt: 'old' }));
    await writeFile(`${lockPath(dir)}.taking`, JSON.stringify({ pid: await deadPid(), host: hostname(), startedAt: 'x' }));

    await acquireDaemonLock(dir, 'new');
    expect(await readLock(dir)).toEqual({ pid: process.pid, host: hostname(), startedAt: 'new' });
    expect(await readdir(join(dir, '.git', 'docsync'))).toEqual(['daemon.lock']);
  });

  it('of two acquires started together in one process, one gets the lock', async () => {
    const dir = await workspace();
    const outcomes = await Promise.allSettled([acquireDaemonLock(dir, 'a'), acquireDaemonLock(dir, 'b')]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(DaemonLockedError);
    expect(await readdir(join(dir, '.git', 'docsync'))).toEqual(['daemon.lock']);
  });

  it('creates .git/docsync when it is missing', async () => {
    const dir = await workspace();
    await acquireDaemonLock(dir);
    expect(await readdir(join(dir, '.git', 'docsync'))).toEqual(['daemon.lock']);
  });
});

describe('isAlive', () => {
  it('is true for this process, a running process and any process of another host; false for an exited one', async () => {
    expect(isAlive({ pid: process.pid, host: hostname(), startedAt: 'x' })).toBe(true);
    const dead = await deadPid();
    expect(isAlive({ pid: dead, host: hostname(), startedAt: 'x' })).toBe(false);
    expect(isAlive({ pid: dead, host: `not-${hostname()}`, startedAt: 'x' })).toBe(true);

    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      expect(isAlive({ pid: child.pid!, host: hostname(), startedAt: 'x' })).toBe(true);
    } finally {
      child.kill();
      await new Promise((done) => child.once('exit', done));
    }
    expect(isAlive({ pid: child.pid!, host: hostname(), startedAt: 'x' })).toBe(false);
  });
});

describe('daemons starting at once', () => {
  const CHILD = fileURLToPath(new URL('./lock-child.ts', import.meta.url));
  type Outcome = { result: string; pid: number; holder?: LockHolder; message?: string };

  /** Six processes that have loaded the lock module and wait for a folder to race for. */
  async function racers(count = 6) {
    return Promise.all(
      Array.from({ length: count }, async () => {
        const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
        const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
        const next = async () => JSON.parse(((await lines.next()).value as string | undefined) ?? 'null');
        expect(await next()).toEqual({ ready: child.pid });
        const send = (line: string) => child.stdin!.write(`${line}\n`);
        const exited = new Promise((done) => child.once('close', done));
        return { child, next, send, exited };
      }),
    );
  }

  /** All try `dir` at the same moment; exactly one wins and the others name it; then it lets go. */
  async function expectOneWinner(all: Awaited<ReturnType<typeof racers>>, dir: string) {
    for (const racer of all) racer.send(`go ${dir}`);
    const outcomes = (await Promise.all(all.map((racer) => racer.next()))) as Outcome[];
    const report = JSON.stringify(outcomes);
    const winners = outcomes.filter((o) => o.result === 'won');
    expect(winners, report).toHaveLength(1);
    const winner = winners[0]!.pid;
    for (const o of outcomes)
      if (o.pid !== winner) expect(o, report).toMatchObject({ result: 'locked', holder: { pid: winner, host: hostname() } });
    expect((await readLock(dir)).pid).toBe(winner);
    expect(await readdir(join(dir, '.git', 'docsync')), 'no temporary file left behind').toEqual(['daemon.lock']);

    const racer = all.find((r) => r.child.pid === winner)!;
    racer.send('release');
    expect(await racer.next()).toEqual({ released: winner });
    expect(await readdir(join(dir, '.git', 'docsync'))).toEqual([]);
  }

  it('exactly one of six takes a free lock, a stale lock, a garbage lock, round after round', async () => {
    const all = await racers();
    try {
      for (let round = 0; round < 3; round += 1) {
        const free = await workspace();
        await expectOneWinner(all, free);

        const stale = await workspace();
        await writeLock(stale, JSON.stringify({ pid: await deadPid(), host: hostname(), startedAt: 'old' }));
        await expectOneWinner(all, stale);

        const garbage = await workspace();
        await writeLock(garbage, '{"pid":');
        await expectOneWinner(all, garbage);
      }
    } finally {
      for (const racer of all) racer.child.stdin!.end();
      await Promise.all(all.map((racer) => racer.exited));
    }
  });
});
