import { describe, expect, it } from 'vitest';
import { commitFiles, diffTrees, type TreeChange } from '../../src/git/index.js';
import { author, files, tempRepo } from './helpers.js';
import { cliCommit, cliNameStatus, lines } from './history-script.js';

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

function nameStatus(changes: TreeChange[]): string[] {
  return changes
    .map((c) => {
      switch (c.status) {
        case 'added':
          return `A\t${c.path}`;
        case 'modified':
          return `M\t${c.path}`;
        case 'deleted':
          return `D\t${c.path}`;
        case 'renamed':
          return `R${String(c.similarity).padStart(3, '0')}\t${c.from}\t${c.to}`;
      }
    })
    .sort();
}

const big = lines('big', 20).join('');
const long = `${'x'.repeat(200)}\n${'y'.repeat(150)}\n`; // lines longer than git's 64-byte chunks

/** A history with every kind of change the sync engine meets, committed with the git CLI. */
const steps: Record<string, string | Uint8Array>[] = [
  {
    'README.md': '# Home\n\nWelcome.\n',
    'guides/install.md': lines('install', 8).join(''),
    'guides/usage.md': lines('usage', 6).join(''),
    'notes.txt': 'notes\n',
    'a/b/c/deep.md': lines('deep', 10).join(''),
    'é/ünï.md': lines('ünïcödé', 5).join(''),
    'big.md': big,
    'dup1.md': 'same\n',
    'dup2.md': 'same\n',
    thing: 'a file that becomes a folder\n',
    'crlf.md': lines('crlf', 6).join('').replace(/\n/g, '\r\n'),
    'long.md': long,
    'subdir/file.txt': lines('base', 10).join(''),
    'bin.dat': new Uint8Array([0, 1, 2, 3, 4, 5, 0, 7]),
  },
  {
    // edit, add, delete, exact rename out of a folder
    'README.md': '# Home\n\nWelcome, again.\n',
    'guides/install.md': lines('install', 8).join(''),
    'usage.md': lines('usage', 6).join(''),
    'new.md': 'brand new\n',
    'a/b/c/deep.md': lines('deep', 10).join(''),
    'é/ünï.md': lines('ünïcödé', 5).join(''),
    'big.md': big,
    'dup1.md': 'same\n',
    'dup2.md': 'same\n',
    thing: 'a file that becomes a folder\n',
    'crlf.md': lines('crlf', 6).join('').replace(/\n/g, '\r\n'),
    'long.md': long,
    'subdir/file.txt': lines('base', 10).join(''),
    'bin.dat': new Uint8Array([0, 1, 2, 3, 4, 5, 0, 7]),
  },
  {
    // similar renames (content edited too), a move into a folder, a unicode rename,
    // CRLF turned into LF while renamed, long lines edited while renamed
    'README.md': '# Home\n\nWelcome, again.\n',
    'guides/install.md': lines('install', 8).join(''),
    'usage.md': lines('usage', 6).join(''),
    'new.md': 'brand new\n',
    'deep/deep.md': lines('deep', 9).join('') + 'changed last line\n',
    'ü/ñ/日本語.md': lines('ünïcödé', 5).join(''),
    'docs/big-renamed.md': big
      .replace('big line 003', 'BIG LINE 003')
      .replace('big line 010', 'edited 010')
      .replace('big line 017', 'edited 017'),
    'dup1.md': 'same\n',
    'dup2.md': 'same\n',
    thing: 'a file that becomes a folder\n',
    'lf.md': lines('crlf', 6).join(''),
    'long-renamed.md': `${'x'.repeat(200)}\n${'z'.repeat(150)}\n`,
    'subdir/file.txt': lines('base', 10).join(''),
    'bin.dat': new Uint8Array([0, 1, 2, 3, 4, 5, 0, 7]),
  },
  {
    // a rename below 50% is a delete and an add; two identical sources, one destination;
    // a file replaced by a folder of the same name; git's basename rule
    'README.md': '# Home\n\nWelcome, again.\n',
    'guides/install.md': lines('install', 8).join(''),
    'usage2.md': lines('usage', 2).join('') + lines('other', 6).join(''),
    'new.md': 'brand new\n',
    'deep/deep.md': lines('deep', 9).join('') + 'changed last line\n',
    'ü/ñ/日本語.md': lines('ünïcödé', 5).join(''),
    'docs/big-renamed.md': big,
    'moved/dup2.md': 'same\n',
    'thing/index.md': 'a file that becomes a folder\n',
    'lf.md': lines('crlf', 6).join(''),
    'long-renamed.md': `${'x'.repeat(200)}\n${'z'.repeat(150)}\n`,
    // file.md is more like the old subdir/file.txt (90%) than file.txt is (80%), but
    // file.txt has the same name and passes git's 75% bar, so git pairs those two.
    'file.md': lines('base', 9).join('') + 'other 1\n',
    'file.txt': lines('base', 8).join('') + 'other 1\nother 2\n',
    'bin2.dat': new Uint8Array([0, 1, 2, 3, 4, 5, 0, 8]),
  },
];

