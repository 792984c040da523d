import fs, { lstatSync, utimesSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import {
  checkoutBranch,
  commitFiles,
  commitWorkingTree,
  readTreeFiles,
  workingTreeChanges,
  workingTreeChangesAt,
} from '../../src/git/index.js';
import { parseIndex, type ParsedIndex } from '../../src/git/format/index-read.js';
import { optionalLocksAllowed, patchStatData } from '../../src/git/index/index-refresh.js';
import { repo } from '../../src/git/repo.js';
import { fastStatusRows, type StatusRow } from '../../src/git/working-tree/status-matrix.js';
import { cliChanges, cliStatus } from './cli-status.js';
import { asText, author, files, gitCli, tempRepo, withFastPaths } from './helpers.js';

// These tests are about the fast paths themselves: on even in the suite's DOCSYNC_GIT_FAST_PATHS=off run.
withFastPaths();

const put = async (dir: string, path: string, data: string) => {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), data);
};

const byPath = (a: StatusRow, b: StatusRow) => Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0]));

/**
 * isomorphic-git's statusMatrix, what workingTreeChanges used before: the reference. Without its
 * index refresh, which would stage a changed executable bit under core.filemode=false and so
 * change what the git CLI reports next.
 */
async function isomorphicRows(dir: string): Promise<StatusRow[]> {
  return (await git.statusMatrix({ fs, dir, refresh: false })).sort(byPath);
}

async function fastRows(dir: string): Promise<StatusRow[] | null> {
  return (await fastStatusRows(await repo(dir)))?.sort(byPath) ?? null;
}

/**
 * The fast path ran (or, with `fallback`, declined) and agrees with isomorphic-git row for row
 * (unless `gitOnly`: an index isomorphic-git cannot read), and workingTreeChanges agrees with
 * the git CLI.
 */
async function expectAgreement(dir: string, options: { fallback?: boolean; gitOnly?: boolean } = {}) {
  const rows = await fastRows(dir);
  if (options.fallback === true) expect(rows).toBeNull();
  else if (options.gitOnly === true) expect(rows).not.toBeNull();
  else expect(rows).toEqual(await isomorphicRows(dir));
  const changes = await workingTreeChanges(dir);
  expect(changes).toEqual(await cliChanges(dir));
  return changes;
}

const readIndex = async (dir: string) => parseIndex(await readFile(join(dir, '.git', 'index'))) as ParsedIndex;

/** A clone as docsync makes it: main committed and checked out by commitFiles, index written by fresh-checkout. */
async function freshCheckout(content: Record<string, string>) {
  const dir = await tempRepo();
  await commitFiles(dir, { branch: 'main', parent: null, files: files(content), message: 'clone', author, checkout: true });
  return dir;
}

/** The same files committed by the git CLI, which wrote the index. */
async function cliCommitted(content: Record<string, string>) {
  const dir = await tempRepo();
  for (const [path, data] of Object.entries(content)) await put(dir, path, data);
  await gitCli(dir, 'add', '--force', '-A');
  await gitCli(dir, 'commit', '-qm', 'first');
  return dir;
}

/** The same files committed through isomorphic-git, which wrote the index. */
async function isomorphicCommitted(content: Record<string, string>) {
  const dir = await tempRepo();
  for (const [path, data] of Object.entries(content)) await put(dir, path, data);
  await git.add({ fs, dir, filepath: Object.keys(content), force: true });
  await git.commit({ fs, dir, message: 'first', author });
  return dir;
}

const content = {
  'README.md': '# Home\n',
  'a.md': 'aaaa\n',
  'guides/install.md': 'install\n',
  'guides/deep/er/page.md': 'deep\n',
  'guides/b.md': 'b\n',
  'é/ü.md': 'u\n',
  '日本/ページ.md': 'ja\n',
  '😀.md': 'emoji\n',
  'tracked.log': 'a tracked file matching an ignore pattern\n',
  '.gitignore': 'build/\n*.log\n!keep.log\ncache\n',
  'sub/.gitignore': 'local.md\n',
};

