import { describe, expect, it } from 'vitest';
import { branchOid, commitFiles, createBranch, currentBranch, deleteBranch, listBranches } from '../../src/git/index.js';
import { author, files, gitCli, tempRepo } from './helpers.js';

describe('branches', () => {
  it('create, list, resolve and delete branches the git CLI sees, packed or loose', async () => {
    const dir = await tempRepo();
    expect(await currentBranch(dir)).toBe('main');
    expect(await branchOid(dir, 'main')).toBeNull();
    expect(await listBranches(dir)).toEqual([]);

    const oid = await commitFiles(dir, { branch: 'main', parent: null, files: files({ 'a.md': 'a\n' }), message: 'a', author });
    await createBranch(dir, 'cr/12-fix-typo', oid);
    await createBranch(dir, 'cr/3-ünïcode', oid);
    expect(await listBranches(dir)).toEqual(['cr/12-fix-typo', 'cr/3-ünïcode', 'main']);
    expect((await gitCli(dir, 'branch', '--format=%(refname:short) %(objectname)')).trim().split('\n').sort()).toEqual(
      ['cr/12-fix-typo', 'cr/3-ünïcode', 'main'].map((b) => `${b} ${oid}`),
    );

    await gitCli(dir, 'pack-refs', '--all');
    expect(await branchOid(dir, 'cr/12-fix-typo')).toBe(oid);
    expect(await listBranches(dir)).toEqual(['cr/12-fix-typo', 'cr/3-ünïcode', 'main']);
    // CAS works on a packed ref too.
    const next = await commitFiles(dir, { branch: 'cr/12-fix-typo', parent: oid, files: files({ 'a.md': 'b\n' }), message: 'b', author });
    expect((await gitCli(dir, 'rev-parse', 'cr/12-fix-typo')).trim()).toBe(next);

    await deleteBranch(dir, 'cr/12-fix-typo');
    expect(await listBranches(dir)).toEqual(['cr/3-ünïcode', 'main']);
    expect(await gitCli(dir, 'branch', '--list', 'cr/12-fix-typo')).toBe('');
  });

  it('refuse what git refuses, with typed errors', async () => {
    const dir = await tempRepo();
    const oid = await commitFiles(dir, { branch: 'main', parent: null, files: files({ 'a.md': 'a\n' }), message: 'a', author });
    await expect(createBranch(dir, 'main', oid)).rejects.toMatchObject({ code: 'already-exists', data: { branch: 'main' } });
    await expect(createBranch(dir, 'new', 'a'.repeat(40))).rejects.toMatchObject({ code: 'not-found' });
    for (const bad of ['has space', 'a..b', 'x.lock', '.hidden', 'end/', 'ref@{1}', '-dash', 'a:b']) {
      await expect(createBranch(dir, bad, oid), bad).rejects.toMatchObject({ code: 'invalid-ref' });
      await expect(gitCli(dir, 'check-ref-format', '--branch', bad), bad).rejects.toThrow();
    }
    await expect(deleteBranch(dir, 'main')).rejects.toMatchObject({ code: 'checked-out' });
    await expect(deleteBranch(dir, 'nope')).rejects.toMatchObject({ code: 'not-found', data: { branch: 'nope' } });
  });
});
