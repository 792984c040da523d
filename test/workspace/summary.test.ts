import { describe, expect, it } from 'vitest';
import { parseSummary, renderSummary, type Summary, type SummaryItem, type SummaryPart } from '../../src/workspace/index.js';

const items = (s: Summary, n = 0): SummaryItem[] => s.parts.filter((p) => p.type === 'items')[n]!.items;
const groups = (s: Summary) => s.parts.filter((p): p is SummaryPart & { type: 'group' } => p.type === 'group');

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
    expect(items(summary).map((i) => [i.title, i.target, i.line])).toEqual([
      ['Overview', 'README.md', 3],
      ['Guides', 'guides/README.md', 4],
      ['API', 'https://example.com/api', 7],
    ]);
    const install = items(summary)[1]!.items[0]!;
    expect(install).toMatchObject({ title: 'Install', linkTitle: 'Setup', line: 5 });
    expect(install.items[0]!.target).toBe('guides/install/deep.md');
    expect(groups(summary).map((g) => [g.title, g.line, g.items.length])).toEqual([
      ['Reference', 9, 1],
      ['Empty group', 13, 0],
      ['Last', 15, 1],
    ]);
    expect(groups(summary)[0]!.items[0]!.title).toBe('a [b] \\c');
    expect(groups(summary)[2]!.items[0]!.target).toBe('files/with space.md');
  });

  it('renders what it parses, byte for byte', () => {
    expect(renderSummary(parseSummary(canonical).summary)).toBe(canonical);
  });

  it('reads four-space indents, `-` bullets and another title (hand-edited variants)', () => {
    const { summary, errors } = parseSummary(
      '# Summary\n\n- [A](a.md)\n    - [B](a/b.md)\n        - [C](a/b/c.md)\n    - [D](a/d.md)\n+ [E](e.md)\n',
    );
    expect(errors).toEqual([]);
    expect(summary.title).toBe('Summary');
    const shape = (list: SummaryItem[]): unknown => list.map((i) => [i.title, shape(i.items)]);
    expect(shape(items(summary))).toEqual([
      [
        'A',
        [
          ['B', [['C', []]]],
          ['D', []],
        ],
      ],
      ['E', []],
    ]);
    expect(renderSummary(summary)).toBe('# Summary\n\n* [A](a.md)\n  * [B](a/b.md)\n    * [C](a/b/c.md)\n  * [D](a/d.md)\n* [E](e.md)\n');
  });

  it('reports lines outside the grammar with their line number', () => {
    const { summary, errors } = parseSummary('# TOC\n\nsome text\n* [A](a.md) trailing\n* [B](b.md)\n# Second title\n');
    expect(errors).toEqual([
      [3, 'expected `* [Title](path.md)` or a `## Group` heading'],
      [4, 'expected `* [Title](path.md)` (an item is one link)'],
      [6, 'a `# heading` may only open SUMMARY.md'],
    ]);
    expect(items(summary).map((i) => i.title)).toEqual(['B']);
  });

  it('has no title line when the summary has none', () => {
    expect(renderSummary({ parts: [{ type: 'items', items: [{ title: 'A', target: 'README.md', line: 0, items: [] }] }] })).toBe(
      '* [A](README.md)\n',
    );
  });
});

// Constructs seen in real GitBook exports (issue 14), each read, kept and written back in place.
describe('SUMMARY.md as GitBook writes it', () => {
  it('keeps `***` lines: top-level items after a group are not read into it, and are written after `***` again', () => {
    const text =
      '# Table of contents\n\n* [Home](README.md)\n\n## Basics\n\n* [Editor](basics/editor.md)\n\n***\n\n* [Page 1](page-1.md)\n* [Page 2](page-2.md)\n\n## Later\n\n* [Deep](later/deep.md)\n';
    const { summary, errors } = parseSummary(text);
    expect(errors).toEqual([]);
    expect(summary.parts.map((p) => (p.type === 'group' ? `group:${p.title}` : p.items.map((i) => i.title).join(',')))).toEqual([
      'Home',
      'group:Basics',
      'Page 1,Page 2',
      'group:Later',
    ]);
    expect(renderSummary(summary)).toBe(text);
  });

  it('reads groups with an `<a href id>` anchor (the group slug) and writes the anchor back', () => {
    const text = '# Table of contents\n\n* [Home](README.md)\n\n## <a href="#api" id="api"></a>API reference\n\n* [Auth](api/auth.md)\n';
    const { summary, errors } = parseSummary(text);
    expect(errors).toEqual([]);
    expect(summary.parts[1]).toMatchObject({ type: 'group', title: 'API reference', anchor: 'api' });
    expect(renderSummary(summary)).toBe(text);
  });

  it("reads titles with escaped characters and writes GitBook's escapes back", () => {
    const text = '* [The \\`docsync\\` tool](README.md)\n* [Arrays \\[\\] and \\\\](arrays.md "Short \\"one\\"")\n';
    const { summary, errors } = parseSummary(text);
    expect(errors).toEqual([]);
    expect(items(summary).map((i) => [i.title, i.linkTitle])).toEqual([
      ['The `docsync` tool', undefined],
      ['Arrays [] and \\', 'Short "one"'],
    ]);
    expect(renderSummary(summary)).toBe(text);
  });

  it('reads anchor, external and plain entries side by side, and `-` and `*` bullets at 2 and 4 spaces', () => {
    const text =
      '- [Inline](formatting/inline.md)\n    - [Buttons](formatting/inline.md#buttons)\n* [Site](https://example.com/x?y=1#z)\n  * [Two](two.md)\n';
    const { summary, errors } = parseSummary(text);
    expect(errors).toEqual([]);
    const shape = (list: SummaryItem[]): unknown => list.map((i) => [i.target, shape(i.items)]);
    expect(shape(items(summary))).toEqual([
      ['formatting/inline.md', [['formatting/inline.md#buttons', []]]],
      ['https://example.com/x?y=1#z', [['two.md', []]]],
    ]);
  });

  it('skips empty bullets (GitBook writes `*` for an entry it could not export)', () => {
    const { summary, errors } = parseSummary('* [A](a.md)\n*\n* [B](b.md)\n');
    expect(errors).toEqual([]);
    expect(items(summary).map((i) => i.title)).toEqual(['A', 'B']);
  });

  it('reads an OpenAPI reference block (a computed page) under an item and writes it back unchanged', () => {
    const text =
      '* [Overview](README.md)\n* [API Reference](api-reference/README.md)\n  * ```yaml\n    type: builtin:openapi\n    props:\n      models: false\n    dependencies:\n      spec:\n        ref:\n          kind: openapi\n          spec: petstore\n    ```\n* [After](after.md)\n';
    const { summary, errors } = parseSummary(text);
    expect(errors).toEqual([]);
    const block = items(summary)[1]!.items[0]!;
    expect(block.computed).toBe(
      'type: builtin:openapi\nprops:\n  models: false\ndependencies:\n  spec:\n    ref:\n      kind: openapi\n      spec: petstore',
    );
    expect(items(summary).map((i) => i.title)).toEqual(['Overview', 'API Reference', 'After']);
    expect(renderSummary(summary)).toBe(text);
  });
});
