import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  branchOid,
  checkoutBranch,
  commitFiles,
  commitWorkingTree,
  createBranch,
  currentBranch,
  readTreeFiles,
  workingTreeChanges,
  writeWorkingFiles,
} from '../../src/git/index.js';
import { cliStatus } from './cli-status.js';
import { asText, author, files, gitCli, tempDir, tempRepo } from './helpers.js';

const put = (dir: string, path: string, data: string) =>
  mkdir(join(dir, path, '..'), { recursive: true }).then(() => writeFile(join(dir, path), data));

/** A repository whose main has one commit (made by commitFiles) checked out in the working tree. */
async function workspace(content: Record<string, string>) {
  const dir = await tempRepo();
  await commitFiles(dir, { branch: 'main', parent: null, files: files(content), message: 'clone', author });
  await checkoutBranch(dir, 'main', { force: true });
  return dir;
}

describe('workingTreeChanges', () => {
  it('lists what git status --porcelain lists: edits, additions, deletions, staged or not; ignores .gitignore and .git', async () => {
    const dir = await workspace({
      'README.md': '# Home\n',
      'guides/a.md': 'a\n',
      'guides/b.md': 'b\n',
      'é/ü.md': 'u\n',
      '.gitignore': 'build/\n*.log\n',
    });
    expect(await workingTreeChanges(dir)).toEqual([]);
    expect(await cliStatus(dir)).toEqual([]);

    await put(dir, 'README.md', '# Home, edited\n');
    await rm(join(dir, 'guides/b.md'));
    await put(dir, 'guides/new/page.md', 'new\n');
    await put(dir, 'é/ü.md', 'u, edited\n');
    await put(dir, 'staged.md', 'staged\n');
    await gitCli(dir, 'add', 'staged.md', 'é/ü.md');
    await put(dir, 'build/out.html', 'ignored\n');
    await put(dir, 'debug.log', 'ignored\n');
    await put(dir, '.git/docsync/state.json', '{}');

    const ours = await workingTreeChanges(dir);
    expect(ours).toEqual([
      { path: 'README.md', status: 'modified' },
      { path: 'guides/b.md', status: 'deleted' },
      { path: 'guides/new/page.md', status: 'added' },
      { path: 'staged.md', status: 'added' },
      { path: 'é/ü.md', status: 'modified' },
    ]);
    expect(ours).toEqual(await cliStatus(dir));
  });

  it('sees an edit that keeps the file size and time stamp class, by content', async () => {
    const dir = await workspace({ 'a.md': 'aaaa\n' });
    await put(dir, 'a.md', 'bbbb\n');
    expect(await workingTreeChanges(dir)).toEqual([{ path: 'a.md', status: 'modified' }]);
    await put(dir, 'a.md', 'aaaa\n');
    expect(await workingTreeChanges(dir)).toEqual([]);
  });
});

describe('commitWorkingTree', () => {
  it('commits additions, edits and deletions on the current branch, like git add -A && git commit', async () => {
    const dir = await workspace({ 'a.md': 'a\n', 'b/c.md': 'c\n', '.gitignore': '*.log\n' });
    const before = await branchOid(dir, 'main');
    await put(dir, 'a.md', 'a2\n');
    await rm(join(dir, 'b/c.md'));
    await put(dir, 'd/e.md', 'e\n');
    await put(dir, 'x.log', 'ignored\n');
    const oid = await commitWorkingTree(dir, { message: 'Save', author, timestamp: 1_700_000_000 });
    expect(oid).not.toBeNull();
    expect(await branchOid(dir, 'main')).toBe(oid);
    expect((await gitCli(dir, 'rev-parse', 'HEAD~1')).trim()).toBe(before);
    expect(asText(await readTreeFiles(dir, oid!))).toEqual({ '.gitignore': '*.log\n', 'a.md': 'a2\n', 'd/e.md': 'e\n' });
    expect(await workingTreeChanges(dir)).toEqual([]);
    expect(await cliStatus(dir)).toEqual([]);
    await gitCli(dir, 'fsck', '--strict');
    // Nothing changed: no empty commit.
    expect(await commitWorkingTree(dir, { message: 'again', author })).toBeNull();
    expect(await branchOid(dir, 'main')).toBe(oid);
  });

  it('makes the first commit of a new repository, and refuses a detached HEAD', async () => {
    const dir = await tempRepo();
    await put(dir, 'README.md', '# New\n');
    const first = await commitWorkingTree(dir, { message: 'first', author });
    expect((await gitCli(dir, 'log', '--format=%H|%P', 'main')).trim()).toBe(`${first}|`);
    await gitCli(dir, 'checkout', '-q', '--detach');
    await expect(commitWorkingTree(dir, { message: 'x', author })).rejects.toMatchObject({ code: 'detached-head' });
  });
});

