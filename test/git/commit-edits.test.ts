import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutBranch,
  checkoutPaths,
  commitEdits,
  commitFiles,
  initRepo,
  readTreeFiles,
  workingTreeChanges,
} from '../../src/git/index.js';

const author = { name: 'Test', email: 'test@example.test' };
const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], { cwd: dir, encoding: 'utf8' });
const text = (files: Map<string, Uint8Array>) => Object.fromEntries([...files].map(([p, b]) => [p, Buffer.from(b).toString()]));

describe('commitEdits', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'docsync-commit-edits-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  async function repoWith(name: string) {
    const dir = join(work, name);
    await initRepo(dir, { defaultBranch: 'main' });
    const files = new Map<string, string>([
      ['README.md', 'home\n'],
      ['a/one.md', 'one\n'],
      ['a/b/two.md', 'two\n'],
      ['c/three.md', 'three\n'],
      ['日本/語.md', 'ja\n'],
    ]);
    const first = await commitFiles(dir, { branch: 'main', parent: null, files, message: 'first', author });
    return { dir, first };
  }

  it('applies edits, additions and deletions to the parent tree, equal to committing the whole folder', async () => {
    const { dir, first } = await repoWith('equal');
    const edits = new Map<string, Uint8Array | null>([
      ['a/b/two.md', Buffer.from('TWO\n')],
      ['c/three.md', null],
      ['new/deep/four.md', Buffer.from('four\n')],
      ['日本/語.md', Buffer.from('JA\n')],
    ]);
    const oid = await commitEdits(dir, { branch: 'main', parent: first, from: first, edits, message: 'edits', author });
    expect(text(await readTreeFiles(dir, oid))).toEqual({
      'README.md': 'home\n',
      'a/one.md': 'one\n',
      'a/b/two.md': 'TWO\n',
      'new/deep/four.md': 'four\n',
      '日本/語.md': 'JA\n',
    });
    // The same files committed whole give the same tree, and git finds the repository sound.
    const whole = await commitFiles(dir, {
      branch: 'refs/docsync/check',
      parent: null,
      files: await readTreeFiles(dir, oid),
      message: 'whole',
      author,
    });
    expect(git(dir, 'rev-parse', `${oid}^{tree}`)).toBe(git(dir, 'rev-parse', `${whole}^{tree}`));
    git(dir, 'fsck', '--strict');
    expect(git(dir, 'log', '--format=%s', 'main')).toBe('edits\nfirst\n');
  });

  it('turns a folder into a file and a file into a folder in one edit set, as git add -A does', async () => {
    const { dir, first } = await repoWith('swap');
    // `a/` (two files, one nested) becomes the file `a`; the file `README.md` becomes a folder.
    const edits = new Map<string, Uint8Array | null>([
      ['a', Buffer.from('now a file\n')],
      ['a/one.md', null],
      ['a/b/two.md', null],
      ['README.md', null],
      ['README.md/inside.md', Buffer.from('inside\n')],
    ]);
    const oid = await commitEdits(dir, { branch: 'main', parent: first, from: first, edits, message: 'swap', author });
    expect(text(await readTreeFiles(dir, oid))).toEqual({
      a: 'now a file\n',
      'README.md/inside.md': 'inside\n',
      'c/three.md': 'three\n',
      '日本/語.md': 'ja\n',
    });
    // The real git CLI, given the same edits in a working tree, writes the very same tree.
    const clone = join(work, 'swap-clone');
    git(work, 'clone', '-q', dir, clone);
    git(clone, 'checkout', '-q', first);
    git(clone, 'rm', '-rq', 'a', 'README.md');
    await writeFile(join(clone, 'a'), 'now a file\n');
    await mkdir(join(clone, 'README.md'));
    await writeFile(join(clone, 'README.md', 'inside.md'), 'inside\n');
    git(clone, 'add', '-A');
    expect(git(clone, 'write-tree')).toBe(git(dir, 'rev-parse', `${oid}^{tree}`));
    git(dir, 'fsck', '--strict');
  });

  it('moves the branch only from the expected parent, and records merge parents', async () => {
    const { dir, first } = await repoWith('cas');
    const second = await commitEdits(dir, {
      branch: 'main',
      parent: first,
      from: first,
      edits: new Map([['x.md', Buffer.from('x\n')]]),
      message: 'x',
      author,
    });
    await expect(
      commitEdits(dir, { branch: 'main', parent: first, from: first, edits: new Map(), message: 'late', author }),
    ).rejects.toMatchObject({ code: 'ref-moved' });
    const merge = await commitEdits(dir, {
      branch: 'main',
      parent: second,
      mergeParents: [first],
      from: second,
      edits: new Map(),
      message: 'merge',
      author,
    });
    expect(git(dir, 'rev-list', '--parents', '-n', '1', merge).trim().split(' ').slice(1)).toEqual([second, first]);
  });

  it('checkoutPaths brings just those files in the working tree and the index to the commit', async () => {
    const { dir, first } = await repoWith('checkout');
    await checkoutBranch(dir, 'main', { force: true });
    await writeFile(join(dir, 'README.md'), 'an unrelated local edit\n');
    const next = await commitEdits(dir, {
      branch: 'main',
      parent: first,
      from: first,
      edits: new Map([
        ['a/one.md', Buffer.from('ONE\n')],
        ['c/three.md', null],
      ]),
      message: 'server form',
      author,
    });
    await checkoutPaths(dir, next, ['a/one.md', 'c/three.md']);
    expect(await readFile(join(dir, 'a', 'one.md'), 'utf8')).toBe('ONE\n');
    expect(git(dir, 'status', '--porcelain')).toBe(' M README.md\n');
    expect(await workingTreeChanges(dir)).toEqual([{ path: 'README.md', status: 'modified' }]);
  });
});
