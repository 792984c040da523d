import { execFileSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, readFileAt, readTreeFiles } from '../../src/git/index.js';
import { treeObject } from '../../src/git/format/object-format.js';
import { asText, author, files, gitCli, tempRepo } from './helpers.js';

/** Loose objects (`objects/xx/...`) and pack files of a repository. */
async function stored(dir: string): Promise<{ loose: string[]; packs: string[] }> {
  const objects = join(dir, '.git', 'objects');
  const loose: string[] = [];
  for (const prefix of (await readdir(objects)).filter((name) => /^[0-9a-f]{2}$/.test(name))) {
    for (const rest of await readdir(join(objects, prefix))) loose.push(prefix + rest);
  }
  const packs = (await readdir(join(objects, 'pack')).catch(() => [])).sort();
  return { loose: loose.sort(), packs };
}

/** `n` pages in a few folders, with unicode names and one file shared by two paths. */
function pages(n: number, tag = ''): Map<string, string | Uint8Array> {
  const map = files({
    'README.md': `# Home${tag}\n`,
    'é/ünï.md': 'unicode\n',
    '日本/ページ.md': 'ja\n',
    'copy-of-readme.md': `# Home${tag}\n`,
    'bin.png': new Uint8Array([0, 1, 2, 255]),
  });
  for (let i = 0; i < n; i += 1) map.set(`section-${i % 7}/page-${i}.md`, `# Page ${i}${tag}\n\nText of page ${i}.\n`);
  return map;
}

describe('object store', () => {
  it('writes a large commit as one pack that git verifies, reads and fscks, and isomorphic-git reads back', async () => {
    const dir = await tempRepo();
    const content = pages(300);
    const oid = await commitFiles(dir, { branch: 'main', parent: null, files: content, message: 'clone', author, timestamp: 1 });
    const { loose, packs } = await stored(dir);
    // Only the commit is loose; every blob and tree is in the pack.
    expect(loose).toEqual([oid]);
    expect(packs).toEqual([expect.stringMatching(/^pack-[0-9a-f]{40}\.idx$/), expect.stringMatching(/^pack-[0-9a-f]{40}\.pack$/)]);
    const verify = await gitCli(dir, 'verify-pack', '-v', join('.git', 'objects', 'pack', packs[0]!));
    // 304 distinct blobs (the copy shares README's) and 10 trees (root, 7 sections, é, 日本), no deltas.
    expect(verify).toMatch(/non delta: 314 objects/);
    expect(verify).toMatch(/: ok\n$/);
    await gitCli(dir, 'fsck', '--strict', '--no-dangling');
    expect(await gitCli(dir, 'show', 'main:日本/ページ.md')).toBe('ja\n');
    expect(await gitCli(dir, 'ls-tree', '-r', '--name-only', 'main')).toBe(
      `${[...content.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))).join('\n')}\n`,
    );
    expect(asText(await readTreeFiles(dir, oid))).toEqual(
      Object.fromEntries([...content].map(([path, data]) => [path, Buffer.from(data).toString('utf8')])),
    );
    expect(await readFileAt(dir, oid, 'bin.png')).toEqual(new Uint8Array([0, 1, 2, 255]));
  });

  it('stores only the objects the repository lacks: a packed blob is not written again', async () => {
    const dir = await tempRepo();
    const first = await commitFiles(dir, { branch: 'main', files: pages(300), message: 'one', author, timestamp: 1 });
    const before = await stored(dir);
    const next = pages(300);
    next.set('section-3/page-3.md', 'edited\n');
    const second = await commitFiles(dir, { branch: 'main', files: next, message: 'two', author, timestamp: 2 });
    const after = await stored(dir);
    expect(after.packs).toEqual(before.packs);
    // The commit, the edited blob, and the two trees above it: too few for a pack.
    const added = after.loose.filter((oid) => !before.loose.includes(oid));
    const revParse = async (spec: string) => (await gitCli(dir, 'rev-parse', spec)).trim();
    expect(added.sort()).toEqual(
      [second, await revParse('main:section-3/page-3.md'), await revParse('main:section-3'), await revParse('main^{tree}')].sort(),
    );
    expect((await gitCli(dir, 'diff', '--name-only', first, second)).trim()).toBe('section-3/page-3.md');
    await gitCli(dir, 'fsck', '--strict', '--no-dangling');
  });

  it('writes fewer than 100 new objects loose, as git does below transfer.unpackLimit', async () => {
    const dir = await tempRepo();
    await commitFiles(dir, { branch: 'main', files: pages(20), message: 'small', author });
    const { loose, packs } = await stored(dir);
    expect(packs).toEqual([]);
    expect(loose.length).toBe(20 + 4 + 10 + 1); // pages, other blobs, trees, commit
    await gitCli(dir, 'fsck', '--strict', '--no-dangling');
  });

  it('keeps blobs over 1 MiB loose, so reading a page never loads them with the pack', async () => {
    const dir = await tempRepo();
    const content = pages(200);
    const big = Buffer.alloc(3 << 19, 'incompressible? no, but over the limit ');
    content.set('.gitbook/assets/big.bin', big);
    const oid = await commitFiles(dir, { branch: 'main', files: content, message: 'big', author });
    const bigOid = (await gitCli(dir, 'rev-parse', 'main:.gitbook/assets/big.bin')).trim();
    const { loose, packs } = await stored(dir);
    expect(packs).toHaveLength(2);
    expect(loose).toContain(bigOid);
    expect((await gitCli(dir, 'cat-file', '-s', bigOid)).trim()).toBe(String(3 << 19));
    expect(Buffer.compare(await readFileAt(dir, oid, '.gitbook/assets/big.bin'), big)).toBe(0);
    await gitCli(dir, 'fsck', '--strict', '--no-dangling');
  });
});

