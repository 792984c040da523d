import { describe, expect, it } from 'vitest';
import { branchOid, commitFiles, createBranch, isAncestor, log, mergeBase } from '../../src/git/index.js';
import { author, files, gitCli, tempRepo } from './helpers.js';

/**
 *   a - b - c        main
 *        \
 *         d - m      side (m merges c)
 *  u                 unrelated (root commit of its own)
 */
async function history() {
  const dir = await tempRepo();
  const commit = (branch: string, parent: string | null, body: string, mergeParents: string[] = []) =>
    commitFiles(dir, {
      branch,
      parent,
      mergeParents,
      files: files({ 'f.md': body }),
      message: body,
      author,
      timestamp: 1_700_000_000 + body.charCodeAt(0),
    });
  const a = await commit('main', null, 'a');
  const b = await commit('main', a, 'b');
  const c = await commit('main', b, 'c');
  await createBranch(dir, 'side', b);
  const d = await commit('side', b, 'd');
  const m = await commit('side', d, 'm', [c]);
  const u = await commit('unrelated', null, 'u');
  return { dir, a, b, c, d, m, u };
}

describe('history', () => {
  it('log lists what git log lists, newest first, with parents and authors', async () => {
    const { dir, a, b, c, m } = await history();
    const entries = await log(dir, 'side');
    expect(entries.map((e) => e.oid)).toEqual((await gitCli(dir, 'log', '--format=%H', 'side')).trim().split('\n'));
    expect(entries[0]).toMatchObject({ oid: m, message: 'm\n', author: { ...author, timestamp: 1_700_000_000 + 'm'.charCodeAt(0) } });
    expect(entries[0]!.parents).toHaveLength(2);
    expect((await log(dir, 'main', 2)).map((e) => e.oid)).toEqual([c, b]);
    expect((await log(dir, a)).map((e) => e.parents)).toEqual([[]]);
    await expect(log(dir, 'nope')).rejects.toMatchObject({ code: 'not-found', data: { branch: 'nope' } });
  });

  it('isAncestor answers as git merge-base --is-ancestor, including a commit with itself', async () => {
    const { dir, ...oids } = await history();
    const names = Object.keys(oids) as (keyof typeof oids)[];
    for (const x of names) {
      for (const y of names) {
        const cli = await gitCli(dir, 'merge-base', '--is-ancestor', oids[x], oids[y]).then(
          () => true,
          () => false,
        );
        expect(await isAncestor(dir, oids[x], oids[y]), `${x} ancestor of ${y}`).toBe(cli);
      }
    }
    expect(await isAncestor(dir, 'main', 'side')).toBe(true);
  });

  it('mergeBase answers as git merge-base, and null for unrelated histories', async () => {
    const { dir, a, b, c, d, m, u } = await history();
    for (const [x, y] of [
      [c, d],
      [d, c],
      [m, c],
      [a, m],
      [c, b],
    ] as const) {
      expect(await mergeBase(dir, x, y)).toBe((await gitCli(dir, 'merge-base', x, y)).trim());
    }
    expect(await mergeBase(dir, 'main', 'side')).toBe(c);
    expect(await mergeBase(dir, c, u)).toBeNull();
    expect(await branchOid(dir, 'unrelated')).toBe(u);
  });
});
