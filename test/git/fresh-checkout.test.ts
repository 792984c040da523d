import { existsSync, lstatSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  branchOid,
  checkoutBranch,
  commitFiles,
  commitWorkingTree,
  currentBranch,
  GitError,
  workingTreeChanges,
} from '../../src/git/index.js';
import { populateWorkingTree } from '../../src/git/commit/fresh-checkout.js';
import { repo } from '../../src/git/repo.js';
import { author, files, gitCli, tempRepo } from './helpers.js';

/** Names chosen to tell git's index order (bytes of the whole path) from insertion and UTF-16 order. */
const tricky = {
  'b.md': 'b\n',
  'a0.md': 'a0\n',
  'a/c.md': 'c\n',
  'a.md': 'a\n',
  'a-b/x.md': 'x\n',
  'é/ünï.md': 'unicode\n',
  '日本/ページ.md': 'ja\n',
  '😀/emoji.md': 'beyond U+FFFF\n',
  'deep/er/and/deeper/page.md': 'deep\n',
  'empty.md': '',
  'bin.png': new Uint8Array([0, 1, 2, 255]),
  'copy-of-b.md': 'b\n',
};

function manyPages(n: number): Record<string, string | Uint8Array> {
  const content: Record<string, string | Uint8Array> = { ...tricky };
  for (let i = 0; i < n; i += 1) content[`section-${i % 9}/page-${i}.md`] = `# Page ${i}\n\nText of page ${i}.\n`;
  return content;
}

async function checkedOut(content: Record<string, string | Uint8Array>, branch = 'main') {
  const dir = await tempRepo();
  const oid = await commitFiles(dir, {
    branch,
    parent: null,
    files: files(content),
    message: 'clone',
    author,
    timestamp: 1,
    checkout: true,
  });
  return { dir, oid };
}

