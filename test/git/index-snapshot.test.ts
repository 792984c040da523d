import { describe, expect, it } from 'vitest';
import type { StoredIndexEntry } from '../../src/git/format/index-read.js';
import { plainEntries } from '../../src/git/index/index-snapshot.js';

const entry = (path: string, more: Partial<StoredIndexEntry> = {}): StoredIndexEntry =>
  ({
    path,
    oid: '5626abf0f72e58d7a153368ba57db4c673c0e171',
    ctimeSeconds: 0,
    ctimeNanoseconds: 0,
    mtimeSeconds: 0,
    mtimeNanoseconds: 0,
    dev: 0,
    ino: 0,
    mode: 0o100644,
    uid: 0,
    gid: 0,
    size: 4,
    stage: 0,
    ...more,
  }) as StoredIndexEntry;

describe('plainEntries', () => {
  it('takes an index git would write', () => {
    expect(plainEntries([entry('a.md'), entry('a.md.bak'), entry('b/c.md'), entry('b/d/e.md')])).toBe(true);
  });

  it('leaves to isomorphic-git a file that is also a folder of another entry, at any depth', () => {
    expect(plainEntries([entry('a.md'), entry('a.md/inner.md')])).toBe(false);
    expect(plainEntries([entry('b/c'), entry('b/c/d/e.md')])).toBe(false);
  });

  it('leaves to isomorphic-git unresolved merges, submodules and paths git refuses', () => {
    expect(plainEntries([entry('a.md', { stage: 1 })])).toBe(false);
    expect(plainEntries([entry('sub', { mode: 0o160000 })])).toBe(false);
    expect(plainEntries([entry('../out.md')])).toBe(false);
  });
});
