import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import * as git from 'isomorphic-git';
import { checkoutPaths, commitEdits, commitFiles, commitWorkingTree, workingTreeChanges } from '../../src/git/index.js';
import { invalidateCacheTree, parseCacheTree, renderCacheTree } from '../../src/git/format/cache-tree.js';
import { editIndex } from '../../src/git/format/index-edit.js';
import { parseIndex, type ParsedIndex } from '../../src/git/format/index-read.js';
import { checkCacheTree, readCacheTree } from './cache-tree-check.js';
import { author, gitCli, tempRepo, withFastPaths } from './helpers.js';

// These tests are about the fast paths themselves: on even in the suite's DOCSYNC_GIT_FAST_PATHS=off run.
withFastPaths();

/** Tree objects the git layer hashes (object-format's objectOid of type tree). */
const hashed = vi.hoisted(() => ({ trees: 0 }));
vi.mock('../../src/git/format/object-format.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/git/format/object-format.js')>();
  return {
    ...actual,
    objectOid: (type: Parameters<typeof actual.objectOid>[0], content: Uint8Array) => {
      if (type === 'tree') hashed.trees += 1;
      return actual.objectOid(type, content);
    },
  };
});

const FOLDERS = 20;
const FILES = 10;

/** A clone-like repository: FOLDERS folders of FILES pages, checked out by docsync. */
async function workspace(): Promise<string> {
  const files = new Map<string, string>();
  for (let i = 0; i < FOLDERS * FILES; i += 1) files.set(`section-${Math.floor(i / FILES)}/page-${i % FILES}.md`, `page ${i}\n`);
  files.set('README.md', 'home\n');
  const dir = await tempRepo();
  await commitFiles(dir, { branch: 'main', parent: null, files, message: 'clone', author, checkout: true });
  return dir;
}

const cli = (dir: string, ...args: string[]) => gitCli(dir, '-c', 'user.name=Cli Author', '-c', 'user.email=cli@example.com', ...args);

function indexOf(dir: string): { data: Buffer; parsed: ParsedIndex } {
  const data = readFileSync(join(dir, '.git', 'index'));
  const parsed = parseIndex(data);
  if ('unsupported' in parsed) throw new Error(parsed.unsupported);
  return { data, parsed };
}

/** Tree objects hashed by one status walk. */
async function treesHashedByStatus(dir: string): Promise<number> {
  hashed.trees = 0;
  await workingTreeChanges(dir);
  return hashed.trees;
}

beforeEach(() => {
  hashed.trees = 0;
});

