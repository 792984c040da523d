import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { branchOid, commitFiles, GitError, readTreeFiles } from '../../src/git/index.js';
import { asText, author, files, gitCli, tempRepo } from './helpers.js';

const page = (title: string) => `# ${title}\n\nSome text about ${title}.\n`;

describe('commitFiles', () => {
  it('writes a commit the git CLI reads, checks and shows with the expected tree', async () => {
    const dir = await tempRepo();
    const oid = await commitFiles(dir, {
      branch: 'main',
      parent: null,
      files: files({ 'README.md': page('Home'), 'guides/install.md': page('Install'), 'guides/deep/a.md': 'a\n' }),
      message: 'Clone revision r1',
      author,
      timestamp: 1_700_000_000,
    });
    expect(oid).toMatch(/^[0-9a-f]{40}$/);
    expect((await gitCli(dir, 'rev-parse', 'main')).trim()).toBe(oid);
    await gitCli(dir, 'fsck', '--strict', '--no-dangling');
    expect(await gitCli(dir, 'log', '--format=%H|%an <%ae>|%at|%s', 'main')).toBe(
      `${oid}|Ada Writer <ada@example.com>|1700000000|Clone revision r1\n`,
    );
    expect(await gitCli(dir, 'show', 'main:guides/install.md')).toBe(page('Install'));

    const tree = (await gitCli(dir, 'cat-file', '-p', `${oid}^{tree}`)).trim().split('\n');
    expect(tree.map((line) => line.replace(/ [0-9a-f]{40}\t/, ' <oid> '))).toEqual([
      '100644 blob <oid> README.md',
      '040000 tree <oid> guides',
    ]);
    const sub = (await gitCli(dir, 'cat-file', '-p', `${oid}:guides`)).trim().split('\n');
    expect(sub.map((line) => line.replace(/ [0-9a-f]{40}\t/, ' <oid> '))).toEqual([
      '040000 tree <oid> deep',
      '100644 blob <oid> install.md',
    ]);
    // The working tree and index are untouched: no file was written, nothing is staged.
    expect(await gitCli(dir, 'ls-files')).toBe('');
  });

  it('gives identical file maps the same tree oid, the one git write-tree gives for the same files', async () => {
    const content = {
      'b.md': 'b\n',
      'a.md': 'a\n',
      'a-b/x.md': 'x\n', // git orders the folder a-b before a.md and a/: tree order, not insertion order
      'a/c.md': 'c\n',
      'é/ünï.md': 'unicode\n',
      '日本/ページ.md': 'ja\n',
      'bin.png': new Uint8Array([0, 1, 2, 255]),
    };
    const reversed = Object.fromEntries(Object.entries(content).reverse());
    const one = await tempRepo();
    const two = await tempRepo();
    const first = await commitFiles(one, { branch: 'main', parent: null, files: files(content), message: 'one', author, timestamp: 1 });
    const second = await commitFiles(two, { branch: 'other', parent: null, files: files(reversed), message: 'two', author, timestamp: 2 });
    const treeOf = async (dir: string, oid: string) => (await gitCli(dir, 'rev-parse', `${oid}^{tree}`)).trim();
    expect(await treeOf(one, first)).toBe(await treeOf(two, second));

    const cli = await tempRepo();
    for (const [path, data] of Object.entries(content)) {
      await mkdir(join(cli, path, '..'), { recursive: true });
      await writeFile(join(cli, path), data);
    }
    await gitCli(cli, 'add', '-A');
    expect((await gitCli(cli, 'write-tree')).trim()).toBe(await treeOf(one, first));
  });

  it('chains commits on a parent and moves the branch only if it still points at that parent', async () => {
    const dir = await tempRepo();
    const base = await commitFiles(dir, { branch: 'main', parent: null, files: files({ 'a.md': '1\n' }), message: 'base', author });
    const next = await commitFiles(dir, { branch: 'main', parent: base, files: files({ 'a.md': '2\n' }), message: 'next', author });
    expect((await gitCli(dir, 'rev-list', '--parents', '-n1', 'main')).trim()).toBe(`${next} ${base}`);

    // A writer that still thinks main is at base loses, and main does not move.
    const stale = commitFiles(dir, { branch: 'main', parent: base, files: files({ 'a.md': '3\n' }), message: 'stale', author });
    await expect(stale).rejects.toMatchObject({ code: 'ref-moved', data: { expected: base, actual: next } });
    expect(await branchOid(dir, 'main')).toBe(next);
    // null means "create": refused when the branch exists.
    await expect(commitFiles(dir, { branch: 'main', parent: null, files: files({}), message: 'x', author })).rejects.toMatchObject({
      code: 'ref-moved',
    });
  });

  it('lets exactly one of two racing writers with the same parent win', async () => {
    const dir = await tempRepo();
    const base = await commitFiles(dir, { branch: 'main', parent: null, files: files({ 'a.md': '1\n' }), message: 'base', author });
    const results = await Promise.allSettled(
      ['left', 'right'].map((side) =>
        commitFiles(dir, { branch: 'main', parent: base, files: files({ 'a.md': `${side}\n` }), message: side, author }),
      ),
    );
    const won = results.filter((x) => x.status === 'fulfilled');
    const lost = results.filter((x): x is PromiseRejectedResult => x.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(GitError);
    expect(lost[0]!.reason.code).toBe('ref-moved');
    expect(await branchOid(dir, 'main')).toBe((won[0] as PromiseFulfilledResult<string>).value);
    await gitCli(dir, 'fsck', '--strict');
  });

  it("respects git's lock file: a branch locked by another process is not moved", async () => {
    const dir = await tempRepo();
    const base = await commitFiles(dir, { branch: 'main', parent: null, files: files({ 'a.md': '1\n' }), message: 'base', author });
    await writeFile(join(dir, '.git/refs/heads/main.lock'), '');
    await expect(commitFiles(dir, { branch: 'main', parent: base, files: files({}), message: 'x', author })).rejects.toMatchObject({
      code: 'ref-locked',
    });
    expect(await branchOid(dir, 'main')).toBe(base);
  });

  it('uses the branch tip when no parent is given, and writes merge commits with further parents', async () => {
    const dir = await tempRepo();
    const a = await commitFiles(dir, { branch: 'main', files: files({ 'a.md': 'a\n' }), message: 'a', author });
    const b = await commitFiles(dir, { branch: 'main', files: files({ 'a.md': 'b\n' }), message: 'b', author });
    const side = await commitFiles(dir, { branch: 'cr/1-side', parent: null, files: files({ 's.md': 's\n' }), message: 'side', author });
    const merge = await commitFiles(dir, {
      branch: 'main',
      parent: b,
      mergeParents: [side],
      files: files({ 'a.md': 'b\n', 's.md': 's\n' }),
      message: 'merge',
      author,
    });
    expect((await gitCli(dir, 'rev-list', '--parents', '-n1', merge)).trim()).toBe(`${merge} ${b} ${side}`);
    expect((await gitCli(dir, 'rev-list', '--parents', '-n1', b)).trim()).toBe(`${b} ${a}`);
    expect(asText(await readTreeFiles(dir, merge))).toEqual({ 'a.md': 'b\n', 's.md': 's\n' });
    await gitCli(dir, 'fsck', '--strict');
  });

  it('writes an empty tree for an empty file map', async () => {
    const dir = await tempRepo();
    const oid = await commitFiles(dir, { branch: 'main', parent: null, files: files({}), message: 'empty', author });
    expect((await gitCli(dir, 'rev-parse', `${oid}^{tree}`)).trim()).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
  });

  it.each([
    ['/abs.md', 'absolute'],
    ['a/../b.md', 'segment ".."'],
    ['a//b.md', 'empty segment'],
    ['.git/config', 'inside .git'],
    ['docs/.GIT/x', 'inside .git'],
    ['a\\b.md', 'backslash'],
    ['', 'empty'],
  ])('refuses the path %j (%s) and names it', async (path, why) => {
    const dir = await tempRepo();
    const error = await commitFiles(dir, { branch: 'main', files: files({ [path]: 'x' }), message: 'x', author }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid-path', data: { path } });
    expect((error as Error).message).toContain(why);
    expect(await branchOid(dir, 'main')).toBeNull();
  });

  it('refuses a path that is both a file and a folder, and a bad branch name', async () => {
    const dir = await tempRepo();
    await expect(commitFiles(dir, { branch: 'main', files: files({ a: '1', 'a/b.md': '2' }), message: 'x', author })).rejects.toMatchObject(
      { code: 'invalid-path', data: { path: 'a' } },
    );
    await expect(commitFiles(dir, { branch: 'bad..name', files: files({}), message: 'x', author })).rejects.toMatchObject({
      code: 'invalid-ref',
    });
    await expect(
      commitFiles(dir, { branch: 'main', parent: 'f'.repeat(40), files: files({}), message: 'x', author }),
    ).rejects.toMatchObject({ code: 'not-found' });
  });
});
