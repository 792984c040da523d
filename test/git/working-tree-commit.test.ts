import fs from 'node:fs';
import { chmod, cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { branchOid, commitFiles, commitWorkingTree, workingTreeChanges } from '../../src/git/index.js';
import { commitObject } from '../../src/git/format/commit-object.js';
import { FALLBACK, fastCommitWorkingTree } from '../../src/git/commit/fast-commit.js';
import { repo } from '../../src/git/repo.js';
import { author, files, gitCli, tempDir, tempRepo, withFastPaths } from './helpers.js';

// These tests are about the fast paths themselves: on even in the suite's DOCSYNC_GIT_FAST_PATHS=off run.
withFastPaths();

const put = async (dir: string, path: string, data: string) => {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), data);
};
const cli = (dir: string, ...args: string[]) => gitCli(dir, '-c', 'user.name=Cli Author', '-c', 'user.email=cli@example.com', ...args);

async function workspace(content: Record<string, string>) {
  const dir = await tempRepo();
  await commitFiles(dir, { branch: 'main', parent: null, files: files(content), message: 'clone', author, checkout: true });
  return dir;
}

/** The fast path alone, on the checked-out main. */
async function fast(dir: string, changes?: { path: string }[]) {
  const r = await repo(dir);
  return fastCommitWorkingTree(r, 'refs/heads/main', await branchOid(dir, 'main'), {
    message: 'save',
    author,
    timestamp: 1_700_000_000,
    changes,
  });
}

