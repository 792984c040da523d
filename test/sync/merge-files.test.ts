import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergeFiles } from '../../src/sync/pull/merge-files.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
const folder = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([k, v]) => [k, enc(v)]));
const text = (m: Map<string, Uint8Array>) => Object.fromEntries([...m].map(([k, v]) => [k, dec(v)]));

describe('mergeFiles', () => {
  it('takes each side where only it changed, and merges both-side text edits by line', () => {
    const base = folder({ 'a.md': 'one\ntwo\nthree\n', 'b.md': 'b\n', 'c.md': 'c\n' });
    const ours = folder({ 'a.md': 'ONE\ntwo\nthree\n', 'b.md': 'b local\n', 'c.md': 'c\n', 'new-local.md': 'x\n' });
    const theirs = folder({ 'a.md': 'one\ntwo\nTHREE\n', 'b.md': 'b\n', 'new-remote.md': 'y\n' });
    const result = mergeFiles(base, ours, theirs);
    expect(result.conflicts).toEqual([]);
    expect(text(result.files)).toEqual({ 'a.md': 'ONE\ntwo\nTHREE\n', 'b.md': 'b local\n', 'new-local.md': 'x\n', 'new-remote.md': 'y\n' });
  });

  it('leaves markers where both changed the same lines, and keeps an edited file the other side deleted', () => {
    const base = folder({ 'a.md': 'title\nline\n', 'gone.md': 'old\n' });
    const ours = folder({ 'a.md': 'title\nlocal line\n', 'gone.md': 'edited locally\n' });
    const theirs = folder({ 'a.md': 'title\nremote line\n' });
    const result = mergeFiles(base, ours, theirs);
    expect(result.conflicts).toEqual(['a.md', 'gone.md']);
    expect(dec(result.files.get('a.md'))).toBe('title\n<<<<<<< local\nlocal line\n=======\nremote line\n>>>>>>> remote\n');
    expect(dec(result.files.get('gone.md'))).toBe('edited locally\n');
  });

  it('keeps our bytes for a binary file both sides changed', () => {
    const base = new Map([['img.png', new Uint8Array([0xff, 0x00, 1])]]);
    const ours = new Map([['img.png', new Uint8Array([0xff, 0x00, 2])]]);
    const theirs = new Map([['img.png', new Uint8Array([0xff, 0x00, 3])]]);
    const result = mergeFiles(base, ours, theirs);
    expect(result.conflicts).toEqual(['img.png']);
    expect([...result.files.get('img.png')!]).toEqual([0xff, 0x00, 2]);
  });

  it('an unchanged side yields the other side exactly', () => {
    const files = fc.dictionary(fc.constantFrom('a.md', 'b.md', 'c/d.md', 'e.md'), fc.string(), { maxKeys: 4 });
    fc.assert(
      fc.property(files, files, (b, t) => {
        const base = folder(b);
        const theirs = folder(t);
        expect(text(mergeFiles(base, base, theirs).files)).toEqual(text(theirs));
        expect(text(mergeFiles(base, theirs, base).files)).toEqual(text(theirs));
      }),
    );
  });
});
