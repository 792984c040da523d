import { describe, expect, it } from 'vitest';
import type { ContentChange, ContentTree } from '../../../src/model/index.js';
import { findPage } from '../../../src/content/index.js';
import { apply, context, ok, page, tree } from '../changes-helpers.js';

const base = () =>
  tree([
    page('intro', 'introduction'),
    page('guides', 'guides', { type: 'group', title: 'Guides', pages: [page('install', 'install')] }),
    page('site', '', { type: 'link', title: 'Site', href: 'https://example.com' }),
  ]);

const refused = (t: ContentTree, changes: ContentChange[], message: string | RegExp) => {
  const result = apply(t, changes);
  expect(result).toMatchObject({ ok: false, status: 400 });
  if (!result.ok) expect(result.message).toMatch(message);
};

describe('insert_page with type group', () => {
  it('makes a top-level group without a document, its slug from the title or as given', () => {
    const r = ok(
      apply(base(), [
        { operation: 'insert_page', type: 'group', title: 'Getting Started', document: {} },
        { operation: 'insert_page', type: 'group', title: 'AI', slug: 'ai-tools', at: 0, hidden: true, document: { markdown: '' } },
      ]),
    );
    expect(r.tree.pages[4]).toEqual({
      id: 'new1',
      type: 'group',
      title: 'Getting Started',
      slug: 'getting-started',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      pages: [],
    });
    expect(r.tree.pages[0]).toMatchObject({ id: 'new2', type: 'group', slug: 'ai-tools', hidden: true });
    expect(r.tree.pages[0]!.document).toBeUndefined();
    expect(r.documents.size).toBe(0);
    expect(r.outcomes).toEqual([
      { object: 'created_page', page: 'new1' },
      { object: 'created_page', page: 'new2' },
    ]);
  });

  it('takes documents and link pages inserted into it', () => {
    const r = ok(
      apply(base(), [
        { operation: 'insert_page', type: 'group', title: 'Reference', ref: 'ref', document: {} },
        { operation: 'insert_page', title: 'API', into: 'guides', document: { markdown: 'Calls.\n' } },
        { operation: 'insert_page', type: 'link', title: 'Status', into: 'guides', href: 'https://status.example.com' },
      ] as ContentChange[]),
    );
    expect(findPage(r.tree.pages, 'guides')!.pages.map((p) => [p.type, p.title])).toEqual([
      ['document', 'INSTALL'],
      ['document', 'API'],
      ['link', 'Status'],
    ]);
  });

  it('refuses a group below the top level, with a document, or with fields groups do not have', () => {
    refused(
      base(),
      [{ operation: 'insert_page', type: 'group', into: 'intro', document: {} }],
      'changes[0]: into: groups are only at the top level',
    );
    refused(
      base(),
      [{ operation: 'insert_page', type: 'group', document: { markdown: 'text' } }],
      'changes[0]: document: groups have no document; send `document: {}`',
    );
    refused(
      base(),
      [{ operation: 'insert_page', type: 'group', description: 'd', document: {} }],
      'changes[0]: description: groups have no description (only document pages do)',
    );
    refused(
      base(),
      [{ operation: 'insert_page', type: 'group', linkTitle: 'Short', document: {} }],
      'changes[0]: linkTitle: groups have no linkTitle (only document pages do)',
    );
    refused(
      base(),
      [{ operation: 'insert_page', type: 'group', href: 'https://x.test', document: {} }],
      'changes[0]: href: groups have no href (only link pages do)',
    );
  });
});

