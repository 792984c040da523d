import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { initRepo } from '../../src/git/index.js';

const run = promisify(execFile);

export const author = { name: 'Ada Writer', email: 'ada@example.com' };

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Cli Author',
  GIT_AUTHOR_EMAIL: 'cli@example.com',
  GIT_COMMITTER_NAME: 'Cli Author',
  GIT_COMMITTER_EMAIL: 'cli@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Runs the real git CLI in `dir` (tests only: the cross-check against git itself). */
export async function gitCli(dir: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'core.quotepath=off', ...args], { cwd: dir, env, maxBuffer: 64 << 20 });
  return stdout;
}

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** An empty folder removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-git-'));
  made.push(dir);
  return dir;
}

/** A new repository (isomorphic-git's init, HEAD on main) removed after the test. */
export async function tempRepo(): Promise<string> {
  return initRepo(await tempDir(), { defaultBranch: 'main' });
}

export const files = (entries: Record<string, string | Uint8Array>) => new Map(Object.entries(entries));

export const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

/** A Map of path → utf8 text, for readable comparisons. */
export const asText = (map: Map<string, Uint8Array>) => Object.fromEntries([...map].map(([k, v]) => [k, text(v)]));

/**
 * For a test file about docsync's own git fast paths: turns them on for the file even when the
 * suite runs with `DOCSYNC_GIT_FAST_PATHS=off` (the run that checks everything else through
 * isomorphic-git), so these tests keep testing the fast paths.
 */
export function withFastPaths(): void {
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.DOCSYNC_GIT_FAST_PATHS;
    process.env.DOCSYNC_GIT_FAST_PATHS = 'on';
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.DOCSYNC_GIT_FAST_PATHS;
    else process.env.DOCSYNC_GIT_FAST_PATHS = saved;
  });
}
