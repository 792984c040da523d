import { describe, expect, it } from 'vitest';
import { patchFrontMatter, patchPageFrontMatter, readFrontMatter } from '../../../src/content/index.js';

const yaml = `# team
description: 'Quoted, as written'
icon: gear
layout:
  width: wide
noIndex: false
other: [1, 2]
`;

describe('front matter as written, on the server', () => {
  it('rewrites only the field a platform edit changed', () => {
    expect(
      patchPageFrontMatter(
        yaml,
        { title: 'T', slug: 't', description: 'Quoted, as written' },
        { title: 'T', slug: 't', description: 'New' },
      ),
    ).toBe(yaml.replace(`'Quoted, as written'`, 'New'));
    expect(patchPageFrontMatter(yaml, { title: 'T', slug: 't', icon: 'gear' }, { title: 'T', slug: 't' })).toBe(
      yaml.replace('icon: gear\n', ''),
    );
    expect(patchPageFrontMatter(yaml, { title: 'T', slug: 't' }, { title: 'T', slug: 't', noIndex: true })).toBe(
      yaml.replace('noIndex: false', 'noIndex: true'),
    );
    expect(
      patchPageFrontMatter(
        yaml,
        { title: 'T', slug: 't', layout: { width: 'wide' } },
        { title: 'T', slug: 't', layout: { width: 'wide', outline: false } },
      ),
    ).toBe(yaml.replace('  width: wide\n', '  width: wide\n  outline:\n    visible: false\n'));
    // Nothing changed: the text as it was.
    expect(patchPageFrontMatter(yaml, { title: 'T', slug: 't' }, { title: 'U', slug: 'u' })).toBe(yaml);
  });

  it('reads a block as written and keeps its text, and writes afresh what it cannot read', () => {
    const read = readFrontMatter(`---\n${yaml}---\n\nBody\n`);
    expect(read.ok && read.value.yaml).toBe(yaml);
    expect(read.ok && [...read.value.lines]).toEqual([
      ['description', 3],
      ['icon', 4],
      ['layout', 5],
      ['noIndex', 7],
      ['other', 8],
    ]);
    expect(patchFrontMatter('a: 1\na: 2\n', { a: 3 })).toBe('a: 3\n');
    expect(patchFrontMatter('', { b: true })).toBe('b: true\n');
  });
});