describe('insert_page with type link', () => {
  it('makes a link page with its href and no slug, anywhere but under a link page', () => {
    const r = ok(
      apply(base(), [
        {
          operation: 'insert_page',
          type: 'link',
          title: 'Changelog',
          into: 'install',
          href: 'https://github.com/x/y/blob/main/CHANGELOG.md',
          document: {},
        },
        { operation: 'insert_page', type: 'link', title: 'Changelog', into: 'install', href: 'mailto:team@example.com', document: {} },
        { operation: 'insert_page', type: 'link', title: 'Top', href: 'https://top.example.com', emoji: '1f517', document: {} },
      ]),
    );
    expect(findPage(r.tree.pages, 'install')!.pages).toEqual([
      {
        id: 'new1',
        type: 'link',
        title: 'Changelog',
        slug: '',
        href: 'https://github.com/x/y/blob/main/CHANGELOG.md',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        pages: [],
      },
      expect.objectContaining({ id: 'new2', type: 'link', slug: '', href: 'mailto:team@example.com' }),
    ]);
    expect(r.tree.pages[3]).toMatchObject({ type: 'link', emoji: '1f517' });
  });

  it('does not let link pages hold slugs: a document may take the slug a link title would give', () => {
    const legacy = base();
    // Zip imports before link pages lost their slugs gave them one from the title.
    legacy.pages[2] = { ...legacy.pages[2]!, slug: 'site' };
    const r = ok(
      apply(legacy, [
        { operation: 'insert_page', type: 'link', title: 'API', href: 'https://api.example.com', document: {} },
        { operation: 'insert_page', title: 'API', slug: 'api', document: {} },
        { operation: 'insert_page', title: 'Site', document: {} },
      ]),
    );
    expect(r.tree.pages.slice(3).map((p) => p.slug)).toEqual(['', 'api', 'site']);
  });

  it('takes a link page to a section of another page as SUMMARY.md writes it (page.md#anchor)', () => {
    const r = ok(
      apply(base(), [{ operation: 'insert_page', type: 'link', title: 'Buttons', href: 'formatting/inline.md#buttons', document: {} }]),
    );
    expect(r.tree.pages.at(-1)).toMatchObject({ type: 'link', title: 'Buttons', href: 'formatting/inline.md#buttons' });
    refused(base(), [{ operation: 'insert_page', type: 'link', href: '/abs/inline.md#b', document: {} }], /href must be an absolute URL/);
  });

  it('refuses a link page without an absolute href, under a link page, with a document or a slug', () => {
    refused(
      base(),
      [{ operation: 'insert_page', type: 'link', title: 'X', document: {} }],
      'changes[0]: href: a link page needs `href`, the absolute URL it points to',
    );
    refused(
      base(),
      [{ operation: 'insert_page', type: 'link', href: 'guides/install.md', document: {} }],
      'changes[0]: href must be an absolute URL with a scheme (https://...) or a section of a page (page.md#section), got "guides/install.md"',
    );
    refused(base(), [{ operation: 'insert_page', type: 'link', href: '//cdn.example.com', document: {} }], /href must be an absolute URL/);
    refused(
      base(),
      [{ operation: 'insert_page', type: 'link', href: 'https://x.test/a\nb', document: {} }],
      'changes[0]: href must not contain control characters',
    );
    refused(
      base(),
      [{ operation: 'insert_page', type: 'link', href: 'https://x.test', slug: 'x', document: {} }],
      'changes[0]: slug: link pages have no slug (only document pages and groups do)',
    );
    refused(
      base(),
      [{ operation: 'insert_page', type: 'link', href: 'https://x.test', noIndex: true, document: {} }],
      'changes[0]: noIndex: link pages have no noIndex',
    );
    refused(
      base(),
      [
        {
          operation: 'insert_page',
          type: 'link',
          href: 'https://x.test',
          document: { document: { object: 'document', nodes: [{ object: 'block' }] } },
        },
      ],
      'changes[0]: document: link pages have no document',
    );
    refused(
      base(),
      [{ operation: 'insert_page', type: 'link', href: 'https://x.test', into: 'site', document: {} }],
      'changes[0]: into: page site is a link page, which has no subpages',
    );
  });
});

