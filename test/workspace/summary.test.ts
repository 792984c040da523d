import { describe, expect, it } from 'vitest';
import { parseSummary, renderSummary, type Summary } from '../../src/workspace/index.js';

const canonical = `# Table of contents

* [Overview](README.md)
* [Guides](guides/README.md)
  * [Install](guides/install.md "Setup")
    * [Deep](guides/install/deep.md)
* [API](https://example.com/api)

## Reference

* [a \\[b\\] \\\\c](reference/a.md)

## Empty group

## Last

* [Space name](<files/with space.md>)
`;

describe('SUMMARY.md', () => {
  it('parses items, nesting, link titles, groups and escapes with their lines', () => {
    const { summary, errors } = parseSummary(canonical);
    expect(errors).toEqual([]);
    expect(summary.title).toBe('Table of contents');
    expect(summary.items.map((i) => [i.title, i.target, i.line])).toEqual([['Overview', 'README.md', 3], ['Guides', 'guides/README.md', 4], ['API', 'https://example.com/api', 7]]);
    const install = summary.items[1]!.items[0]!;
    expect(install).toMatchObject({ title: 'Install', linkTitle: 'Setup', line: 5 });
    expect(install.items[0]!.target).toBe('guides/install/deep.md');
    expect(summary.groups.map((g) => [g.title, g.line, g.items.length])).toEqual([['Reference', 9, 1], ['Empty group', 13, 0], ['Last', 15, 1]]);
    expect(summary.groups[0]!.items[0]!.title).toBe('a [b] \\c');
    expect(summary.groups[2]!.items[0]!.target).toBe('files/with space.md');
  });

  it('renders what it parses, byte for byte', () => {
    expect(renderSummary(parseSummary(canonical).summary)).toBe(canonical);
  });

  it('reads four-space indents, `-` bullets and another title (hand-edited variants)', () => {
    const { summary, errors } = parseSummary('# Summary\n\n- [A](a.md)\n    - [B](a/b.md)\n        - [C](a/b/c.md)\n    - [D](a/d.md)\n+ [E](e.md)\n');
    expect(errors).toEqual([]);
    expect(summary.title).toBe('Summary');
    const shape = (items: Summary['items']): unknown => items.map((i) => [i.title, shape(i.items)]);
    expect(shape(summary.items)).toEqual([['A', [['B', [['C', []]]], ['D', []]]], ['E', []]]);
    expect(renderSummary(summary)).toBe('# Summary\n\n* [A](a.md)\n  * [B](a/b.md)\n    * [C](a/b/c.md)\n  * [D](a/d.md)\n* [E](e.md)\n');
  });

  it('reports lines outside the grammar with their line number', () => {
    const { summary, errors } = parseSummary('# TOC\n\nsome text\n* [A](a.md) trailing\n* [B](b.md)\n# Second title\n');
    expect(errors).toEqual([
      [3, 'expected `* [Title](path.md)` or a `## Group` heading'],
      [4, 'expected `* [Title](path.md)` (an item is one link)'],
      [6, 'a `# heading` may only open SUMMARY.md'],
    ]);
    expect(summary.items.map((i) => i.title)).toEqual(['B']);
  });

  it('has no title line when the summary has none', () => {
    expect(renderSummary({ items: [{ title: 'A', target: 'README.md', line: 0, items: [] }], groups: [] })).toBe('* [A](README.md)\n');
  });
});
