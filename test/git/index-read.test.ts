import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderIndex } from '../../src/git/format/index-file.js';
import { parseIndex, type ParsedIndex, type StoredIndexEntry } from '../../src/git/format/index-read.js';
import { gitCli, tempRepo } from './helpers.js';

const put = async (dir: string, path: string, data: string) => {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), data);
};

const sample = {
  'README.md': '# Home\n',
  'a.md': 'a\n',
  'a/b.md': 'b\n',
  'a-b.md': 'ab\n',
  'guides/deep/er/page.md': 'deep\n',
  'é/ü.md': 'unicode\n',
  '日本/ページ.md': 'ja\n',
  '😀.md': 'emoji\n',
};

async function cliRepo(): Promise<string> {
  const dir = await tempRepo();
  for (const [path, data] of Object.entries(sample)) await put(dir, path, data);
  await gitCli(dir, 'add', '-A');
  await gitCli(dir, 'commit', '-qm', 'first');
  return dir;
}

function parsed(data: Buffer): ParsedIndex {
  const result = parseIndex(data);
  if ('unsupported' in result) throw new Error(`unsupported: ${result.unsupported}`);
  return result;
}

const readIndex = async (dir: string) => parsed(await readFile(join(dir, '.git', 'index')));

/** What `git ls-files --debug` prints of each entry, in the parser's terms. */
async function cliEntries(dir: string) {
  const debug = await gitCli(dir, 'ls-files', '--debug', '--stage', '-z');
  const pattern =
    /(\d+) ([0-9a-f]{40}) (\d)\t([^\0]+)\0 {2}ctime: (\d+):(\d+)\n {2}mtime: (\d+):(\d+)\n {2}dev: (\d+)\tino: (\d+)\n {2}uid: (\d+)\tgid: (\d+)\n {2}size: (\d+)\tflags: ([0-9a-f]+)\n/g;
  return [...debug.matchAll(pattern)].map((m) => ({
    path: m[4],
    oid: m[2],
    mode: parseInt(m[1]!, 8),
    stage: Number(m[3]),
    ctimeSeconds: Number(m[5]),
    ctimeNanoseconds: Number(m[6]),
    mtimeSeconds: Number(m[7]),
    mtimeNanoseconds: Number(m[8]),
    dev: Number(m[9]),
    ino: Number(m[10]),
    uid: Number(m[11]),
    gid: Number(m[12]),
    size: Number(m[13]),
  }));
}

const comparable = (entries: StoredIndexEntry[]) =>
  entries.map(({ offset: _offset, assumeValid: _a, skipWorktree: _s, intentToAdd: _i, ...rest }) => rest);

