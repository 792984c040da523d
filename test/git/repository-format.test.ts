import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitFiles, commitWorkingTree, currentBranch, workingTreeChanges, workingTreeChangesAt } from '../../src/git/index.js';
import { repo } from '../../src/git/repo.js';
import { fastStatusRows } from '../../src/git/working-tree/status-matrix.js';
import { author, files, gitCli, tempDir, tempRepo } from './helpers.js';

describe('repositories docsync cannot read or write', () => {
  it('refuses a sha256 repository before touching it', async () => {
    const dir = await tempDir();
    await gitCli(dir, 'init', '-q', '--object-format=sha256', '-b', 'main');
    await writeFile(join(dir, 'a.md'), 'a\n');
    for (const call of [() => currentBranch(dir), () => workingTreeChanges(dir), () => commitWorkingTree(dir, { message: 'x', author })]) {
      await expect(call()).rejects.toMatchObject({ code: 'unsupported-repository', message: expect.stringContaining('sha256') });
    }
    expect(await gitCli(dir, 'status', '--porcelain')).toBe('?? a.md\n');
  });

  it('refuses a repository whose refs are in reftable', async () => {
    const dir = await tempRepo();
    await gitCli(dir, 'config', 'core.repositoryformatversion', '1');
    await appendFile(join(dir, '.git', 'config'), '[extensions]\n\trefStorage = reftable\n');
    await expect(repo(dir)).rejects.toMatchObject({ code: 'unsupported-repository', message: expect.stringContaining('reftable') });
  });

  it('takes a sha1 repository that names its format', async () => {
    const dir = await tempDir();
    await gitCli(dir, 'init', '-q', '--object-format=sha1', '-b', 'main');
    await gitCli(dir, 'config', 'extensions.objectFormat', 'sha1');
    expect(await currentBranch(dir)).toBe('main');
  });
});

describe('DOCSYNC_GIT_FAST_PATHS=off', () => {
  const saved = process.env.DOCSYNC_GIT_FAST_PATHS;
  afterEach(() => {
    if (saved === undefined) delete process.env.DOCSYNC_GIT_FAST_PATHS;
    else process.env.DOCSYNC_GIT_FAST_PATHS = saved;
  });

  it('sends status and commits through isomorphic-git, with the same results', async () => {
    const results: { tree: string; changes: unknown; at: unknown }[] = [];
    for (const setting of ['on', 'off']) {
      process.env.DOCSYNC_GIT_FAST_PATHS = setting;
      const dir = await tempRepo();
      await commitFiles(dir, {
        branch: 'main',
        files: files({ 'a.md': 'a\n', 'b/c.md': 'c\n' }),
        message: 'start',
        author,
        checkout: true,
      });
      await writeFile(join(dir, 'a.md'), 'a, edited\n');
      await writeFile(join(dir, 'b', 'd.md'), 'd\n');
      expect((await fastStatusRows(await repo(dir))) === null).toBe(setting === 'off');
      const changes = await workingTreeChanges(dir);
      const at = await workingTreeChangesAt(dir, ['a.md']);
      expect(at === null).toBe(setting === 'off');
      await commitWorkingTree(dir, { message: 'edit', author });
      results.push({
        tree: (await gitCli(dir, 'rev-parse', 'main^{tree}')).trim(),
        changes,
        at: at ?? changes.filter((c) => c.path === 'a.md'),
      });
      expect(await gitCli(dir, 'status', '--porcelain')).toBe('');
    }
    expect(results[1]).toEqual(results[0]);
  });
});
