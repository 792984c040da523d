import { chmod, lstat, readFile, readdir, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutBranch, checkoutPaths, commitEdits, writeWorkingFiles } from '../../src/git/index.js';
import { author, gitCli, tempDir } from './helpers.js';

/**
 * Working-tree files are replaced through a temporary file beside them (src/git/atomic-fs.ts):
 * their mode stays, a symbolic link in the way is replaced and never written through, and a
 * temporary file a killed write left is neither written through nor seen by git.
 */
async function repository(content: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  await gitCli(dir, 'init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(content)) await writeFile(join(dir, path), text);
  await gitCli(dir, 'add', '-A');
  await gitCli(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

const modeOf = async (path: string) => (await lstat(path)).mode & 0o777;

describe('working-tree writes', () => {
  it('keep the mode of the file they replace (its executable bit)', async () => {
    const dir = await repository({ 'run.md': 'old\n', 'plain.md': 'old\n' });
    await chmod(join(dir, 'run.md'), 0o751);
    await writeWorkingFiles(
      dir,
      new Map([
        ['run.md', 'new\n'],
        ['plain.md', 'new\n'],
        ['fresh.md', 'new\n'],
      ]),
    );
    expect(await readFile(join(dir, 'run.md'), 'utf8')).toBe('new\n');
    expect(await modeOf(join(dir, 'run.md'))).toBe(0o751);
    expect(await modeOf(join(dir, 'plain.md'))).toBe(await modeOf(join(dir, 'fresh.md')));
  });

  it('replace a symbolic link at the path instead of writing through it', async () => {
    const dir = await repository({ 'a.md': 'a\n' });
    const outside = join(await tempDir(), 'target.md');
    await writeFile(outside, 'not ours\n');
    await symlink(outside, join(dir, 'linked.md'));
    await writeWorkingFiles(dir, new Map([['linked.md', 'ours\n']]));
    expect(await readFile(outside, 'utf8')).toBe('not ours\n');
    expect((await lstat(join(dir, 'linked.md'))).isFile()).toBe(true);
    expect(await readFile(join(dir, 'linked.md'), 'utf8')).toBe('ours\n');
  });

  it('never write through what a killed write left at the temporary name, and git never lists such a file', async () => {
    const dir = await repository({ 'a.md': 'a\n', 'b.md': 'b\n' });
    const outside = join(await tempDir(), 'target.md');
    await writeFile(outside, 'not ours\n');
    await symlink(outside, join(dir, '.a.md.docsync-tmp'));
    await writeWorkingFiles(dir, new Map([['a.md', 'new a\n']]));
    expect(await readFile(outside, 'utf8')).toBe('not ours\n');
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('new a\n');
    expect((await readdir(dir)).sort()).toEqual(['.git', 'a.md', 'b.md']);

    // Half a file a kill left beside b.md, and one of another folder: git does not see them.
    await writeFile(join(dir, '.b.md.docsync-tmp'), 'b, half');
    await writeFile(join(dir, '.4f2a9c.docsync-tmp'), 'from an older docsync');
    expect(await gitCli(dir, 'status', '--porcelain', '--untracked-files=all')).toBe(' M a.md\n');
  });

  it('check out a branch with its executable file executable, and a link as a link', async () => {
    const dir = await repository({ 'a.md': 'a\n' });
    await gitCli(dir, 'checkout', '-q', '-b', 'other');
    await writeFile(join(dir, 'tool.sh'), '#!/bin/sh\n');
    await chmod(join(dir, 'tool.sh'), 0o755);
    await symlink('a.md', join(dir, 'alias.md'));
    await gitCli(dir, 'add', '-A');
    await gitCli(dir, 'commit', '-q', '-m', 'tool');
    await gitCli(dir, 'checkout', '-q', 'main');
    await checkoutBranch(dir, 'other');
    expect((await modeOf(join(dir, 'tool.sh'))) & 0o111).not.toBe(0);
    expect(await readlink(join(dir, 'alias.md'))).toBe('a.md');
    expect(await gitCli(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});

describe('an edit committed and checked out (what a pull does)', () => {
  it('keeps an executable file executable, in the commit and on disk', async () => {
    const dir = await repository({ 'run.md': 'old\n', 'plain.md': 'old\n' });
    await chmod(join(dir, 'run.md'), 0o755);
    await gitCli(dir, 'add', '-A');
    await gitCli(dir, 'commit', '-q', '-m', 'executable');
    const head = (await gitCli(dir, 'rev-parse', 'HEAD')).trim();
    const edits = new Map([
      ['run.md', new TextEncoder().encode('new\n')],
      ['plain.md', new TextEncoder().encode('new\n')],
    ]);
    const commit = await commitEdits(dir, { branch: 'main', parent: head, from: head, edits, message: 'pulled', author });
    await checkoutPaths(dir, commit, ['run.md', 'plain.md']);
    expect(await gitCli(dir, 'ls-tree', 'HEAD')).toMatch(/^100755 blob \w+\trun\.md$/m);
    expect(await gitCli(dir, 'ls-tree', 'HEAD')).toMatch(/^100644 blob \w+\tplain\.md$/m);
    expect(await modeOf(join(dir, 'run.md'))).toBe(0o755);
    expect(await readFile(join(dir, 'run.md'), 'utf8')).toBe('new\n');
    expect(await gitCli(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});