describe('parseIndex', () => {
  it('reads an index the git CLI wrote (version 2, with its TREE extension) entry for entry as git lists it', async () => {
    const dir = await cliRepo();
    const index = await readIndex(dir);
    expect(index.version).toBe(2);
    expect(index.extensions).toContain('TREE');
    expect(comparable(index.entries)).toEqual(await cliEntries(dir));
    expect(index.entries.map((e) => e.path)).toEqual(Object.keys(sample).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  });

  it('reads version 3 (extended flags: intent-to-add, skip-worktree) and version 4 (prefix-compressed paths)', async () => {
    const dir = await cliRepo();
    const v2 = await readIndex(dir);

    await put(dir, 'later.md', 'later\n');
    await gitCli(dir, 'add', '-N', 'later.md');
    await gitCli(dir, 'update-index', '--skip-worktree', 'a.md');
    const v3 = await readIndex(dir);
    expect(v3.version).toBe(3);
    expect(comparable(v3.entries)).toEqual(await cliEntries(dir));
    expect(v3.entries.filter((e) => e.intentToAdd).map((e) => e.path)).toEqual(['later.md']);
    expect(v3.entries.filter((e) => e.skipWorktree).map((e) => e.path)).toEqual(['a.md']);
    await gitCli(dir, 'update-index', '--no-skip-worktree', 'a.md');
    await gitCli(dir, 'rm', '-q', '--cached', 'later.md');

    await gitCli(dir, 'update-index', '--index-version', '4');
    const v4 = await readIndex(dir);
    expect(v4.version).toBe(4);
    expect(comparable(v4.entries)).toEqual(comparable(v2.entries));
    expect(comparable(v4.entries)).toEqual(await cliEntries(dir));
  });

  it('reads each entry’s offset: its stat fields start there, in every version', async () => {
    const dir = await cliRepo();
    for (const version of ['2', '4']) {
      await gitCli(dir, 'update-index', '--index-version', version);
      const data = await readFile(join(dir, '.git', 'index'));
      for (const entry of parsed(data).entries) {
        expect(data.readUInt32BE(entry.offset + 8)).toBe(entry.mtimeSeconds);
        expect(data.toString('hex', entry.offset + 40, entry.offset + 60)).toBe(entry.oid);
      }
    }
  });

  it('reads what renderIndex writes, paths longer than the 12-bit length field included', () => {
    const long = `${'folder/'.repeat(700)}page.md`;
    const stat = {
      ctimeNs: 1_700_000_000_123_456_789n,
      mtimeNs: 1_700_000_001_000_000_001n,
      dev: 2n ** 40n + 7n,
      ino: 42n,
      uid: 1000n,
      gid: 100n,
      size: 12n,
    };
    const oid = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';
    const index = parsed(
      renderIndex([
        { path: long, oid, stat },
        { path: 'b.md', oid, stat },
      ]),
    );
    expect(index.entries.map((e) => e.path)).toEqual(['b.md', long]);
    expect(comparable(index.entries)[1]).toEqual({
      path: long,
      oid,
      mode: 0o100644,
      stage: 0,
      ctimeSeconds: 1_700_000_000,
      ctimeNanoseconds: 123_456_789,
      mtimeSeconds: 1_700_000_001,
      mtimeNanoseconds: 1,
      dev: 7,
      ino: 42,
      uid: 1000,
      gid: 100,
      size: 12,
    });
  });

  it('keeps the sides of an unresolved merge as stages 1 to 3', async () => {
    const dir = await cliRepo();
    await gitCli(dir, 'checkout', '-qb', 'other');
    await put(dir, 'a.md', 'other\n');
    await gitCli(dir, 'commit', '-qam', 'other');
    await gitCli(dir, 'checkout', '-q', 'main');
    await put(dir, 'a.md', 'main\n');
    await gitCli(dir, 'commit', '-qam', 'main');
    await expect(gitCli(dir, 'merge', '-q', 'other')).rejects.toThrow();
    const stages = (await readIndex(dir)).entries.filter((e) => e.path === 'a.md').map((e) => e.stage);
    expect(stages).toEqual([1, 2, 3]);
  });

  it('refuses, with the reason, what it does not read: a split index, another version, a bad checksum, garbage', async () => {
    const dir = await cliRepo();
    const data = await readFile(join(dir, '.git', 'index'));

    const corrupt = Buffer.from(data);
    corrupt[20] = corrupt[20]! ^ 1;
    expect(parseIndex(corrupt)).toEqual({ unsupported: 'index checksum mismatch' });

    const v5 = Buffer.from(data);
    v5.writeUInt32BE(5, 4);
    expect(parseIndex(withChecksum(v5))).toEqual({ unsupported: 'index format version 5' });
    expect(parseIndex(Buffer.alloc(0))).toMatchObject({ unsupported: expect.stringContaining('DIRC') });

    await gitCli(dir, 'update-index', '--split-index');
    expect(parseIndex(await readFile(join(dir, '.git', 'index')))).toEqual({ unsupported: 'index extension "link"' });
  });
});

function withChecksum(data: Buffer): Buffer {
  const out = Buffer.from(data);
  createHash('sha1')
    .update(out.subarray(0, -20))
    .digest()
    .copy(out, out.length - 20);
  return out;
}
