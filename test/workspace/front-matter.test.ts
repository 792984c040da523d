import { describe, expect, it } from 'vitest';
import {
  KEY_ORDER,
  parsePageFile,
  readPageMeta,
  renderFrontMatter,
  renderPageFile,
  renderPageMeta,
  splitFrontMatter,
} from '../../src/workspace/index.js';

const fileIds = new Map([['cover.png', 'f1']]);
const idOf = (name: string) => fileIds.get(name);
const nameOf = (id: string) => (id === 'f1' ? 'cover.png' : undefined);

// Every key docsync reads, in the order it writes them, with an unknown key last.
const every = `---
description: >-
  A description long enough that GitBook folds it over two lines of its front
  matter block.
icon: rocket
emoji: 🚀
cover: ../.gitbook/assets/cover.png
coverY: 12
coverHeight: 300
layout:
  width: wide
  cover:
    visible: true
    size: full
    mask: radial
  title:
    visible: false
  description:
    visible: true
  tableOfContents:
    visible: false
  outline:
    visible: true
  pagination:
    visible: false
  metadata:
    visible: true
  tags:
    visible: false
  actions:
    visible: true
  anchors:
    visible: false
hidden: true
noIndex: true
noRobotsIndex: true
tags:
  - beta
metaLinks:
  canonical: https://example.com/
vars:
  product: Docsync
  seats: 3
  beta: true
if: visitor.claims.plan == "pro"
x-owner: docs-team
---
`;

describe('page front matter', () => {
  it('reads every GitBook key into its page field; unknown keys, tags and metaLinks are kept', () => {
    const split = splitFrontMatter(every);
    if (!split.ok) throw new Error(split.message);
    const read = readPageMeta(split.value.data, 'guides/page.md', idOf);
    expect(read.errors).toEqual([]);
    expect(read.meta).toEqual({
      description: 'A description long enough that GitBook folds it over two lines of its front matter block.',
      icon: 'rocket',
      emoji: '🚀',
      cover: { ref: { kind: 'file', file: 'f1' }, yPos: 12, height: 300 },
      layout: {
        width: 'wide',
        cover: true,
        coverSize: 'full',
        coverMask: 'radial',
        title: false,
        description: true,
        tableOfContents: false,
        outline: true,
        pagination: false,
        metadata: true,
        tags: false,
        actions: true,
        anchors: false,
      },
      hidden: true,
      noIndex: true,
      noRobotsIndex: true,
      variables: { product: 'Docsync', seats: 3, beta: true },
      condition: 'visitor.claims.plan == "pro"',
    });
    expect(read.extra).toEqual({ tags: ['beta'], metaLinks: { canonical: 'https://example.com/' }, 'x-owner': 'docs-team' });
    // Writing the fields and the kept keys gives the block back, byte for byte.
    expect(renderFrontMatter(renderPageMeta(read.meta, read.extra, 'guides/page.md', nameOf))).toBe(every);
    expect(Object.keys(renderPageMeta(read.meta, read.extra, 'guides/page.md', nameOf))).toEqual([...KEY_ORDER, 'x-owner']);
  });

  it('writes known keys in GitBook order whatever order they came in, unknown keys after', () => {
    const meta = renderPageMeta({ icon: 'a', description: 'b', hidden: true }, { zeta: 1, alpha: 2 }, 'p.md', nameOf);
    expect(renderFrontMatter(meta)).toBe('---\ndescription: b\nicon: a\nhidden: true\nzeta: 1\nalpha: 2\n---\n');
  });

  it('reads cover URLs, and keeps a cover whose file is missing as written (reported)', () => {
    expect(readPageMeta({ cover: 'https://x.test/c.png', coverY: 0 }, 'p.md', idOf).meta.cover).toEqual({
      ref: { kind: 'url', url: 'https://x.test/c.png' },
      yPos: 0,
    });
    const missing = readPageMeta({ cover: '../.gitbook/assets/gone.png', coverY: 0 }, 'a/p.md', idOf);
    expect(missing.meta.cover).toBeUndefined();
    expect(missing.extra).toEqual({ cover: '../.gitbook/assets/gone.png', coverY: 0 });
    expect(missing.missing).toEqual([['cover', '.gitbook/assets/gone.png']]);
  });

  it('reads `false` flags as the default and never writes them', () => {
    const read = readPageMeta({ hidden: false, noIndex: false }, 'p.md', idOf);
    expect(read.meta).toEqual({});
    expect(renderPageMeta({ hidden: false }, {}, 'p.md', nameOf)).toEqual({});
  });

  it('names the key of a wrongly typed value', () => {
    const read = readPageMeta(
      { hidden: 'yes', icon: 3, layout: { width: 'huge' }, vars: { a: [1] }, coverY: 1, cover: 'x.png' },
      'p.md',
      idOf,
    );
    expect(read.errors).toEqual([
      ['hidden', 'front matter `hidden` must be true or false, got "yes"'],
      ['icon', 'front matter `icon` must be a string, got 3'],
      ['layout', 'front matter `layout.width` must be default or wide, got "huge"'],
      ['vars', 'front matter `vars` must map names to strings, numbers or booleans'],
    ]);
  });

  it('reports bad YAML with the file line it is on', () => {
    expect(splitFrontMatter('---\ndescription: ok\nicon: [unclosed\n---\n# T\n')).toMatchObject({ ok: false, line: 4 });
    expect(splitFrontMatter('---\n- a list\n---\n')).toEqual({
      ok: false,
      line: 2,
      message: 'front matter must be a YAML mapping (`key: value` lines)',
    });
    const split = splitFrontMatter('---\ndescription: x\nicon: y\n---\nbody');
    expect(split.ok && [...split.value.lines]).toEqual([
      ['description', 2],
      ['icon', 3],
    ]);
  });
});