describe('checkoutBranch', () => {
  it('switches branches, carrying local changes the switch does not touch', async () => {
    const dir = await workspace({ 'a.md': 'a\n', 'b.md': 'b\n' });
    const main = (await branchOid(dir, 'main'))!;
    await createBranch(dir, 'cr/2-edit-b', main);
    await commitFiles(dir, {
      branch: 'cr/2-edit-b',
      parent: main,
      files: files({ 'a.md': 'a\n', 'b.md': 'b on cr\n', 'c.md': 'c\n' }),
      message: 'cr',
      author,
    });
    await put(dir, 'a.md', 'local edit\n');
    await checkoutBranch(dir, 'cr/2-edit-b');
    expect(await currentBranch(dir)).toBe('cr/2-edit-b');
    expect(await readFile(join(dir, 'b.md'), 'utf8')).toBe('b on cr\n');
    expect(await readFile(join(dir, 'c.md'), 'utf8')).toBe('c\n');
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('local edit\n');
    expect(await cliStatus(dir)).toEqual([{ path: 'a.md', status: 'modified' }]);

    await checkoutBranch(dir, 'main');
    expect(existsSync(join(dir, 'c.md'))).toBe(false);
    expect(await readFile(join(dir, 'b.md'), 'utf8')).toBe('b\n');
  });

  it('refuses to overwrite uncommitted changes, names the files, and changes nothing', async () => {
    const dir = await workspace({ 'a.md': 'a\n', 'b.md': 'b\n', 'keep.md': 'k\n' });
    const main = (await branchOid(dir, 'main'))!;
    await createBranch(dir, 'other', main);
    await commitFiles(dir, {
      branch: 'other',
      parent: main,
      files: files({ 'a.md': 'a other\n', 'keep.md': 'k\n', 'new.md': 'theirs\n' }),
      message: 'other',
      author,
    });
    await put(dir, 'a.md', 'mine\n'); // changed here and there
    await put(dir, 'b.md', 'mine too\n'); // changed here, deleted there
    await put(dir, 'new.md', 'untracked mine\n'); // untracked here, different there
    const error = await checkoutBranch(dir, 'other').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'dirty-working-tree', data: { branch: 'other', paths: ['a.md', 'b.md', 'new.md'] } });
    expect((error as Error).message).toContain('a.md, b.md, new.md');
    expect(await currentBranch(dir)).toBe('main');
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('mine\n');
    expect(await readFile(join(dir, 'new.md'), 'utf8')).toBe('untracked mine\n');
    // git agrees that this checkout must be refused.
    await expect(gitCli(dir, 'checkout', '-q', 'other')).rejects.toThrow(/would be overwritten/);

    await checkoutBranch(dir, 'other', { force: true });
    expect(await currentBranch(dir)).toBe('other');
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('a other\n');
    expect(await readFile(join(dir, 'new.md'), 'utf8')).toBe('theirs\n');
    expect(existsSync(join(dir, 'b.md'))).toBe(false);
    await expect(checkoutBranch(dir, 'missing')).rejects.toMatchObject({ code: 'not-found', data: { branch: 'missing' } });
  });

  it('brings the working tree to a checked-out branch that commitFiles moved, keeping unrelated edits', async () => {
    const dir = await workspace({ 'a.md': 'a\n', 'b.md': 'b\n', 'gone.md': 'g\n' });
    const base = (await branchOid(dir, 'main'))!;
    await put(dir, 'b.md', 'local\n');
    // A pull writes the remote's content as a commit on main without touching the files ...
    await commitFiles(dir, {
      branch: 'main',
      parent: base,
      files: files({ 'a.md': 'a remote\n', 'b.md': 'b\n', 'new.md': 'n\n' }),
      message: 'pull',
      author,
    });
    // ... and then the working tree follows.
    await checkoutBranch(dir, 'main');
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('a remote\n');
    expect(await readFile(join(dir, 'new.md'), 'utf8')).toBe('n\n');
    expect(await readFile(join(dir, 'b.md'), 'utf8')).toBe('local\n');
    expect(existsSync(join(dir, 'gone.md'))).toBe(false);
    expect(await workingTreeChanges(dir)).toEqual([{ path: 'b.md', status: 'modified' }]);
    expect(await cliStatus(dir)).toEqual([{ path: 'b.md', status: 'modified' }]);
  });
});

describe('writeWorkingFiles', () => {
  it('writes and deletes files (and the folders they leave empty) without leaving temporary files', async () => {
    const dir = await workspace({ 'a.md': 'a\n', 'deep/er/x.md': 'x\n' });
    await writeWorkingFiles(
      dir,
      new Map<string, string | Uint8Array | null>([
        ['a.md', 'new a\n'],
        ['é/日本/ページ.md', 'unicode\n'],
        ['bin.dat', new Uint8Array([0, 1, 2])],
        ['deep/er/x.md', null],
        ['never-there.md', null],
      ]),
    );
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('new a\n');
    expect(await readFile(join(dir, 'é/日本/ページ.md'), 'utf8')).toBe('unicode\n');
    expect(existsSync(join(dir, 'deep'))).toBe(false);
    expect((await readdir(dir)).sort()).toEqual(['.git', 'a.md', 'bin.dat', 'é']);
    expect(await workingTreeChanges(dir)).toEqual([
      { path: 'a.md', status: 'modified' },
      { path: 'bin.dat', status: 'added' },
      { path: 'deep/er/x.md', status: 'deleted' },
      { path: 'é/日本/ページ.md', status: 'added' },
    ]);
  });

  it('refuses paths that leave the working tree, also through a symbolic link, before writing anything', async () => {
    const dir = await workspace({ 'a.md': 'a\n' });
    const outside = await tempDir();
    await expect(
      writeWorkingFiles(
        dir,
        new Map([
          ['ok.md', 'x'],
          ['../escape.md', 'x'],
        ]),
      ),
    ).rejects.toMatchObject({ code: 'invalid-path', data: { path: '../escape.md' } });
    expect(existsSync(join(dir, 'ok.md'))).toBe(false);
    await expect(writeWorkingFiles(dir, new Map([['.git/config', 'x']]))).rejects.toMatchObject({ code: 'invalid-path' });
    await symlink(outside, join(dir, 'link'));
    await expect(writeWorkingFiles(dir, new Map([['link/escape.md', 'x']]))).rejects.toMatchObject({
      code: 'invalid-path',
      data: { path: 'link/escape.md' },
    });
    expect(await readdir(outside)).toEqual([]);
  });
});