describe('diffTrees', () => {
  it('lists what git diff --name-status -M50% lists, step by step and end to end', async () => {
    const dir = await tempRepo();
    const commits: string[] = [];
    for (const [i, step] of steps.entries()) commits.push(await cliCommit(dir, step, `step ${i}`));

    const pairs: [string | null, string][] = [[null, commits[0]!]];
    for (let i = 1; i < commits.length; i++) pairs.push([commits[i - 1]!, commits[i]!]);
    pairs.push([commits[0]!, commits.at(-1)!], [commits.at(-1)!, commits[0]!]);
    for (const [from, to] of pairs) {
      const ours = nameStatus(await diffTrees(dir, from, to));
      expect(ours, `${from} -> ${to}`).toEqual(await cliNameStatus(dir, from ?? EMPTY_TREE, to));
    }
    // The cases the script meant to cover did occur.
    const all = (await Promise.all(pairs.map(([from, to]) => diffTrees(dir, from, to)))).flat();
    const renames = all.filter((c) => c.status === 'renamed');
    expect(renames.some((c) => c.similarity === 100)).toBe(true);
    expect(renames.some((c) => c.similarity < 100)).toBe(true);
    expect(renames.find((c) => c.to === 'file.txt')).toMatchObject({ from: 'subdir/file.txt', similarity: 80 });
    expect(all.some((c) => c.path === 'thing/index.md')).toBe(true);
  });

  it('agrees with git at other thresholds and can leave renames out', async () => {
    const dir = await tempRepo();
    const [a, b] = [await cliCommit(dir, steps[1]!, 'a'), await cliCommit(dir, steps[2]!, 'b')];
    for (const min of [30, 75, 90, 100]) {
      expect(nameStatus(await diffTrees(dir, a, b, { minSimilarity: min })), `-M${min}%`).toEqual(await cliNameStatus(dir, a, b, min));
    }
    const plain = await diffTrees(dir, a, b, { renames: false });
    expect(plain.every((c) => c.status !== 'renamed')).toBe(true);
    expect(plain.filter((c) => c.status === 'deleted').map((c) => c.path)).toContain('big.md');
  });

  it('reports oids and sorts by path in byte order, renames at their new path', async () => {
    const dir = await tempRepo();
    const a = await commitFiles(dir, {
      branch: 'main',
      files: files({ 'z.md': 'z\n', 'b.md': 'b\n', 'c.md': 'c\n' }),
      message: 'a',
      author,
    });
    const b = await commitFiles(dir, {
      branch: 'main',
      files: files({ 'a.md': 'z\n', 'b.md': 'B\n', '\u{1F600}.md': 'x\n', '\uFFFD.md': 'y\n' }),
      message: 'b',
      author,
    });
    const changes = await diffTrees(dir, a, b);
    expect(changes.map((c) => [c.status, c.path])).toEqual([
      ['renamed', 'a.md'],
      ['modified', 'b.md'],
      ['deleted', 'c.md'],
      ['added', '\uFFFD.md'], // U+FFFD is EF BF BD in UTF-8, before F0 9F 98 80
      ['added', '\u{1F600}.md'],
    ]);
    expect(changes[0]).toMatchObject({ from: 'z.md', to: 'a.md', similarity: 100 });
    const renamed = changes[0] as Extract<TreeChange, { status: 'renamed' }>;
    expect(renamed.oldOid).toBe(renamed.newOid);
    expect(await diffTrees(dir, b, b)).toEqual([]);
  });
});