/** Edits of every kind, each followed by a check. */
async function editAndCheck(dir: string) {
  expect(await expectAgreement(dir)).toEqual([]);

  await put(dir, 'a.md', 'bbbb\n'); // same size as before
  await put(dir, 'guides/install.md', 'install, edited\n');
  await rm(join(dir, 'guides/b.md'));
  await put(dir, 'guides/new/page.md', 'new\n');
  await put(dir, 'é/ü.md', 'u, edited\n');
  await put(dir, '日本/新しい.md', 'new ja\n');
  await put(dir, 'tracked.log', 'edited\n');
  await expectAgreement(dir);

  // Staged (an index the git CLI rewrote), and staged then put back as HEAD has it.
  await put(dir, 'staged.md', 'staged\n');
  await put(dir, 'README.md', '# Home, staged\n');
  await gitCli(dir, 'add', 'staged.md', 'README.md', 'é/ü.md');
  await put(dir, 'README.md', '# Home\n');
  await expectAgreement(dir);
  expect(await cliStatus(dir)).toContainEqual({ path: 'README.md', status: 'modified' }); // git status: MM

  // Ignored: by the root .gitignore (folder, pattern, negation), a nested one and .git/info/exclude.
  await put(dir, 'build/out.html', 'ignored\n');
  await put(dir, 'cache/a/b.bin', 'ignored\n');
  await put(dir, 'debug.log', 'ignored\n');
  await put(dir, 'keep.log', 'not ignored\n');
  await put(dir, 'sub/local.md', 'ignored\n');
  await put(dir, 'sub/other.md', 'not ignored\n');
  await put(dir, '.git/info/exclude', 'secret.md\n');
  await put(dir, 'secret.md', 'ignored\n');
  await put(dir, '.git/docsync/state.json', '{}');
  const changes = await expectAgreement(dir);
  expect(changes.map((c) => c.path)).toEqual(expect.arrayContaining(['keep.log', 'sub/other.md', 'tracked.log']));
  expect(changes.map((c) => c.path)).not.toEqual(expect.arrayContaining(['debug.log']));
}

describe('workingTreeChanges reads the index itself and agrees with isomorphic-git and git', () => {
  it('on an index written by a fresh checkout (commitFiles with checkout)', async () => {
    await editAndCheck(await freshCheckout(content));
  });

  it('on an index written by the git CLI, also in versions 3 (intent-to-add) and 4', async () => {
    const dir = await cliCommitted(content);
    await editAndCheck(dir);
    await gitCli(dir, 'update-index', '--index-version', '4');
    expect((await readIndex(dir)).version).toBe(4);
    // isomorphic-git does not read version 4 (statusMatrix, and so workingTreeChanges before, threw).
    await expect(isomorphicRows(dir)).rejects.toThrow(/Unsupported dircache version: 4/);
    expect((await expectAgreement(dir, { gitOnly: true })).length).toBeGreaterThan(5);
    await put(dir, 'intent.md', 'intent\n');
    await gitCli(dir, 'add', '-N', 'intent.md');
    await gitCli(dir, 'update-index', '--index-version', '3');
    expect((await readIndex(dir)).entries.find((e) => e.path === 'intent.md')?.intentToAdd).toBe(true);
    await expectAgreement(dir);
  });

  it('on an index written by isomorphic-git', async () => {
    await editAndCheck(await isomorphicCommitted(content));
  });

  it('after checkoutBranch (isomorphic-git’s checkout wrote the index)', async () => {
    const dir = await freshCheckout(content);
    await checkoutBranch(dir, 'main', { force: true });
    await editAndCheck(dir);
  });

  it('on symbolic links, an executable bit, files replaced by folders and back, a large file', async () => {
    const large = 'x'.repeat(3 << 20);
    const dir = await cliCommitted({ 'a.md': 'a\n', 'b.md': 'b\n', 'folder/c.md': 'c\n', 'run.sh': 'echo\n', 'large.bin': large });
    await symlink('a.md', join(dir, 'link'));
    await gitCli(dir, 'add', 'link');
    await gitCli(dir, 'commit', '-qm', 'link');
    await expectAgreement(dir);
    await rm(join(dir, 'link'));
    await symlink('b.md', join(dir, 'link'));
    await chmod(join(dir, 'run.sh'), 0o755);
    await rm(join(dir, 'b.md'));
    await put(dir, 'b.md/inside.md', 'a folder now\n');
    await rm(join(dir, 'folder'), { recursive: true });
    await put(dir, 'folder', 'a file now\n');
    await put(dir, 'large.bin', `${large.slice(1)}y`);
    expect(await expectAgreement(dir)).toContainEqual({ path: 'large.bin', status: 'modified' });
  });
});

