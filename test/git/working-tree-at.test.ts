import fs, { utimesSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { commitFiles, isGitError, workingTreeChanges, workingTreeChangesAt } from '../../src/git/index.js';
import { parseIndex, type ParsedIndex } from '../../src/git/format/index-read.js';
import { repo } from '../../src/git/repo.js';
import { fastStatusRows } from '../../src/git/working-tree/status-matrix.js';
import { author, files, gitCli, tempRepo, withFastPaths } from './helpers.js';

// These tests are about the fast paths themselves: on even in the suite's DOCSYNC_GIT_FAST_PATHS=off run.
withFastPaths();

const put = async (dir: string, path: string, data: string) => {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), data);
};

const content = {
  'README.md': '# Home\n',
  'a.md': 'a\n',
  'guides/install.md': 'install\n',
  'guides/deep/page.md': 'deep\n',
  'other/page.md': 'other\n',
  '.gitignore': '*.log\nbuild/\n',
};

async function clone(start: Record<string, string> = content) {
  const dir = await tempRepo();
  await commitFiles(dir, { branch: 'main', parent: null, files: files(start), message: 'clone', author, checkout: true });
  return dir;
}

/** The same files committed by the git CLI. */
async function cliCommitted(start: Record<string, string>) {
  const dir = await tempRepo();
  for (const [path, data] of Object.entries(start)) await put(dir, path, data);
  await gitCli(dir, 'add', '-A');
  await gitCli(dir, 'commit', '-qm', 'first');
  return dir;
}

const fastFallsBack = async (dir: string) => (await fastStatusRows(await repo(dir))) === null;

describe('workingTreeChangesAt', () => {
  it('reports the paths given and what is under the folders among them, nothing else', async () => {
    const dir = await clone();
    await put(dir, 'a.md', 'edited\n');
    await put(dir, 'README.md', '# Home\n'); // touched, unchanged
    await rm(join(dir, 'guides'), { recursive: true }); // a folder deleted whole
    await put(dir, 'other/new.md', 'new\n');
    await put(dir, 'other/debug.log', 'ignored\n');
    await put(dir, 'unasked.md', 'not asked about\n');

    expect(await workingTreeChangesAt(dir, ['a.md', 'README.md', 'guides', 'other'])).toEqual([
      { path: 'a.md', status: 'modified' },
      { path: 'guides/deep/page.md', status: 'deleted' },
      { path: 'guides/install.md', status: 'deleted' },
      { path: 'other/new.md', status: 'added' },
    ]);
    expect(await workingTreeChangesAt(dir, ['guides/deep/page.md', 'other/debug.log', 'missing.md'])).toEqual([
      { path: 'guides/deep/page.md', status: 'deleted' },
    ]);
    expect(await workingTreeChangesAt(dir, [])).toEqual([]);
    expect((await workingTreeChanges(dir)).map((change) => change.path)).toContain('unasked.md');
  });

  it('a file turned into a folder and a folder into a file', async () => {
    const dir = await clone();
    await rm(join(dir, 'a.md'));
    await put(dir, 'a.md/inner.md', 'inner\n');
    await rm(join(dir, 'guides'), { recursive: true });
    await put(dir, 'guides', 'now a file\n');
    expect(await workingTreeChangesAt(dir, ['a.md', 'guides'])).toEqual([
      { path: 'a.md', status: 'deleted' },
      { path: 'a.md/inner.md', status: 'added' },
      { path: 'guides', status: 'added' },
      { path: 'guides/deep/page.md', status: 'deleted' },
      { path: 'guides/install.md', status: 'deleted' },
    ]);
    // The watcher may name only the new file: the file of HEAD on its way is not reported then.
    expect(await workingTreeChangesAt(dir, ['a.md/inner.md'])).toEqual([{ path: 'a.md/inner.md', status: 'added' }]);
  });

  it('reports a file staged and then put back as HEAD has it as unchanged', async () => {
    const dir = await cliCommitted(content);
    await put(dir, 'a.md', 'staged\n');
    await gitCli(dir, 'add', 'a.md');
    await put(dir, 'a.md', 'a\n');
    expect(await workingTreeChangesAt(dir, ['a.md'])).toEqual([]);
    await gitCli(dir, 'rm', '-q', '--cached', 'other/page.md'); // a staged deletion, file still there
    expect(await workingTreeChangesAt(dir, ['other'])).toEqual([]);
  });

  it('never reports what is under .git', async () => {
    const dir = await clone();
    await put(dir, '.git/docsync/state.json', '{}');
    expect(await workingTreeChangesAt(dir, ['.git', '.git/index', '.git/docsync/state.json'])).toEqual([]);
  });

  it('refreshes the stat data of a file touched but unchanged, as the full walk does', async () => {
    const dir = await clone();
    utimesSync(join(dir, 'a.md'), 1_000_000, 1_000_000);
    expect(await workingTreeChangesAt(dir, ['a.md'])).toEqual([]);
    const { entries } = parseIndex(await readFile(join(dir, '.git', 'index'))) as ParsedIndex;
    expect(entries.find((entry) => entry.path === 'a.md')?.mtimeSeconds).toBe(1_000_000);
  });

  it('refuses a path that leaves the working tree', async () => {
    const dir = await clone();
    for (const path of ['', '/etc/passwd', '../x.md', 'a/../../x.md', 'a//b.md', './a.md', 'a.md/']) {
      await expect(workingTreeChangesAt(dir, [path])).rejects.toSatisfy((error) => isGitError(error, 'invalid-path'));
    }
  });
});

