import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { branchOid, initRepo, isGitError, openRepo, readTreeFiles } from '../../src/git/index.js';
import { gitCli, tempDir } from './helpers.js';

describe('initRepo and openRepo', () => {
  it('init makes a repository git accepts, HEAD on the default branch; running it again changes nothing', async () => {
    const dir = join(await tempDir(), 'new', 'workspace');
    expect(await initRepo(dir)).toBe(dir);
    expect((await gitCli(dir, 'symbolic-ref', 'HEAD')).trim()).toBe('refs/heads/main');
    await initRepo(dir, { defaultBranch: 'other' });
    expect((await gitCli(dir, 'symbolic-ref', 'HEAD')).trim()).toBe('refs/heads/main');
    const custom = await initRepo(join(dir, '..', 'custom'), { defaultBranch: 'trunk' });
    expect((await gitCli(custom, 'symbolic-ref', 'HEAD')).trim()).toBe('refs/heads/trunk');
  });

  it('open finds the repository from a subfolder, and names the folder when there is none', async () => {
    const root = await tempDir();
    const dir = await initRepo(join(root, 'ws'));
    await mkdir(join(dir, 'guides', 'deep'), { recursive: true });
    expect(await openRepo(join(dir, 'guides', 'deep'))).toBe(dir);
    expect(await openRepo(dir)).toBe(dir);

    const outside = join(root, 'plain');
    await mkdir(outside);
    const error = await openRepo(outside).catch((e: unknown) => e);
    expect(isGitError(error, 'not-a-repo')).toBe(true);
    expect((error as Error).message).toContain(outside);
    // Every other function names the folder the same way.
    await expect(branchOid(outside, 'main')).rejects.toMatchObject({ code: 'not-a-repo', data: { dir: outside } });
    await expect(readTreeFiles(join(root, 'missing'), 'a'.repeat(40))).rejects.toMatchObject({ code: 'not-a-repo' });
  });
});
