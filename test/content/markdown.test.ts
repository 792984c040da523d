import { describe, expect, it } from 'vitest';
import { classifyLink, extractLinks } from '../../src/content/markdown/links.js';
import { pageSections } from '../../src/content/markdown/sections.js';

describe('extractLinks', () => {
  it('finds links, images, definitions and HTML src/href with their lines', () => {
    const md = [
      '---',
      'description: x',
      '---',
      '# Title',
      '',
      'See [the guide](guides/install.md#setup) and ![logo](.gitbook/assets/logo.png).',
      '',
      '<figure><img src=".gitbook/assets/diagram.svg" alt=""><figcaption></figcaption></figure>',
      '',
      '[ref]: https://example.com/x',
      'Use [ref].',
    ].join('\n');
    expect(extractLinks(md)).toEqual([
      { url: 'guides/install.md#setup', kind: 'link', text: 'the guide', line: 6 },
      { url: '.gitbook/assets/logo.png', kind: 'image', text: 'logo', line: 6 },
      { url: '.gitbook/assets/diagram.svg', kind: 'html', text: '', line: 8 },
      { url: 'https://example.com/x', kind: 'definition', text: 'ref', line: 10 },
    ]);
  });

  it('ignores links inside code', () => {
    expect(extractLinks('```\n[not](a.md)\n```\n\n`[no](b.md)`\n')).toEqual([]);
  });
});

describe('classifyLink', () => {
  it.each([
    ['https://example.com', { type: 'external', url: 'https://example.com' }],
    ['mailto:a@b.c', { type: 'external', url: 'mailto:a@b.c' }],
    ['//cdn.test/x', { type: 'external', url: '//cdn.test/x' }],
    ['#install', { type: 'anchor', anchor: 'install' }],
    ['../README.md', { type: 'relative', path: '../README.md' }],
    ['guide%20one.md#a%20b', { type: 'relative', path: 'guide one.md', anchor: 'a b' }],
    ['/pages/abc123', { type: 'absolute-path', path: '/pages/abc123' }],
    ['bad%zz.md', { type: 'relative', path: 'bad%zz.md' }],
  ])('%s', (url, target) => {
    expect(classifyLink(url)).toEqual(target);
  });
});

describe('pageSections', () => {
  it('splits at headings with unique anchors and plain-text bodies', () => {
    const md = '---\ntitle: x\n---\nIntro **text**.\n\n# Welcome\n\nHello [world](a.md).\n\n## Setup\n\nStep one.\n\n## Setup\n\nAgain.\n';
    expect(pageSections(md)).toEqual({
      title: 'Welcome',
      sections: [
        { anchor: '', title: '', depth: 0, body: 'Intro text.' },
        { anchor: 'welcome', title: 'Welcome', depth: 1, body: 'Hello world.' },
        { anchor: 'setup', title: 'Setup', depth: 2, body: 'Step one.' },
        { anchor: 'setup-2', title: 'Setup', depth: 2, body: 'Again.' },
      ],
    });
  });

  it('has no sections for an empty page', () => {
    expect(pageSections('')).toEqual({ sections: [] });
  });
});
