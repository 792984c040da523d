import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configuredAuthor, gitOperationInProgress } from '../../src/git/operation.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

// No global or system config: what the repository's own config says is all there is.
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_EDITOR: 'true' };
const identity = ['-c', 'user.name=Writer', '-c', 'user.email=writer@example.test'];
const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' });
/** A git command that may stop half-way (exit 1 on a conflict). */
const gitMayStop = (dir: string, ...args: string[]) => spawnSync('git', [...identity, ...args], { cwd: dir, env, encoding: 'utf8' }).status;

async function repository(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-operation-'));
  made.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  return dir;
}

async function commit(dir: string, text: string, message: string): Promise<void> {
  await writeFile(join(dir, 'page.md'), text);
  git(dir, 'add', 'page.md');
  git(dir, ...identity, 'commit', '-q', '-m', message);
}

/** main and topic both changed the one line of page.md since their common commit. */
async function diverged(): Promise<string> {
  const dir = await repository();
  await commit(dir, 'base\n', 'base');
  git(dir, 'checkout', '-q', '-b', 'topic');
  await commit(dir, 'topic\n', 'topic edit');
  git(dir, 'checkout', '-q', 'main');
  await commit(dir, 'main\n', 'main edit');
  return dir;
}

describe('gitOperationInProgress', () => {
  it('is undefined in a clean repository, with or without commits', async () => {
    const dir = await repository();
    expect(await gitOperationInProgress(dir)).toBeUndefined();
    await commit(dir, 'one\n', 'one');
    await writeFile(join(dir, 'page.md'), 'edited, not committed\n');
    expect(await gitOperationInProgress(dir)).toBeUndefined();
  });

  it('names a merge stopped on a conflict, and is undefined again once it is aborted or concluded', async () => {
    const dir = await diverged();
    expect(gitMayStop(dir, 'merge', 'topic')).toBe(1);
    expect(await gitOperationInProgress(dir)).toBe('a merge is in progress');
    git(dir, 'merge', '--abort');
    expect(await gitOperationInProgress(dir)).toBeUndefined();

    expect(gitMayStop(dir, 'merge', 'topic')).toBe(1);
    await writeFile(join(dir, 'page.md'), 'both\n');
    git(dir, 'add', 'page.md');
    git(dir, ...identity, 'commit', '-q', '--no-edit');
    expect(await gitOperationInProgress(dir)).toBeUndefined();
  });

  it('names a rebase stopped on a conflict (the merge backend and the apply backend)', async () => {
    const dir = await diverged();
    git(dir, 'checkout', '-q', 'topic');
    expect(gitMayStop(dir, 'rebase', 'main')).toBe(1);
    expect(await gitOperationInProgress(dir)).toBe('a rebase is in progress');
    git(dir, 'rebase', '--abort');
    expect(await gitOperationInProgress(dir)).toBeUndefined();

    expect(gitMayStop(dir, 'rebase', '--apply', 'main')).toBe(1);
    expect(await gitOperationInProgress(dir)).toBe('a rebase or git am is in progress');
    git(dir, 'rebase', '--abort');
    expect(await gitOperationInProgress(dir)).toBeUndefined();
  });

  it('names a cherry-pick and a revert stopped on a conflict, and a bisect', async () => {
    const dir = await diverged();
    expect(gitMayStop(dir, 'cherry-pick', 'topic')).toBe(1);
    expect(await gitOperationInProgress(dir)).toBe('a cherry-pick is in progress');
    git(dir, 'cherry-pick', '--abort');

    await commit(dir, 'main again\n', 'main second edit');
    expect(gitMayStop(dir, 'revert', '--no-edit', 'HEAD~1')).toBe(1);
    expect(await gitOperationInProgress(dir)).toBe('a revert is in progress');
    git(dir, 'revert', '--abort');
    expect(await gitOperationInProgress(dir)).toBeUndefined();

    git(dir, 'bisect', 'start');
    expect(await gitOperationInProgress(dir)).toBe('a bisect is in progress');
    git(dir, 'bisect', 'reset');
    expect(await gitOperationInProgress(dir)).toBeUndefined();
  });

  it('refuses a folder that is not a repository with not-a-repo', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docsync-operation-'));
    made.push(dir);
    await expect(gitOperationInProgress(dir)).rejects.toMatchObject({ code: 'not-a-repo' });
  });
});

describe('configuredAuthor', () => {
  it('is undefined when the repository config has no user.name and user.email', async () => {
    const dir = await repository();
    await commit(dir, 'one\n', 'one');
    expect(await configuredAuthor(dir)).toBeUndefined();
  });

  it("is the repository's user.name and user.email", async () => {
    const dir = await repository();
    git(dir, 'config', 'user.name', 'Ada "the writer" Lovelace');
    git(dir, 'config', 'user.email', 'ada@example.test');
    expect(await configuredAuthor(dir)).toEqual({ name: 'Ada "the writer" Lovelace', email: 'ada@example.test' });
  });

  it('is undefined when only one of the two is set, or one is empty', async () => {
    const dir = await repository();
    git(dir, 'config', 'user.name', 'Ada');
    expect(await configuredAuthor(dir)).toBeUndefined();
    git(dir, 'config', 'user.email', '');
    expect(await configuredAuthor(dir)).toBeUndefined();
    git(dir, 'config', '--unset', 'user.name');
    git(dir, 'config', 'user.email', 'ada@example.test');
    expect(await configuredAuthor(dir)).toBeUndefined();
  });
});