describe('workingTreeChangesAt gives null where the full walk leaves its fast path', () => {
  it('a branch without commits', async () => {
    const dir = await tempRepo();
    await put(dir, 'new.md', 'new\n');
    expect(await fastFallsBack(dir)).toBe(true);
    expect(await workingTreeChangesAt(dir, ['new.md'])).toBeNull();
  });

  it('core.autocrlf', async () => {
    const dir = await cliCommitted({ 'a.md': 'a\n' });
    await gitCli(dir, 'config', 'core.autocrlf', 'true');
    await put(dir, 'a.md', 'a\r\n');
    expect(await fastFallsBack(dir)).toBe(true);
    expect(await workingTreeChangesAt(dir, ['a.md'])).toBeNull();
  });

  it('an unresolved merge, even at other paths', async () => {
    const dir = await cliCommitted({ 'a.md': 'a\n', 'b.md': 'b\n' });
    await gitCli(dir, 'checkout', '-qb', 'other');
    await put(dir, 'a.md', 'other\n');
    await gitCli(dir, 'commit', '-qam', 'other');
    await gitCli(dir, 'checkout', '-q', 'main');
    await put(dir, 'a.md', 'main\n');
    await gitCli(dir, 'commit', '-qam', 'main');
    await expect(gitCli(dir, 'merge', '-q', 'other')).rejects.toThrow();
    expect(await fastFallsBack(dir)).toBe(true);
    expect(await workingTreeChangesAt(dir, ['b.md'])).toBeNull();
  });

  it('an index our reader does not take (a split index)', async () => {
    const dir = await cliCommitted(content);
    await gitCli(dir, 'update-index', '--split-index');
    await put(dir, 'a.md', 'edited\n');
    expect(await fastFallsBack(dir)).toBe(true);
    expect(await workingTreeChangesAt(dir, ['a.md'])).toBeNull();
  });

  it('a submodule in the index, even at other paths', async () => {
    const dir = await cliCommitted(content);
    const commit = (await gitCli(dir, 'rev-parse', 'HEAD')).trim();
    await gitCli(dir, 'update-index', '--add', '--cacheinfo', `160000,${commit},modules/lib`);
    expect(await fastFallsBack(dir)).toBe(true);
    expect(await workingTreeChangesAt(dir, ['a.md'])).toBeNull();
  });

  it('a submodule in HEAD that the index lacks, at other paths too', async () => {
    const dir = await cliCommitted(content);
    const commit = (await gitCli(dir, 'rev-parse', 'HEAD')).trim();
    await gitCli(dir, 'update-index', '--add', '--cacheinfo', `160000,${commit},guides/lib`);
    await gitCli(dir, 'commit', '-qm', 'submodule');
    await gitCli(dir, 'rm', '-q', '--cached', 'guides/lib'); // the index no longer has it, HEAD does
    expect(await fastFallsBack(dir)).toBe(true);
    expect(await workingTreeChangesAt(dir, ['guides/install.md'])).toBeNull();
    expect(await workingTreeChangesAt(dir, ['guides'])).toBeNull();
    expect(await workingTreeChangesAt(dir, ['a.md'])).toBeNull();
  });
});

describe('workingTreeChangesAt on an index isomorphic-git wrote', () => {
  it('agrees with workingTreeChanges', async () => {
    const dir = await tempRepo();
    for (const [path, data] of Object.entries(content)) await put(dir, path, data);
    await git.add({ fs, dir, filepath: Object.keys(content) });
    await git.commit({ fs, dir, message: 'first', author });
    await put(dir, 'guides/install.md', 'edited\n');
    await put(dir, 'guides/new.md', 'new\n');
    const expected = (await workingTreeChanges(dir)).filter((change) => change.path.startsWith('guides/'));
    expect(expected).toHaveLength(2);
    expect(await workingTreeChangesAt(dir, ['guides'])).toEqual(expected);
  });
});
