import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/server/store/db.js';
import { spawnCli, type CliProcess } from './run-cli.js';
import { parseRateLimit } from '../../src/cli/commands/serve.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

const LISTENING = /^docsync API listening on (http:\/\/127\.0\.0\.1:(\d+))$/;

const dirs: string[] = [];
const children: CliProcess[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-serve-'));
  dirs.push(dir);
  return dir;
}

/** Starts `docsync serve --port 0` and waits for its one line; returns the URL it announced. */
async function startServe(dir: string, env: Record<string, string> = {}): Promise<{ proc: CliProcess; url: string }> {
  const proc = spawnCli(['serve', '--port', '0', '--data', dir], env);
  children.push(proc);
  const line = await proc.firstLine;
  const match = LISTENING.exec(line);
  if (!match) throw new Error(`unexpected first line: ${line}`);
  expect(Number(match[2])).toBeGreaterThan(0);
  return { proc, url: match[1]! };
}

async function get(url: string, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, body: await res.json() };
}

afterEach(async () => {
  for (const proc of children.splice(0)) {
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    await proc.exited;
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('docsync serve as a process', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('prints one line, answers 401 without a token, and exits 0 on %s', async (signal) => {
    const { proc, url } = await startServe(dataDir());
    const res = await get(`${url}/v1/user`);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe(401);

    proc.child.kill(signal);
    expect(await proc.exited).toBe(0);
    // The announced address, then the log: one JSON line per request.
    const [first, ...log] = proc.stdout().trimEnd().split('\n');
    expect(first).toMatch(LISTENING);
    expect(log.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 30, msg: 'request', method: 'GET', route: '/v1/user', status: 401, caller: null }),
    ]);
    expect(proc.stderr()).toBe('');
  });

  it('--log-level silent prints the one line only; an unknown level exits 2 naming the option', async () => {
    const proc = spawnCli(['serve', '--port', '0', '--data', dataDir(), '--log-level', 'silent']);
    children.push(proc);
    const url = LISTENING.exec(await proc.firstLine)![1]!;
    expect((await get(`${url}/v1/user`)).status).toBe(401);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.stdout()).toMatch(/^docsync API listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    const bad = spawnCli(['serve', '--port', '0', '--data', dataDir(), '--log-level', 'loud']);
    children.push(bad);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(/--log-level must be one of trace, debug, info, warn, error, fatal, silent, got "loud"/);
  });

  it('limits each token to --rate-limit requests a minute (6,000 by default), with the headers; 0 turns it off; a bad value exits 2', async () => {
    const limited = spawnCli(['serve', '--port', '0', '--data', dataDir(), '--log-level', 'silent', '--rate-limit', '2']);
    children.push(limited);
    const url = LISTENING.exec(await limited.firstLine)![1]!;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await fetch(`${url}/v1/user`, { headers: { authorization: 'Bearer t' } })).status);
    expect(statuses).toEqual([401, 401, 429]);
    limited.child.kill('SIGTERM');
    expect(await limited.exited).toBe(0);

    const byDefault = spawnCli(['serve', '--port', '0', '--data', dataDir(), '--log-level', 'silent']);
    children.push(byDefault);
    const answer = await fetch(`${LISTENING.exec(await byDefault.firstLine)![1]!}/v1/user`);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('6000');
    byDefault.child.kill('SIGTERM');
    expect(await byDefault.exited).toBe(0);

    // 0 turns it off.
    expect(parseRateLimit('0')).toBeUndefined();
    expect(parseRateLimit('60')).toEqual({ max: 60, windowMs: 60_000 });

    const bad = spawnCli(['serve', '--port', '0', '--data', dataDir(), '--rate-limit', 'lots']);
    children.push(bad);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toBe('docsync: --rate-limit must be a whole number of requests per minute (0 for no limit), got "lots"\n');
  });

  it('--port abc exits 2 with a message naming the option', async () => {
    const proc = spawnCli(['serve', '--port', 'abc', '--data', dataDir()]);
    children.push(proc);
    expect(await proc.exited).toBe(2);
    expect(proc.stdout()).toBe('');
    expect(proc.stderr()).toBe('docsync: --port must be an integer from 0 to 65535, got "abc"\n');
  });

  it('DOCSYNC_BOOTSTRAP_TOKEN bootstraps an empty store once', async () => {
    const dir = dataDir();
    const first = await startServe(dir, { DOCSYNC_BOOTSTRAP_TOKEN: 'first-bootstrap-token' });
    const me = await get(`${first.url}/v1/user`, 'first-bootstrap-token');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ displayName: 'admin' });
    const orgs = await get(`${first.url}/v1/orgs`, 'first-bootstrap-token');
    expect(orgs.status).toBe(200);
    expect(orgs.body.items).toEqual([expect.objectContaining({ title: 'Default' })]);
    first.proc.child.kill('SIGTERM');
    expect(await first.proc.exited).toBe(0);

    const second = await startServe(dir, { DOCSYNC_BOOTSTRAP_TOKEN: 'second-bootstrap-token' });
    expect((await get(`${second.url}/v1/user`, 'second-bootstrap-token')).status).toBe(401);
    const again = await get(`${second.url}/v1/orgs`, 'first-bootstrap-token');
    expect(again.body.items.map((org: any) => org.title)).toEqual(['Default']);
    second.proc.child.kill('SIGTERM');
    expect(await second.proc.exited).toBe(0);

    const db = await openDatabase({ dataDir: dir });
    try {
      const count = async (table: 'users' | 'organizations' | 'members' | 'tokens') =>
        (await db.kysely.selectFrom(table).selectAll().execute()).length;
      expect({
        users: await count('users'),
        organizations: await count('organizations'),
        members: await count('members'),
        tokens: await count('tokens'),
      }).toEqual({ users: 1, organizations: 1, members: 1, tokens: 1 });
    } finally {
      await db.close();
    }
  });
});
