import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentTree } from '../../src/model/index.js';
import { indexRevision, linkStats, listLinks, resolveLink, targetKey, type ResolveContext } from '../../src/content/links/index.js';
import { joinPath } from '../../src/content/tree/paths.js';
import { pagePaths } from '../../src/content/tree/paths.js';
import { walkPages } from '../../src/content/tree/page-tree.js';
import { treeArb } from './tree-arbitraries.js';

const APP = 'https://docs.example/app/';

const tree: ContentTree = {
  pages: [
    { id: 'intro', type: 'document', title: 'Intro', slug: 'intro', document: 'd1', pages: [] },
    {
      id: 'guides',
      type: 'document',
      title: 'Guides',
      slug: 'guides',
      document: 'd2',
      pages: [{ id: 'install', type: 'document', title: 'Install', slug: 'install', document: 'd3', pages: [] }],
    },
    {
      id: 'ref',
      type: 'group',
      title: 'Reference',
      slug: 'reference',
      pages: [
        { id: 'api', type: 'document', title: 'API', slug: 'api', pages: [] },
        { id: 'site', type: 'link', title: 'Site', slug: 'site', href: 'https://example.com', pages: [] },
      ],
    },
  ],
  files: [{ id: 'f-logo', name: 'logo.png', contentType: 'image/png', size: 3, blob: 'b1' }],
  variables: {},
  reusableContents: [],
};

const anchors: Record<string, string[]> = { intro: ['welcome'], install: ['requirements', 'steps'], guides: [] };
const ctx = (from: string): ResolveContext => ({
  index: indexRevision(tree),
  from,
  anchors: (id) => (anchors[id] ? new Set(anchors[id]) : undefined),
  appPrefixes: [APP],
});

describe('resolveLink', () => {
  it.each([
    // [from, url, status, target]
    ['intro', 'https://example.com/x', 'ok', { kind: 'url', url: 'https://example.com/x' }],
    ['intro', 'mailto:a@b.c', 'ok', { kind: 'url', url: 'mailto:a@b.c' }],
    ['intro', `${APP}spaces/s1/pages/p1`, 'in-app', { kind: 'url', url: `${APP}spaces/s1/pages/p1` }],
    ['intro', '#welcome', 'ok', { kind: 'page', page: 'intro', anchor: 'welcome' }],
    ['intro', '#nowhere', 'broken', { kind: 'url', url: '#nowhere' }],
    ['intro', 'guides/install.md', 'ok', { kind: 'page', page: 'install' }],
    ['intro', './guides/install.md#steps', 'ok', { kind: 'page', page: 'install', anchor: 'steps' }],
    ['intro', 'guides/install.md#missing', 'broken', { kind: 'url', url: 'guides/install.md#missing' }],
    ['intro', 'guides/README.md', 'ok', { kind: 'page', page: 'guides' }],
    ['install', 'README.md', 'ok', { kind: 'page', page: 'guides' }],
    ['install', '../README.md', 'ok', { kind: 'page', page: 'intro' }],
    ['install', '../../README.md', 'broken', { kind: 'url', url: '../../README.md' }],
    ['install', '../reference/api.md', 'ok', { kind: 'page', page: 'api' }],
    ['install', '../.gitbook/assets/logo.png', 'ok', { kind: 'file', file: 'f-logo' }],
    ['install', '../.gitbook/assets/gone.png', 'broken', { kind: 'url', url: '../.gitbook/assets/gone.png' }],
    ['intro', '.gitbook/assets/logo%2Epng', 'ok', { kind: 'file', file: 'f-logo' }],
    ['intro', '/files/f-logo', 'ok', { kind: 'file', file: 'f-logo' }],
    ['intro', '/files/nope', 'broken', { kind: 'url', url: '/files/nope' }],
    ['intro', '/pages/install#requirements', 'ok', { kind: 'page', page: 'install', anchor: 'requirements' }],
    ['intro', '/pages/deleted', 'broken', { kind: 'url', url: '/pages/deleted' }],
    ['intro', '/guides/install', 'ok', { kind: 'page', page: 'install' }],
    ['intro', '/reference', 'ok', { kind: 'page', page: 'ref' }],
    ['intro', 'missing.md', 'broken', { kind: 'url', url: 'missing.md' }],
    // A page without a document has no headings.
    ['intro', 'reference/api.md#x', 'broken', { kind: 'url', url: 'reference/api.md#x' }],
    // Malformed escapes are kept as written and name nothing.
    ['intro', '#%E0%A4%A', 'broken', { kind: 'url', url: '#%E0%A4%A' }],
    ['intro', 'guides/install.md#%zz', 'broken', { kind: 'url', url: 'guides/install.md#%zz' }],
    ['intro', 'guides/%zz.md', 'broken', { kind: 'url', url: 'guides/%zz.md' }],
  ] as const)('from %s, %s is %s', (from, url, status, target) => {
    expect(resolveLink(url, ctx(from))).toEqual({ status, target });
  });
});