describe('the index cache tree (TREE extension)', () => {
  it('reads and writes what git writes, byte for byte', async () => {
    const dir = await workspace();
    writeFileSync(join(dir, 'section-3/page-1.md'), 'edited\n');
    await cli(dir, 'commit', '-qam', 'by git');
    const { parsed } = indexOf(dir);
    const tree = parseCacheTree(parsed.cacheTree!)!;
    expect(tree.entryCount).toBe(FOLDERS * FILES + 1);
    expect(tree.oid).toBe((await cli(dir, 'rev-parse', 'HEAD^{tree}')).trim());
    expect(tree.subtrees.get('section-3')!.oid).toBe((await cli(dir, 'rev-parse', 'HEAD:section-3')).trim());
    expect(renderCacheTree(tree).equals(parsed.cacheTree!)).toBe(true);
  });

  it('an index edit invalidates the folders above the path, as git add does', async () => {
    const dir = await workspace();
    await cli(dir, 'commit', '-q', '--allow-empty', '-m', 'git writes a whole cache tree');
    const before = indexOf(dir);
    writeFileSync(join(dir, 'section-3/page-1.md'), 'edited\n');
    await cli(dir, 'add', 'section-3/page-1.md');
    const byGit = indexOf(dir).parsed.cacheTree!;
    const entry = before.parsed.entries.find((e) => e.path === 'section-3/page-1.md')!;
    const ours = editIndex(before.data, before.parsed, new Map([[entry.path, { oid: 'f'.repeat(40), mode: entry.mode, stat: [] }]]))!;
    expect(parseIndex(ours)).toMatchObject({ cacheTree: byGit });
    const invalid = invalidateCacheTree(parseCacheTree(byGit)!, ['section-3/page-1.md']);
    expect(invalid.oid).toBeUndefined();
    expect(invalid.subtrees.get('section-3')!.entryCount).toBe(-1);
    expect(invalid.subtrees.get('section-4')!.oid).toBeDefined();
  });

  it("a docsync clone, git's commits and docsync's commits leave a cache tree git agrees with, and the status hashes no folder", async () => {
    const dir = await workspace();
    expect(checkCacheTree(dir)).toBe(FOLDERS + 1);
    expect(await treesHashedByStatus(dir)).toBe(0);

    writeFileSync(join(dir, 'section-3/page-1.md'), 'edited by git\n');
    await cli(dir, 'commit', '-qam', 'by git');
    expect(checkCacheTree(dir)).toBe(FOLDERS + 1);
    expect(await treesHashedByStatus(dir)).toBe(0);

    writeFileSync(join(dir, 'section-5/page-2.md'), 'edited, committed by docsync\n');
    expect(await commitWorkingTree(dir, { message: 'save', author })).not.toBeNull();
    expect(checkCacheTree(dir)).toBe(FOLDERS + 1);
    expect(await treesHashedByStatus(dir)).toBe(0);
    expect(await cli(dir, 'status', '--porcelain')).toBe('');
  });

  it('a status after an edit git staged hashes only the folders the cache tree no longer holds', async () => {
    const dir = await workspace();
    writeFileSync(join(dir, 'section-3/page-1.md'), 'staged\n');
    await cli(dir, 'add', 'section-3/page-1.md');
    expect(await treesHashedByStatus(dir)).toBe(2); // the root and section-3
    expect(await workingTreeChanges(dir)).toEqual([{ path: 'section-3/page-1.md', status: 'modified' }]);
    expect(checkCacheTree(dir)).toBe(FOLDERS - 1);
  });

  it('checkoutPaths stages what it writes by editing those entries: the cache tree stays whole, as git checkout <commit> -- <paths> leaves it', async () => {
    const dir = await workspace();
    const head = (await cli(dir, 'rev-parse', 'HEAD')).trim();
    writeFileSync(join(dir, 'section-9/page-9.md'), 'a local edit, not committed\n');
    const next = await commitEdits(dir, {
      branch: 'main',
      parent: head,
      from: head,
      edits: new Map<string, Uint8Array | null>([
        ['section-3/page-1.md', Buffer.from('pulled\n')],
        ['section-4/page-0.md', null],
        ['section-20/page-0.md', Buffer.from('a new folder\n')],
      ]),
      message: 'pulled',
      author,
    });
    await checkoutPaths(dir, next, ['section-3/page-1.md', 'section-4/page-0.md', 'section-20/page-0.md']);
    expect(checkCacheTree(dir)).toBe(FOLDERS + 2);
    expect(await cli(dir, 'status', '--porcelain')).toBe(' M section-9/page-9.md\n');
    expect(await cli(dir, 'diff', '--cached', '--name-only')).toBe('');
    expect(await treesHashedByStatus(dir)).toBe(0);
    expect(await workingTreeChanges(dir)).toEqual([{ path: 'section-9/page-9.md', status: 'modified' }]);
  });

  it('an index without a cache tree (isomorphic-git wrote it) is hashed whole, with the same answers', async () => {
    const dir = await workspace();
    writeFileSync(join(dir, 'section-3/page-1.md'), 'edited\n');
    await git.add({ fs, dir, filepath: 'section-3/page-1.md' });
    expect(readCacheTree(dir)).toBeNull();
    expect(await treesHashedByStatus(dir)).toBe(FOLDERS + 1);
    expect(await workingTreeChanges(dir)).toEqual([{ path: 'section-3/page-1.md', status: 'modified' }]);
  });
});
