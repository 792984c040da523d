import { describe, expect, it } from 'vitest';
import type { TreeChange } from '../../src/git/index.js';
import { matchRenames } from '../../src/sync/push/rename-match.js';

const enc = (text: string) => new TextEncoder().encode(text);
const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([path, text]) => [path, enc(text)]));
const del = (path: string): TreeChange => ({ status: 'deleted', path, oldOid: `old-${path}` });
const add = (path: string): TreeChange => ({ status: 'added', path, newOid: `new-${path}` });

describe('matchRenames', () => {
  it('pairs by front matter when the title changed, and by title wherever the page went', () => {
    const base = files({
      'SUMMARY.md': '# T\n\n* [A](a.md)\n* [B](b.md)\n',
      'a.md': '---\ndescription: the a page\n---\n# A\n\nold\n',
      'b.md': '# B\n\nold b\n',
    });
    const local = files({
      'SUMMARY.md': '# T\n\n* [B](guides/b.md)\n* [A renamed](x.md)\n',
      'x.md': '---\ndescription: the a page\n---\n# A renamed\n\nnew\n',
      'guides/b.md': '# B\n\nnew b\n',
    });
    const out = matchRenames([del('a.md'), del('b.md'), add('x.md'), add('guides/b.md')], base, local, 'SUMMARY.md');
    expect(out).toEqual([
      { status: 'renamed', path: 'x.md', from: 'a.md', to: 'x.md', similarity: 0, oldOid: 'old-a.md', newOid: 'new-x.md' },
      {
        status: 'renamed',
        path: 'guides/b.md',
        from: 'b.md',
        to: 'guides/b.md',
        similarity: 0,
        oldOid: 'old-b.md',
        newOid: 'new-guides/b.md',
      },
    ]);
  });

  it('does not pair a deleted page with a new one that only takes its place', () => {
    const base = files({ 'SUMMARY.md': '* [A](a.md)\n', 'a.md': '# A\n' });
    const local = files({ 'SUMMARY.md': '* [Other](o.md)\n', 'o.md': '# Other\n' });
    const changes = [del('a.md'), add('o.md')];
    expect(matchRenames(changes, base, local, 'SUMMARY.md')).toEqual(changes);
  });
});