describe('resolveLink on any input', () => {
  it('never throws, and a broken link keeps the URL as written', () => {
    const piece = fc.constantFrom(
      '/',
      '#',
      '%',
      '%E0',
      '..',
      '.',
      'pages',
      'files',
      '.gitbook',
      'assets',
      'intro',
      '.md',
      ':',
      '?',
      ' ',
      'é',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(piece, { maxLength: 10 }).map((p) => p.join('')),
        ),
        fc.constantFrom('intro', 'install', 'api'),
        (url, from) => {
          const result = resolveLink(url, ctx(from));
          if (result.status === 'broken') expect(result.target).toEqual({ kind: 'url', url });
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('joinPath', () => {
  const segment = fc.constantFrom('a', 'b', 'c', '..', '.', '');
  it('never leaves `.`, `..` or empty segments, and is undefined only when climbing above the root', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b'), { maxLength: 3 }), fc.array(segment, { maxLength: 8 }), (dir, rel) => {
        const joined = joinPath(dir.join('/'), rel.join('/'));
        let depth = dir.length;
        let climbsOut = false;
        for (const s of rel) {
          if (s === '..') {
            if (depth === 0) climbsOut = true;
            else depth -= 1;
          } else if (s !== '' && s !== '.') depth += 1;
        }
        if (climbsOut) {
          expect(joined).toBeUndefined();
        } else {
          const parts = joined === '' ? [] : joined!.split('/');
          expect(parts).toHaveLength(depth);
          expect(parts.every((p) => p !== '' && p !== '.' && p !== '..')).toBe(true);
        }
      }),
    );
  });
});

/** The relative path from folder `dir` to `path`, as a Git Sync export writes links. */
function relativePath(dir: string, path: string): string {
  const from = dir === '' ? [] : dir.split('/');
  const to = path.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common += 1;
  return [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
}

describe('links between pages of random trees', () => {
  it('a relative link from any page to any document page resolves to it; a stable ref too', () => {
    fc.assert(
      fc.property(treeArb, (random) => {
        const paths = pagePaths(random.pages);
        const index = indexRevision(random);
        const pages = [...walkPages(random.pages)];
        for (const from of pages) {
          const dir = (paths.get(from.id)?.gitPath ?? '').split('/').slice(0, -1).join('/');
          const c: ResolveContext = { index, from: from.id, anchors: () => undefined, appPrefixes: [] };
          for (const to of pages) {
            const url = relativePath(dir, paths.get(to.id)!.gitPath!);
            expect(resolveLink(url, c)).toEqual({ status: 'ok', target: { kind: 'page', page: to.id } });
            expect(resolveLink(`/pages/${to.id}`, c)).toEqual({ status: 'ok', target: { kind: 'page', page: to.id } });
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('links to a removed page become broken, and nothing else changes', () => {
    fc.assert(
      fc.property(
        treeArb.filter((t) => t.pages.length > 1),
        fc.nat(),
        (random, pick) => {
          const all = [...walkPages(random.pages)];
          const links = new Map(all.map((p) => [p.id, all.map((q) => `/pages/${q.id}`)]));
          const sources = { links: (id: string) => links.get(id), anchors: () => undefined, appPrefixes: [] };
          const victim = random.pages[pick % random.pages.length]!;
          const gone = new Set([...walkPages([victim])].map((p) => p.id));
          const after: ContentTree = { ...random, pages: random.pages.filter((p) => p !== victim) };
          const entries = listLinks(after, sources);
          for (const entry of entries) {
            const brokenTarget = entry.target.kind === 'url' && gone.has(entry.target.url.slice('/pages/'.length));
            expect(entry.status).toBe(brokenTarget ? 'broken' : 'ok');
            expect(entry.sources.every((id) => !gone.has(id))).toBe(true);
          }
          expect(linkStats(entries)).toEqual({ total: all.length, broken: gone.size });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('listLinks', () => {
  it('groups links by target, keeps each linking page once, in document order', () => {
    const written: Record<string, string[]> = {
      intro: ['guides/install.md', 'https://example.com', 'guides/install.md', '', '#welcome'],
      guides: ['install.md', 'missing.md', '../.gitbook/assets/logo.png'],
      install: ['../README.md', '/files/f-logo'],
    };
    const entries = listLinks(tree, {
      links: (id) => written[id],
      anchors: (id) => (anchors[id] ? new Set(anchors[id]) : undefined),
      appPrefixes: [APP],
    });
    expect(entries.map((e) => [e.key, e.status, e.sources])).toEqual([
      ['page:install', 'ok', ['intro', 'guides']],
      ['url:https://example.com', 'ok', ['intro']],
      ['page:intro#welcome', 'ok', ['intro']],
      ['url:missing.md', 'broken', ['guides']],
      ['file:f-logo', 'ok', ['guides', 'install']],
      ['page:intro', 'ok', ['install']],
    ]);
    expect(linkStats(entries)).toEqual({ total: 6, broken: 1 });
    expect(
      listLinks(tree, { links: (id) => written[id], anchors: () => undefined, appPrefixes: [] }, new Set(['install'])).map((e) =>
        targetKey(e.target),
      ),
    ).toEqual(['page:intro', 'file:f-logo']);
  });
});