describe('treeObject', () => {
  it('orders entries as git does: a folder sorts as if its name ended in /', () => {
    const oid = '0'.repeat(40);
    const tree = treeObject([
      { mode: '100644', name: 'a0', oid },
      { mode: '40000', name: 'a', oid },
      { mode: '100644', name: 'a.md', oid },
      { mode: '40000', name: 'a-b', oid },
      { mode: '100644', name: 'é', oid },
      { mode: '100644', name: 'z', oid },
    ]);
    const names = Buffer.from(tree.content)
      .toString('latin1')
      .split(/\0[\s\S]{20}/)
      .filter(Boolean)
      .map((entry) => Buffer.from(entry, 'latin1').toString('utf8'));
    expect(names).toEqual(['40000 a-b', '100644 a.md', '40000 a', '100644 a0', '100644 z', '100644 é']);
  });
});

describe('treeObject with every mode git writes', () => {
  it('gives the oid git mktree gives for files, executables, symbolic links, folders and submodules', async () => {
    const dir = await tempRepo();
    const oid = (n: number) => n.toString(16).padStart(40, '0');
    const items = [
      { mode: '100644', name: 'page.md', oid: oid(1) },
      { mode: '100755', name: 'run.sh', oid: oid(2) },
      { mode: '120000', name: 'link', oid: oid(3) },
      { mode: '40000', name: 'folder', oid: oid(4) },
      { mode: '160000', name: 'module', oid: oid(5) },
    ] as const;
    const type = { '100644': 'blob', '100755': 'blob', '120000': 'blob', '40000': 'tree', '160000': 'commit' };
    const listing = items.map((item) => `${item.mode} ${type[item.mode]} ${item.oid}\t${item.name}\n`).join('');
    const expected = execFileSync('git', ['mktree', '--missing'], { cwd: dir, input: listing, encoding: 'utf8' }).trim();
    expect(treeObject(items).oid).toBe(expected);
  });
});
