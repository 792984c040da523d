import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { appendImported, folderPages, htmlToMarkdown, type ImportedPage } from '../../src/content/index.js';
import type { ContentTree, TreePage } from '../../src/model/index.js';
import { sha256 } from '../../src/server/store/blobs.js';

const empty: ContentTree = { pages: [], files: [], variables: {}, reusableContents: [] };
const ctx = () => {
  let n = 0;
  return { newId: () => `id${(n += 1)}`, now: '2026-01-01T00:00:00.000Z', hash: sha256 };
};

describe('htmlToMarkdown', () => {
  it('takes <main> when there is one, the body without navigation chrome otherwise', () => {
    const page = htmlToMarkdown('<title>T</title><nav>menu</nav><main><p>Body <em>text</em></p></main><footer>f</footer>');
    expect(page).toEqual({ title: 'T', markdown: 'Body *text*', links: [] });
    const bare = htmlToMarkdown('<body><header>top</header><h1>Head</h1><p><a href="x.html">x</a></p><script>alert(1)</script></body>');
    expect(bare).toEqual({ title: 'Head', markdown: '# Head\n\n[x](x.html)', links: ['x.html'] });
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        expect(typeof htmlToMarkdown(text).markdown).toBe('string');
      }),
    );
  });
});

describe('folderPages', () => {
  it('ignores SUMMARY links that leave the folder and lists each file once', () => {
    const files = new Map([
      ['SUMMARY.md', '* [A](a.md)\n* [Up](../secret.md)\n* [A again](./a.md)\n* [Missing](missing.md)\n'],
      ['a.md', '# A\n'],
    ]);
    const pages = folderPages(files);
    expect(pages.map((p) => [p.title, p.source, p.markdown])).toEqual([
      ['A', 'a.md', '# A\n'],
      ['Missing', 'missing.md', ''],
    ]);
  });
});

const titleArb = fc.constantFrom('Intro', 'intro', 'INTRO', 'Guide', 'Café', '', '../x', 'a/b');
const pageArb: fc.Memo<ImportedPage> = fc.memo((depth) =>
  fc.record({
    source: fc.constant('test'),
    kind: fc.constant('document' as const),
    title: titleArb,
    markdown: fc.constantFrom('', 'text', '# Heading\n\nbody'),
    pages: depth > 1 ? fc.array(pageArb(depth - 1), { maxLength: 3 }) : fc.constant([]),
  }),
);

describe('appendImported', () => {
  it('keeps existing pages first, adds every imported page once, with unique safe slugs among siblings', () => {
    fc.assert(
      fc.property(fc.array(pageArb(3), { maxLength: 5 }), (pages) => {
        const existing: ContentTree = { ...empty, pages: [{ id: 'old', type: 'document', title: 'Intro', slug: 'intro', pages: [] }] };
        const result = appendImported(existing, pages, [], ctx());
        if (!result.ok) throw new Error(result.message);
        const count = (list: readonly ImportedPage[]): number => list.reduce((n, p) => n + 1 + count(p.pages), 0);
        expect(result.value.pages).toBe(count(pages));
        expect(result.value.tree.pages[0]).toBe(existing.pages[0]);
        const check = (list: readonly TreePage[]) => {
          const slugs = list.map((p) => p.slug);
          expect(new Set(slugs).size).toBe(slugs.length);
          for (const p of list) {
            expect(p.slug).toMatch(/^[^/\\.]+$/);
            if (p.document) expect(result.value.documents.has(p.document)).toBe(true);
            check(p.pages);
          }
        };
        check(result.value.tree.pages);
        expect(existing.pages).toHaveLength(1);
      }),
    );
  });

  it('fails naming the page whose front matter is invalid', () => {
    const result = appendImported(
      empty,
      [{ source: 'guides/x.md', kind: 'document', title: 'X', markdown: '---\nhidden: yes\n---\nbody\n', pages: [] }],
      [],
      ctx(),
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/^guides\/x\.md: .*hidden/);
  });
});