describe('stat data and the index refresh', () => {
  it('does not report a file touched without a change, and records its new stat data as git status does', async () => {
    const dir = await freshCheckout(content);
    const past = Date.now() / 1000 - 100;
    utimesSync(join(dir, 'a.md'), past, past);
    await put(dir, 'guides/b.md', 'b\n'); // rewritten, same bytes
    expect(await gitCli(dir, 'diff-files', '--name-only')).toBe('a.md\n');

    expect(await expectAgreement(dir)).toEqual([]);
    const entry = (await readIndex(dir)).entries.find((e) => e.path === 'a.md')!;
    expect(entry.mtimeSeconds).toBe(Math.floor(past));
    // git now finds the stat data it reads equal to the files': nothing to hash, nothing listed.
    expect(await gitCli(dir, 'diff-files', '--name-only')).toBe('');
  });

  it('hashes a racily clean entry: same size and stat data as recorded, not older than the index', async () => {
    const dir = await freshCheckout({ 'a.md': 'aaaa\n', 'b.md': 'b\n' });
    const indexPath = join(dir, '.git', 'index');
    await put(dir, 'a.md', 'bbbb\n');
    // An index that recorded the edited file's stat data with the old content's oid: what a write
    // in the same clock tick as the index leaves behind.
    const original = await readFile(indexPath);
    const entry = parseIndex(original) as ParsedIndex;
    const a = entry.entries.find((e) => e.path === 'a.md')!;
    await writeFile(indexPath, patchStatData(original, [{ offset: a.offset, stat: lstatSync(join(dir, 'a.md'), { bigint: true }) }]));
    const mtime = lstatSync(join(dir, 'a.md')).mtimeMs / 1000;

    // An index newer than the file: its stat data is trusted, by git as by us.
    utimesSync(indexPath, mtime + 10, mtime + 10);
    expect(await workingTreeChanges(dir)).toEqual([]);
    expect(await cliChanges(dir)).toEqual([]);

    // Not older than the file: racy, so hashed, and the edit is seen.
    utimesSync(indexPath, mtime - 1, mtime - 1);
    utimesSync(join(dir, 'b.md'), mtime - 50, mtime - 50); // a refresh to write, so the index is rewritten
    expect(await workingTreeChanges(dir)).toEqual([{ path: 'a.md', status: 'modified' }]);
    expect(await cliChanges(dir)).toEqual([{ path: 'a.md', status: 'modified' }]);
    // The rewritten index smudged the entry (size 0), as git does, so it stays seen once the index is older.
    expect((await readIndex(dir)).entries.find((e) => e.path === 'a.md')?.size).toBe(0);
    utimesSync(indexPath, mtime + 10, mtime + 10);
    expect(await workingTreeChanges(dir)).toEqual([{ path: 'a.md', status: 'modified' }]);
    expect(await cliChanges(dir)).toEqual([{ path: 'a.md', status: 'modified' }]);
  });

  it('does not rewrite the index on every call for a file dated in the future (racy however late the index is written)', async () => {
    const dir = await freshCheckout({ 'a.md': 'a\n', 'b.md': 'b\n' });
    const future = Date.now() / 1000 + 3600;
    utimesSync(join(dir, 'a.md'), future, future);
    expect(await workingTreeChanges(dir)).toEqual([]); // refreshes the new stat data: one write
    const written = lstatSync(join(dir, '.git', 'index'), { bigint: true });
    expect(await workingTreeChanges(dir)).toEqual([]);
    expect(await workingTreeChanges(dir)).toEqual([]);
    const after = lstatSync(join(dir, '.git', 'index'), { bigint: true });
    expect([after.ino, after.mtimeNs]).toEqual([written.ino, written.mtimeNs]);
    await put(dir, 'a.md', 'x\n'); // same size, and still seen
    expect(await workingTreeChanges(dir)).toEqual([{ path: 'a.md', status: 'modified' }]);
  });

  for (const paths of ['fast paths', 'isomorphic-git'] as const) {
    it(`with optional locks off (GIT_OPTIONAL_LOCKS=0, a background process) leaves the index alone and sees every change (${paths})`, async () => {
      const dir = await freshCheckout({ 'a.md': 'a\n', 'b.md': 'b\n', 'guides/c.md': 'c\n' });
      const indexPath = join(dir, '.git', 'index');
      const before = await readFile(indexPath);
      const saved = { locks: process.env.GIT_OPTIONAL_LOCKS, fast: process.env.DOCSYNC_GIT_FAST_PATHS };
      process.env.GIT_OPTIONAL_LOCKS = '0';
      if (paths === 'isomorphic-git') process.env.DOCSYNC_GIT_FAST_PATHS = 'off';
      try {
        utimesSync(join(dir, 'a.md'), 1_000_000, 1_000_000); // new stat data, same content: a refresh to write
        await put(dir, 'b.md', 'B\n');
        const seen = [{ path: 'b.md', status: 'modified' }];
        for (let walk = 0; walk < 2; walk += 1) {
          expect(await workingTreeChanges(dir)).toEqual(seen);
          expect(await workingTreeChangesAt(dir, ['a.md', 'b.md'])).toEqual(paths === 'fast paths' ? seen : null);
        }
        expect(await readFile(indexPath)).toEqual(before);
      } finally {
        for (const [name, value] of [
          ['GIT_OPTIONAL_LOCKS', saved.locks],
          ['DOCSYNC_GIT_FAST_PATHS', saved.fast],
        ] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
      // Allowed again, the next walk stores what it learned, as git status does.
      expect(await workingTreeChanges(dir)).toEqual([{ path: 'b.md', status: 'modified' }]);
      expect(await readFile(indexPath)).not.toEqual(before);
    });
  }

  it('reads GIT_OPTIONAL_LOCKS as git reads a boolean', () => {
    for (const off of ['0', 'false', 'no', 'off', ' OFF ', 'False'])
      expect(optionalLocksAllowed({ GIT_OPTIONAL_LOCKS: off }), off).toBe(false);
    for (const on of [undefined, '', '1', 'true', 'yes', 'on'])
      expect(optionalLocksAllowed({ GIT_OPTIONAL_LOCKS: on }), String(on)).toBe(true);
  });

  it('leaves the index alone while another process holds index.lock', async () => {
    const dir = await freshCheckout({ 'a.md': 'a\n' });
    const before = await readFile(join(dir, '.git', 'index'));
    utimesSync(join(dir, 'a.md'), 1_000_000, 1_000_000);
    await writeFile(join(dir, '.git', 'index.lock'), '');
    expect(await workingTreeChanges(dir)).toEqual([]);
    expect(await readFile(join(dir, '.git', 'index'))).toEqual(before);
  });
});

describe('what the fast path leaves to isomorphic-git gives the same answers', () => {
  it('a branch without commits, an unresolved merge, a split index, core.autocrlf', async () => {
    const unborn = await tempRepo();
    await put(unborn, 'new.md', 'new\n');
    expect(await fastRows(unborn)).toBeNull();
    expect(await workingTreeChanges(unborn)).toEqual([{ path: 'new.md', status: 'added' }]);

    const merging = await cliCommitted({ 'a.md': 'a\n', 'b.md': 'b\n' });
    await gitCli(merging, 'checkout', '-qb', 'other');
    await put(merging, 'a.md', 'other\n');
    await gitCli(merging, 'commit', '-qam', 'other');
    await gitCli(merging, 'checkout', '-q', 'main');
    await put(merging, 'a.md', 'main\n');
    await gitCli(merging, 'commit', '-qam', 'main');
    await expect(gitCli(merging, 'merge', '-q', 'other')).rejects.toThrow();
    expect(await fastRows(merging)).toBeNull();
    expect(await workingTreeChanges(merging)).toEqual([{ path: 'a.md', status: 'modified' }]);

    const split = await cliCommitted(content);
    await gitCli(split, 'update-index', '--split-index');
    await put(split, 'a.md', 'edited\n');
    await expectAgreement(split, { fallback: true });

    const crlf = await cliCommitted({ 'a.md': 'a\n' });
    await gitCli(crlf, 'config', 'core.autocrlf', 'true');
    await put(crlf, 'a.md', 'a\r\n');
    expect(await fastRows(crlf)).toBeNull();
    expect(await workingTreeChanges(crlf)).toEqual([]);
  });
});

describe('commitWorkingTree with the fast detection', () => {
  it('commits what git add -A && git commit would, from an index the git CLI wrote', async () => {
    const dir = await cliCommitted(content);
    await put(dir, 'a.md', 'edited\n');
    await rm(join(dir, 'guides/b.md'));
    await put(dir, 'new/page.md', 'new\n');
    await put(dir, 'README.md', '# Home, staged\n');
    await gitCli(dir, 'add', 'README.md');
    await put(dir, 'README.md', '# Home\n');
    await put(dir, 'ignored.log', 'ignored\n');
    const expected = { ...content, 'a.md': 'edited\n', 'new/page.md': 'new\n' } as Record<string, string>;
    delete expected['guides/b.md'];

    const oid = await commitWorkingTree(dir, { message: 'save', author });
    expect(asText(await readTreeFiles(dir, oid!))).toEqual(expected);
    expect(await cliStatus(dir)).toEqual([]);
    expect(await expectAgreement(dir)).toEqual([]);
  });
});
