import { execFile } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import * as git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { readTreeEntries } from '../../src/git/objects/fast-read.js';
import { readPackEntry } from '../../src/git/objects/pack-entry.js';
import { readObject } from '../../src/git/objects/read-object.js';
import { repo } from '../../src/git/repo.js';
import { gitCli, tempDir, withFastPaths } from './helpers.js';

// docsync's own object reader (src/git/objects/read-object.ts) against git itself: every object
// of random repositories, loose and packed the ways git packs (gc, repack -adf with offset or oid
// deltas, 64-bit offsets in the index), read back as `git cat-file` shows it.

withFastPaths();

const run = promisify(execFile);

type Packing = 'loose' | 'gc' | 'repack' | 'ref-delta' | 'large-offsets';

/** Lines shared between files and commits, so that git finds deltas between their blobs and trees. */
const line = fc.constantFrom(
  'alpha\n',
  'beta\n',
  '# Title\n',
  '\n',
  'a much longer line of prose that goes on and on for a while\n',
  'é 日本\n',
);
const content = fc.array(line, { minLength: 0, maxLength: 40 }).map((ls) => ls.join(''));
const name = fc.constantFrom('README.md', 'SUMMARY.md', 'page.md', 'guides/install.md', 'guides/deep/a.md', 'b');
const commit = fc.dictionary(name, content, { minKeys: 1, maxKeys: 6 });

async function writeHistory(dir: string, commits: Record<string, string>[]): Promise<void> {
  await gitCli(dir, 'init', '-q', '-b', 'main');
  for (const [i, files] of commits.entries()) {
    await Promise.all((await readdir(dir)).filter((entry) => entry !== '.git').map((entry) => rm(join(dir, entry), { recursive: true })));
    for (const [path, text] of Object.entries(files)) {
      // A file and a folder of the same name cannot both be: the folder wins.
      if (Object.keys(files).some((other) => other.startsWith(`${path}/`))) continue;
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    await gitCli(dir, 'add', '-A');
    await gitCli(dir, 'commit', '-q', '--allow-empty', '-m', `commit ${i}`);
  }
  await gitCli(dir, 'tag', '-a', '-m', 'a tag', 'v1');
}

async function pack(dir: string, packing: Packing): Promise<void> {
  if (packing === 'gc') await gitCli(dir, 'gc', '-q', '--prune=now');
  if (packing === 'repack') await gitCli(dir, 'repack', '-adfq', '--depth=50', '--window=50');
  if (packing === 'ref-delta') await gitCli(dir, '-c', 'repack.useDeltaBaseOffset=false', 'repack', '-adfq');
  if (packing === 'large-offsets') {
    await gitCli(dir, 'repack', '-adfq');
    const folder = join(dir, '.git', 'objects', 'pack');
    const name = (await readdir(folder)).find((n) => n.endsWith('.pack'))!;
    // Every object past offset 12 (all of them) gets its offset from the index's 64-bit table.
    await rm(join(folder, name.replace(/\.pack$/, '.idx')), { force: true });
    await gitCli(dir, 'index-pack', '--index-version=2,12', join(folder, name));
  }
}

/** Every object of the repository as git shows it: oid, type and content. */
async function gitObjects(dir: string): Promise<{ oid: string; type: string; content: Buffer }[]> {
  const listed = await gitCli(dir, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)');
  const objects = [];
  for (const row of listed.trim().split('\n')) {
    const [oid, type] = row.split(' ') as [string, string];
    objects.push({ oid, type, content: await catFile(dir, type, oid) });
  }
  return objects;
}

/** The object's bytes (gitCli gives text, and a blob need not be UTF-8). */
async function catFile(dir: string, type: string, oid: string): Promise<Buffer> {
  return (await run('git', ['cat-file', type, oid], { cwd: dir, encoding: 'buffer', maxBuffer: 64 << 20 })).stdout;
}

/** A tree's entries as git ls-tree lists them, in the order isomorphic-git gives them. */
async function lsTree(dir: string, oid: string) {
  const listed = await gitCli(dir, 'ls-tree', oid);
  return listed
    .split('\n')
    .filter(Boolean)
    .map((row) => {
      const [meta, path] = row.split('\t') as [string, string];
      const [mode, type, oid] = meta.split(' ') as [string, string, string];
      return { mode, path, oid, type };
    })
    .sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

describe('object reader', () => {
  it('reads every object of random repositories as git cat-file does, however git packed them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(commit, { minLength: 1, maxLength: 4 }),
        fc.constantFrom<Packing>('loose', 'gc', 'repack', 'ref-delta', 'large-offsets'),
        async (commits, packing) => {
          const dir = await tempDir();
          await writeHistory(dir, commits);
          await pack(dir, packing);
          const r = await repo(dir);
          for (const object of await gitObjects(dir)) {
            const read = await readObject(r.gitdir, object.oid);
            expect(read?.type).toBe(object.type);
            expect(read!.content.equals(object.content)).toBe(true);
            if (object.type === 'tree' || object.type === 'commit') {
              const entries = await readTreeEntries(r, object.oid);
              expect(entries).toEqual(await lsTree(dir, object.oid));
              // isomorphic-git cannot read an index with 64-bit offsets (it looks for the pack's
              // checksum at the wrong place): one more reason for a reader of our own.
              if (packing !== 'large-offsets')
                expect(entries).toEqual((await git.readTree({ fs: r.fs, gitdir: r.gitdir, oid: object.oid })).tree);
            }
          }
          expect(await readObject(r.gitdir, '0'.repeat(40))).toBeNull();
        },
      ),
      { numRuns: 25 },
    );
    // Each run makes a repository with the git CLI: minutes on a loaded machine, as the other git property tests.
  }, 240_000);

  it.each([
    ['ofs-delta', 'repack'],
    ['ref-delta', 'ref-delta'],
  ] as const)('resolves chains of %s entries', async (kind, packing) => {
    const dir = await tempDir();
    const page = Array.from({ length: 200 }, (_, i) => `line ${i} of a long page\n`);
    const commits = Array.from({ length: 8 }, (_, c) => ({ 'page.md': page.map((l, i) => (i % 25 === c ? `edited ${c}\n` : l)).join('') }));
    await writeHistory(dir, commits);
    await pack(dir, packing);
    const folder = join(dir, '.git', 'objects', 'pack');
    const packFile = join(
      folder,
      (await readdir(folder)).find((n) => n.endsWith('.pack'))!,
    );
    const verified = await gitCli(dir, 'verify-pack', '-v', packFile.replace(/\.pack$/, '.idx'));
    const offsets = [...verified.matchAll(/^[0-9a-f]{40} \w+ +\d+ \d+ (\d+)/gm)].map((m) => Number(m[1]));
    const kinds = offsets.map((offset) => readPackEntry(packFile, offset).kind);
    // The repository holds what the test is about: deltas of this kind, on deltas.
    expect(kinds.filter((k) => k === kind).length).toBeGreaterThan(2);
    expect(verified).toMatch(/chain length = [2-9]/);
    const r = await repo(dir);
    for (const object of await gitObjects(dir)) expect((await readObject(r.gitdir, object.oid))!.content.equals(object.content)).toBe(true);
  });
});