/** A copy of `dir` committed by the git CLI; then both commits' trees, indexes and statuses. */
async function expectSameAsGit(dir: string, commit: () => Promise<unknown>) {
  const copy = join(await tempDir(), 'copy');
  await cp(dir, copy, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  await commit();
  await cli(copy, 'add', '-A');
  await cli(copy, 'commit', '-q', '--allow-empty', '-m', 'save');
  for (const args of [
    ['ls-tree', '-r', 'HEAD'],
    ['ls-files', '-s'],
    ['status', '--porcelain'],
  ]) {
    expect(await cli(dir, ...args)).toBe(await cli(copy, ...args));
  }
  expect(await cli(dir, 'diff-files', '--name-only')).toBe('');
}

describe('commitWorkingTree, fast path', () => {
  it('writes the commit object isomorphic-git writes for the same fields', async () => {
    const dir = await tempRepo();
    const fields = { tree: '4b825dc642cb6eb9a060e54bf8d69288fbee4904', parents: ['1'.repeat(40)], message: '\n\nTitle\r\n\nbody é\n\n\n' };
    const who = { name: 'Ada Wrïter', email: 'ada@example.com', timestamp: 1_700_000_000 };
    const theirs = await git.writeCommit({
      fs,
      dir,
      commit: { ...fields, parent: fields.parents, author: { ...who, timezoneOffset: 0 }, committer: { ...who, timezoneOffset: 0 } },
    });
    expect(commitObject({ ...fields, author: who, committer: who }).oid).toBe(theirs);
  });

  it('commits executable bits (core.filemode true and false), symbolic links, a file turned into a folder and a folder into a file as git does', async () => {
    const dir = await workspace({ 'a.md': 'a\n', 'd/x.md': 'x\n', 'keep/k.md': 'k\n', 'run.sh': 'echo\n', 'tool.sh': 'echo\n' });
    await gitCli(dir, 'config', 'core.filemode', 'true'); // isomorphic-git's init sets it false
    await chmod(join(dir, 'tool.sh'), 0o755);
    await put(dir, 'tool.sh', 'echo tool\n');
    await chmod(join(dir, 'run.sh'), 0o755);
    await put(dir, 'run.sh', 'echo hi\n');
    await symlink('keep/k.md', join(dir, 'link.md'));
    await rm(join(dir, 'a.md'));
    await put(dir, 'a.md/inner.md', 'inner\n');
    await rm(join(dir, 'd'), { recursive: true });
    await put(dir, 'd', 'now a file\n');
    await expectSameAsGit(dir, async () => expect(await fast(dir)).toMatch(/^[0-9a-f]{40}$/));
    expect(await cli(dir, 'ls-tree', 'HEAD', 'tool.sh')).toMatch(/^100755 /);
    // With core.filemode false, a tracked file keeps the mode its entry has.
    await gitCli(dir, 'config', 'core.filemode', 'false');
    await chmod(join(dir, 'tool.sh'), 0o644);
    await put(dir, 'tool.sh', 'echo tool 2\n');
    await expectSameAsGit(dir, async () => expect(await fast(dir)).toMatch(/^[0-9a-f]{40}$/));
    expect(await cli(dir, 'ls-tree', 'HEAD', 'tool.sh')).toMatch(/^100755 /);
  });

  it('takes an index git wrote in version 4 (written back in version 2)', async () => {
    const dir = await workspace({ 'a.md': 'a\n', 'b/c.md': 'c\n', 'b/d.md': 'd\n' });
    await gitCli(dir, 'update-index', '--index-version', '4');
    await put(dir, 'b/c.md', 'c2\n');
    await put(dir, 'new.md', 'n\n');
    await expectSameAsGit(dir, async () => expect(await fast(dir)).not.toBe(FALLBACK));
  });

  it('takes an index git wrote in version 3 with an intent-to-add entry, and one with a cache tree', async () => {
    const dir = await workspace({ 'a.md': 'a\n', 'b/c.md': 'c\n' });
    await gitCli(dir, 'reset', '-q'); // a cache tree
    await put(dir, 'new.md', 'new\n');
    await gitCli(dir, 'add', '-N', 'new.md');
    await put(dir, 'b/c.md', 'c2\n');
    await expectSameAsGit(dir, async () => expect(await fast(dir)).not.toBe(FALLBACK));
  });

  it('given the changes, walks nothing: a change left out is not committed, a staged one still is', async () => {
    const dir = await workspace({ 'a.md': 'a\n', 'b.md': 'b\n', 'c.md': 'c\n' });
    await put(dir, 'a.md', 'a2\n');
    await put(dir, 'b.md', 'b2\n');
    // Staged, then put back in the working tree: git add -A stages HEAD's content again.
    await put(dir, 'c.md', 'staged\n');
    await gitCli(dir, 'add', 'c.md');
    await put(dir, 'c.md', 'c\n');
    const oid = await commitWorkingTree(dir, { message: 'save', author, changes: [{ path: 'a.md', status: 'modified' }] });
    expect(await cli(dir, 'show', '--name-only', '--format=', oid!)).toBe('a.md\n');
    expect(await cli(dir, 'status', '--porcelain')).toBe(' M b.md\n');
    expect(await workingTreeChanges(dir)).toEqual([{ path: 'b.md', status: 'modified' }]);
    expect(await commitWorkingTree(dir, { message: 'again', author, changes: [] })).toBeNull();
    expect(await branchOid(dir, 'main')).toBe(oid);
  });

  it('throws ref-moved when the branch moved meanwhile, and leaves the index as it was', async () => {
    const dir = await workspace({ 'a.md': 'a\n' });
    const start = await branchOid(dir, 'main');
    await put(dir, 'a.md', 'a2\n');
    const r = await repo(dir);
    const moved = await commitFiles(dir, { branch: 'main', files: files({ 'a.md': 'elsewhere\n' }), message: 'other', author });
    const index = await readFile(join(dir, '.git/index'));
    await expect(fastCommitWorkingTree(r, 'refs/heads/main', start, { message: 'save', author, timestamp: 1 })).rejects.toMatchObject({
      code: 'ref-moved',
    });
    expect(await branchOid(dir, 'main')).toBe(moved);
    expect((await readFile(join(dir, '.git/index'))).equals(index)).toBe(true);
    expect(fs.existsSync(join(dir, '.git/index.lock'))).toBe(false);
  });
});

describe('commitWorkingTree, where the fast path steps aside', () => {
  it('an unborn branch, also given the changes', async () => {
    const dir = await tempRepo();
    await put(dir, 'README.md', '# New\n');
    expect(await fast(dir, [{ path: 'README.md' }])).toBe(FALLBACK);
    const oid = await commitWorkingTree(dir, { message: 'first', author, changes: await workingTreeChanges(dir) });
    expect(await cli(dir, 'ls-tree', '-r', '--name-only', oid!)).toBe('README.md\n');
    expect(await cli(dir, 'status', '--porcelain')).toBe('');
  });

  it('core.autocrlf: committed the general way', async () => {
    const dir = await workspace({ 'a.md': 'a\n', 'b/c.md': 'c\n' });
    await gitCli(dir, 'config', 'core.autocrlf', 'true');
    await put(dir, 'b/c.md', 'c2\n');
    await put(dir, 'new.md', 'n\n');
    expect(await fast(dir)).toBe(FALLBACK);
    const oid = await commitWorkingTree(dir, { message: 'save', author });
    expect(await cli(dir, 'ls-tree', '-r', '--name-only', oid!)).toBe('a.md\nb/c.md\nnew.md\n');
    expect(await cli(dir, 'show', `${oid}:b/c.md`)).toBe('c2\n');
  });
  it('an unresolved merge in the index: staged and committed as before, markers and all', async () => {
    const dir = await workspace({ 'a.md': 'a\n' });
    await cli(dir, 'checkout', '-q', '-b', 'other');
    await put(dir, 'a.md', 'other\n');
    await cli(dir, 'commit', '-qam', 'other');
    await cli(dir, 'checkout', '-q', 'main');
    await put(dir, 'a.md', 'main\n');
    await cli(dir, 'commit', '-qam', 'main');
    await expect(cli(dir, 'merge', 'other')).rejects.toThrow();
    const head = await branchOid(dir, 'main');
    expect(await fast(dir)).toBe(FALLBACK);
    expect(await fast(dir, [{ path: 'a.md' }])).toBe(FALLBACK);
    const oid = await commitWorkingTree(dir, { message: 'save', author });
    expect(await cli(dir, 'rev-parse', `${oid}^`)).toBe(`${head}\n`);
    expect(await cli(dir, 'show', `${oid}:a.md`)).toContain('<<<<<<<');
    expect(await cli(dir, 'ls-files', '--unmerged')).toBe('');
  });
});

describe('commitWorkingTree and a process killed in it', () => {
  it('refuses an index.lock that exists, as git does, both ways, and commits once it is removed', async () => {
    for (const fastPaths of ['on', 'off']) {
      const dir = await workspace({ 'a.md': 'a\n', 'b/c.md': 'c\n' });
      const head = await branchOid(dir, 'main');
      // What a kill inside an index write leaves (isomorphic-git's own add used to write around it).
      await writeFile(join(dir, '.git/index.lock'), '');
      await put(dir, 'b/c.md', 'c2\n');
      await put(dir, 'new.md', 'n\n');
      const index = await readFile(join(dir, '.git/index'));
      const before = process.env.DOCSYNC_GIT_FAST_PATHS;
      process.env.DOCSYNC_GIT_FAST_PATHS = fastPaths;
      try {
        await expect(commitWorkingTree(dir, { message: 'save', author })).rejects.toMatchObject({
          code: 'ref-locked',
          message: expect.stringContaining(
            `${join(dir, '.git', 'index.lock')} exists (another git process is running, or remove it if one crashed)`,
          ),
        });
        expect(await branchOid(dir, 'main')).toBe(head);
        expect((await readFile(join(dir, '.git/index'))).equals(index)).toBe(true);
        await rm(join(dir, '.git/index.lock'));
        const oid = await commitWorkingTree(dir, { message: 'save', author });
        expect(await cli(dir, 'ls-tree', '-r', '--name-only', oid!)).toBe('a.md\nb/c.md\nnew.md\n');
        expect(await cli(dir, 'status', '--porcelain')).toBe('');
      } finally {
        if (before === undefined) delete process.env.DOCSYNC_GIT_FAST_PATHS;
        else process.env.DOCSYNC_GIT_FAST_PATHS = before;
      }
    }
  });

  it('writes the index before it moves the branch: stopped in between, the change is staged and the next commit makes it', async () => {
    const dir = await workspace({ 'a.md': 'a\n', 'b/c.md': 'c\n' });
    const head = await branchOid(dir, 'main');
    await put(dir, 'b/c.md', 'c2\n');
    await put(dir, 'new.md', 'n\n');
    // The branch's own lock, as a process killed inside the branch update leaves it: the index was written already.
    await writeFile(join(dir, '.git/refs/heads/main.lock'), '');
    await expect(commitWorkingTree(dir, { message: 'save', author })).rejects.toMatchObject({ code: 'ref-locked' });
    expect(await branchOid(dir, 'main')).toBe(head);
    // Staged, not committed (the other order left HEAD ahead of the index: `MM`, `D ` and `??`, which no later commit repaired).
    expect(await cli(dir, 'status', '--porcelain')).toBe('M  b/c.md\nA  new.md\n');
    expect(await workingTreeChanges(dir)).toEqual([
      { path: 'b/c.md', status: 'modified' },
      { path: 'new.md', status: 'added' },
    ]);
    await rm(join(dir, '.git/refs/heads/main.lock'));
    const oid = await commitWorkingTree(dir, { message: 'save', author, changes: await workingTreeChanges(dir) });
    expect(await cli(dir, 'ls-tree', '-r', '--name-only', oid!)).toBe('a.md\nb/c.md\nnew.md\n');
    expect(await cli(dir, 'status', '--porcelain')).toBe('');
  });

  it('waits for a lock another git process holds for a moment (git status refreshing the index, a branch update), both ways', async () => {
    for (const fastPaths of ['on', 'off']) {
      for (const lock of ['.git/index.lock', '.git/refs/heads/main.lock']) {
        const dir = await workspace({ 'a.md': 'a\n' });
        await put(dir, 'a.md', 'a2\n');
        await writeFile(join(dir, lock), '');
        const released = new Promise((resolve) => setTimeout(resolve, 200)).then(() => rm(join(dir, lock)));
        const before = process.env.DOCSYNC_GIT_FAST_PATHS;
        process.env.DOCSYNC_GIT_FAST_PATHS = fastPaths;
        try {
          const oid = await commitWorkingTree(dir, { message: 'save', author });
          await released;
          expect(await cli(dir, 'show', `${oid}:a.md`)).toBe('a2\n');
          expect(await cli(dir, 'status', '--porcelain')).toBe('');
        } finally {
          if (before === undefined) delete process.env.DOCSYNC_GIT_FAST_PATHS;
          else process.env.DOCSYNC_GIT_FAST_PATHS = before;
        }
      }
    }
  });
});