describe('page files', () => {
  it('writes front matter, a blank line, the title heading, a blank line, the markdown', () => {
    expect(renderPageFile({ icon: 'x' }, 'Title', 'Body.\n')).toBe('---\nicon: x\n---\n\n# Title\n\nBody.\n');
    expect(renderPageFile({}, 'Title', 'Body.\n')).toBe('# Title\n\nBody.\n');
    expect(renderPageFile({}, 'Empty', '')).toBe('# Empty\n\n');
  });

  it('leaves the title heading out when the markdown opens with a different one (GitBook keeps it as content)', () => {
    expect(renderPageFile({}, 'Short', '# Longer heading\n\nText\n')).toBe('# Longer heading\n\nText\n');
    expect(parsePageFile('# Longer heading\n\nText\n', 'Short')).toMatchObject({ ok: true, markdown: '# Longer heading\n\nText\n' });
    // The same heading as the title is written once more, so it survives the round trip.
    const file = renderPageFile({}, 'Same', '# Same\n\nText\n');
    expect(file).toBe('# Same\n\n# Same\n\nText\n');
    expect(parsePageFile(file, 'Same')).toMatchObject({ ok: true, markdown: '# Same\n\nText\n' });
  });

  it('reads a file without a title heading as all markdown, and says it has none; written back so', () => {
    expect(parsePageFile('---\ndescription: d\n---\n\nText\n', 'T')).toEqual({
      ok: true,
      frontMatter: { description: 'd' },
      yaml: 'description: d\n',
      lines: new Map([['description', 2]]),
      markdown: 'Text\n',
      titleHeading: false,
    });
    expect(renderPageFile('description: d\n', 'T', 'Text\n', false)).toBe('---\ndescription: d\n---\n\nText\n');
    expect(renderPageFile('', 'T', 'Text\n', false)).toBe('Text\n');
    // GitBook's form otherwise, and a heading that is the title is written as the title heading.
    expect(renderPageFile('', 'T', 'Text\n')).toBe('# T\n\nText\n');
    expect(parsePageFile('# T\n\nText\n', 'T')).toMatchObject({ markdown: 'Text\n', titleHeading: true });
    expect(parsePageFile('# Other\n\nText\n', 'T')).toMatchObject({ markdown: '# Other\n\nText\n', titleHeading: true });
  });

  it("keeps an empty page's blank lines after its title as GitBook writes them", () => {
    for (const file of ['# T\n', '# T\n\n', '# T\n\n\n\n', '# T\n  \n']) {
      const parsed = parsePageFile(file, 'T');
      expect(parsed.ok && renderPageFile('', 'T', parsed.markdown, parsed.titleHeading)).toBe(file);
    }
    expect(parsePageFile('# T\n\n', 'T')).toMatchObject({ markdown: '' });
  });
});
