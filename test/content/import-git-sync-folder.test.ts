import { describe, expect, it } from 'vitest';
import { appendImported, folderPages } from '../../src/content/index.js';
import type { ContentTree } from '../../src/model/index.js';

const empty: ContentTree = { pages: [], files: [], variables: {}, reusableContents: [] };
const ctx = () => {
  let n = 0;
  return { newId: () => `id${(n += 1)}`, now: '2026-01-01T00:00:00.000Z', hash: (text: string) => `d:${text}` };
};

const SUMMARY = [
  '# Table of contents',
  '',
  '* [Welcome](README.md)',
  '',
  '## Getting Started',
  '',
  '* [Detox + Jest](getting-started/detox-+-jest.md "Detox")',
  '* [Changelog](https://example.com/CHANGELOG.md)',
  '',
  '## AI',
  '',
  '* [Agent Skill: Playwright Best Practices](ai/agent-skill.md "Playwright Skill")',
  '',
].join('\n');

const files = new Map([
  ['SUMMARY.md', SUMMARY],
  ['README.md', '# Welcome\n'],
  ['getting-started/detox-+-jest.md', '# Detox + Jest\n\nBody.\n'],
  ['ai/agent-skill.md', '# Agent Skill: Playwright Best Practices\n'],
]);

describe('Git Sync folder import', () => {
  it('reads link titles, keeps file names as slugs and gives groups their folder', () => {
    const pages = folderPages(files);
    expect(pages.map((p) => [p.kind, p.slug, p.keepSlug])).toEqual([
      ['document', undefined, true],
      ['group', 'getting-started', true],
      ['group', 'ai', true],
    ]);
    expect(pages[1]!.pages[0]).toMatchObject({ slug: 'detox-+-jest', keepSlug: true, linkTitle: 'Detox' });
    expect(pages[2]!.pages[0]).toMatchObject({ slug: 'agent-skill', linkTitle: 'Playwright Skill' });
    expect(pages[1]!.pages[1]).toMatchObject({ kind: 'link', href: 'https://example.com/CHANGELOG.md' });
  });

  it('stores them in the tree: slug as given, linkTitle on the page, link pages without a slug', () => {
    const result = appendImported(empty, folderPages(files), [], ctx());
    if (!result.ok) throw new Error(result.message);
    const [welcome, started, ai] = result.value.tree.pages;
    expect(welcome).toMatchObject({ type: 'document', slug: 'welcome' });
    expect(welcome).not.toHaveProperty('linkTitle');
    expect(started).toMatchObject({ type: 'group', slug: 'getting-started', title: 'Getting Started' });
    expect(started!.pages[0]).toMatchObject({ type: 'document', slug: 'detox-+-jest', linkTitle: 'Detox', title: 'Detox + Jest' });
    expect(started!.pages[1]).toMatchObject({ type: 'link', slug: '', href: 'https://example.com/CHANGELOG.md' });
    expect(ai!.pages[0]).toMatchObject({ slug: 'agent-skill', linkTitle: 'Playwright Skill' });
  });

  it('slugifies a file name that would break a path, and names without SUMMARY.md', () => {
    const bad = appendImported(
      empty,
      [{ source: 'x', kind: 'document', title: 'Back', slug: 'back\\slash', keepSlug: true, markdown: '', pages: [] }],
      [],
      ctx(),
    );
    expect(bad.ok && bad.value.tree.pages[0]!.slug).toBe('back-slash');
    const plain = appendImported(empty, folderPages(new Map([['My Notes.md', '# Notes\n']])), [], ctx());
    expect(plain.ok && plain.value.tree.pages[0]!.slug).toBe('my-notes');
  });
});