describe('commitFiles with checkout', () => {
  it('leaves a clean working tree for the git CLI: status and diff empty, fsck clean, index = the commit', async () => {
    const content = manyPages(250);
    const { dir, oid } = await checkedOut(content);
    expect((await gitCli(dir, 'rev-parse', 'HEAD')).trim()).toBe(oid);
    expect(await gitCli(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(await gitCli(dir, 'diff', 'HEAD')).toBe('');
    // diff-files compares the stat data in the index with the files: nothing differs.
    expect(await gitCli(dir, 'diff-files', '--name-only')).toBe('');
    await gitCli(dir, 'fsck', '--strict', '--no-dangling');
    // Same paths, oids and modes as the commit's tree, in the same order git lists them.
    const staged = await gitCli(dir, 'ls-files', '--stage');
    const tree = await gitCli(dir, 'ls-tree', '-r', 'HEAD');
    expect(staged.replace(/ 0\t/g, '\t')).toBe(tree.replace(/ blob /g, ' '));
    for (const [path, data] of Object.entries(content)) {
      expect(await readFile(join(dir, path))).toEqual(Buffer.from(data));
      expect(lstatSync(join(dir, path)).mode & 0o111).toBe(0);
    }
  });

  it('writes the index git would write for the same files: same entries in the same order', async () => {
    const { dir } = await checkedOut(tricky);
    const cli = await tempRepo();
    for (const [path, data] of Object.entries(tricky)) {
      await mkdir(join(cli, path, '..'), { recursive: true });
      await writeFile(join(cli, path), data);
    }
    await gitCli(cli, 'add', '-A');
    const entries = async (repo: string) => (await gitCli(repo, 'ls-files', '--stage', '-z')).split('\0');
    expect(await entries(dir)).toEqual(await entries(cli));
    expect(rawIndexPaths(await readFile(join(dir, '.git', 'index')))).toEqual(rawIndexPaths(await readFile(join(cli, '.git', 'index'))));
  });

  it('records each file’s own stat data, as git checkout does', async () => {
    const { dir } = await checkedOut(tricky);
    const debug = await gitCli(dir, 'ls-files', '--debug', '-z');
    const recorded = new Map<string, string>();
    for (const match of debug.matchAll(
      /([^\0\n]+)\0 {2}ctime: (\d+):(\d+)\n {2}mtime: (\d+):(\d+)\n {2}dev: (\d+)\tino: (\d+)\n {2}uid: (\d+)\tgid: (\d+)\n {2}size: (\d+)/g,
    )) {
      recorded.set(match[1]!, match.slice(2, 11).join(' '));
    }
    expect(recorded.size).toBe(Object.keys(tricky).length);
    for (const path of Object.keys(tricky)) {
      const stat = lstatSync(join(dir, path), { bigint: true });
      const low = (value: bigint) => String(value & 0xffffffffn);
      const seconds = (ns: bigint) => `${ns / 1_000_000_000n} ${ns % 1_000_000_000n}`;
      expect(recorded.get(path), path).toBe(
        `${seconds(stat.ctimeNs)} ${seconds(stat.mtimeNs)} ${low(stat.dev)} ${low(stat.ino)} ${stat.uid} ${stat.gid} ${stat.size}`,
      );
    }
  });

  it('is a working tree isomorphic-git reads: no changes, then edits found, committed and switched away from', async () => {
    const { dir, oid } = await checkedOut(manyPages(120));
    expect(await workingTreeChanges(dir)).toEqual([]);
    expect(await currentBranch(dir)).toBe('main');

    await writeFile(join(dir, 'a.md'), 'a, edited\n');
    await writeFile(join(dir, 'new.md'), 'new\n');
    await writeFile(join(dir, '日本/ページ.md'), 'ja, edited\n');
    expect(await workingTreeChanges(dir)).toEqual([
      { path: 'a.md', status: 'modified' },
      { path: 'new.md', status: 'added' },
      { path: '日本/ページ.md', status: 'modified' },
    ]);
    const next = await commitWorkingTree(dir, { message: 'edit', author });
    expect((await gitCli(dir, 'diff', '--name-status', oid, next!)).trim().split('\n')).toEqual([
      'M\ta.md',
      'A\tnew.md',
      'M\t日本/ページ.md',
    ]);
    expect(await gitCli(dir, 'status', '--porcelain')).toBe('');

    await commitFiles(dir, { branch: 'other', parent: null, files: files({ 'other.md': 'other\n' }), message: 'other', author });
    await checkoutBranch(dir, 'other');
    // (isomorphic-git's checkout leaves the emptied folders behind; git would remove them.)
    expect(await filesUnder(dir)).toEqual(['other.md']);
    expect(await gitCli(dir, 'status', '--porcelain')).toBe('');
  });

  it('points HEAD at the committed branch', async () => {
    const { dir, oid } = await checkedOut({ 'README.md': '# Docs\n' }, 'docs');
    expect(await currentBranch(dir)).toBe('docs');
    expect((await gitCli(dir, 'symbolic-ref', 'HEAD')).trim()).toBe('refs/heads/docs');
    expect(await branchOid(dir, 'docs')).toBe(oid);
    expect(await gitCli(dir, 'status', '--porcelain')).toBe('');
  });

  it('refuses a working tree that is not empty, or has an index, before writing anything', async () => {
    const dir = await tempRepo();
    await writeFile(join(dir, 'notes.txt'), 'mine\n');
    const attempt = () =>
      commitFiles(dir, { branch: 'main', parent: null, files: files({ 'notes.txt': 'theirs\n' }), message: 'm', author, checkout: true });
    await expect(attempt()).rejects.toMatchObject({ code: 'dirty-working-tree', data: { paths: ['notes.txt'] } });
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('mine\n');
    expect(await branchOid(dir, 'main')).toBeNull();

    const indexed = await tempRepo();
    await writeFile(join(indexed, 'x.md'), 'x\n');
    await gitCli(indexed, 'add', 'x.md');
    await gitCli(indexed, 'rm', '--cached', '-q', 'x.md');
    await gitCli(indexed, 'clean', '-fq');
    const error = await commitFiles(indexed, {
      branch: 'main',
      parent: null,
      files: files({ 'a.md': 'a\n' }),
      message: 'm',
      author,
      checkout: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect(error).toMatchObject({ code: 'dirty-working-tree', data: { paths: ['.git/index'] } });
    expect(existsSync(join(indexed, 'a.md'))).toBe(false);
  });

  it('never overwrites a file that appears while it writes (or that case folding makes one path)', async () => {
    const dir = await tempRepo();
    const blob = { oid: 'b'.repeat(40), content: Buffer.from('first\n') };
    const twice = [
      { path: 'Readme.md', ...blob },
      { path: 'Readme.md', ...blob, content: Buffer.from('second\n') },
    ];
    await expect(populateWorkingTree(await repo(dir), twice)).rejects.toMatchObject({
      code: 'dirty-working-tree',
      data: { paths: ['Readme.md'] },
    });
    expect(await readFile(join(dir, 'Readme.md'), 'utf8')).toBe('first\n');
  });

  it('checks out branches only, not other refs', async () => {
    const dir = await tempRepo();
    await expect(
      commitFiles(dir, {
        branch: 'refs/docsync/base/1',
        parent: null,
        files: files({ 'a.md': 'a\n' }),
        message: 'm',
        author,
        checkout: true,
      }),
    ).rejects.toMatchObject({ code: 'invalid-ref' });
    expect(await readdir(dir)).toEqual(['.git']);
  });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .filter((path) => !path.startsWith('.git/'))
    .sort();
}

/** The paths of an index file, in the order they are stored (version 2, no extended flags). */
function rawIndexPaths(index: Buffer): string[] {
  const paths: string[] = [];
  let offset = 12;
  for (let i = 0; i < index.readUInt32BE(8); i += 1) {
    const end = index.indexOf(0, offset + 62);
    paths.push(index.toString('utf8', offset + 62, end));
    offset += Math.ceil((end - offset + 1) / 8) * 8;
  }
  return paths;
}