describe('document pages and the page types', () => {
  it('refuses a document under a link page and an href on a document', () => {
    refused(
      base(),
      [{ operation: 'insert_page', title: 'X', into: 'site', document: {} }],
      'changes[0]: into: page site is a link page, which has no subpages',
    );
    refused(
      base(),
      [{ operation: 'insert_page', title: 'X', href: 'https://x.test', document: {} }],
      'changes[0]: href: document pages have no href (only link pages do)',
    );
    refused(base(), [{ operation: 'update_page', page: 'intro', href: 'https://x.test' }], 'changes[0]: href: document pages have no href');
  });
});

describe('update_page on groups and link pages', () => {
  it('renames and reorders a group, ignores an empty document, and keeps its type', () => {
    const r = ok(
      apply(base(), [
        { operation: 'update_page', page: 'guides', title: 'Handbook', slug: 'handbook', at: 0, document: {} },
        { operation: 'update_page', page: 'guides', into: null, icon: 'book' },
      ]),
    );
    expect(r.tree.pages[0]).toMatchObject({ id: 'guides', type: 'group', title: 'Handbook', slug: 'handbook', icon: 'book' });
    expect(r.tree.pages[0]!.document).toBeUndefined();
    expect(r.documents.size).toBe(0);
  });

  it("sets a link page's href and title and moves it into a group or a document", () => {
    const r = ok(
      apply(base(), [
        { operation: 'update_page', page: 'site', title: 'Website', href: 'https://www.example.com' },
        { operation: 'update_page', page: 'site', into: 'guides', at: 0 },
        { operation: 'update_page', page: 'site', into: 'install' },
      ]),
    );
    expect(findPage(r.tree.pages, 'install')!.pages).toEqual([
      expect.objectContaining({ id: 'site', type: 'link', title: 'Website', href: 'https://www.example.com', slug: '' }),
    ]);
  });

  it('refuses moving a group below the top level and anything into a link page', () => {
    refused(base(), [{ operation: 'update_page', page: 'guides', into: 'intro' }], 'changes[0]: into: groups are only at the top level');
    refused(
      base(),
      [{ operation: 'update_page', page: 'intro', into: 'site' }],
      'changes[0]: into: page site is a link page, which has no subpages',
    );
    refused(base(), [{ operation: 'update_page', page: 'install', into: 'site', at: 0 }], /into: page site is a link page/);
  });

  it('refuses a document, a bad href and fields of other types', () => {
    refused(
      base(),
      [{ operation: 'update_page', page: 'guides', document: { markdown: '# Guides\n\ntext' } }],
      'changes[0]: document: groups have no document',
    );
    refused(
      base(),
      [{ operation: 'update_page', page: 'site', document: { markdown: 'text' } }],
      'changes[0]: document: link pages have no document',
    );
    refused(
      base(),
      [{ operation: 'update_page', page: 'site', href: 'not a url' }],
      'changes[0]: href must be an absolute URL with a scheme (https://...) or a section of a page (page.md#section), got "not a url"',
    );
    refused(base(), [{ operation: 'update_page', page: 'site', slug: 'site' }], 'changes[0]: slug: link pages have no slug');
    refused(
      base(),
      [{ operation: 'update_page', page: 'guides', description: 'd' }],
      'changes[0]: description: groups have no description',
    );
  });
});

describe('revert_page of link pages', () => {
  it('restores a deleted link page without a slug check', () => {
    const before = base();
    const ctx = context({ revisions: new Map([['base', before]]) });
    const deleted = ok(
      apply(
        before,
        [
          { operation: 'delete_page', page: 'site' },
          { operation: 'insert_page', type: 'link', title: 'Other', href: 'https://other.example.com', document: {} },
        ],
        ctx,
      ),
    );
    const r = ok(apply(deleted.tree, [{ operation: 'revert_page', page: 'site' }], ctx));
    expect(r.tree.pages.map((p) => [p.id, p.slug])).toEqual([
      ['intro', 'introduction'],
      ['guides', 'guides'],
      ['site', ''],
      ['new1', ''],
    ]);
  });
});
