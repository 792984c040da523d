import fc from 'fast-check';
import { slugify, uniqueSlug } from '../../src/content/index.js';
import {
  contentTypeOf,
  type WorkspaceContent,
  type WorkspaceDocument,
  type WorkspaceFile,
  type WorkspacePage,
} from '../../src/workspace/index.js';
import { includePaths } from '../../src/workspace/includes.js';

/** One-line unicode text, trimmed, never empty: titles and descriptions. */
const text = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 14 })
  // eslint-disable-next-line no-control-regex
  .map((s) => s.replace(/[\u0000-\u001f\u007f\u2028\u2029\u0085]/g, '').trim())
  .filter((s) => s !== '');
const title = fc.oneof(
  text,
  fc.constantFrom('Intro', 'Intro 1', 'Résumé', '日本語のページ', 'a [b] \\c', 'Plans & Pricing', '*Bold* `code`', '# Hash'),
);
/** Slugs siblings may share a prefix with: the cases that break naive path logic. */
const slug = fc.oneof(
  fc.constantFrom('intro', 'intro-1', 'intro1', 'guides', 'install', 'café-crème', 'детали', '日本'),
  text.map(slugify),
);
const line = fc.oneof(
  text,
  fc.constantFrom(
    'See [install](install.md) and [up](../README.md#setup).',
    '# Not the title',
    '## Section',
    '{% hint style="info" %}',
    '* item',
    '```js',
    'x = 1 # not a heading',
  ),
);
/** Markdown as the API stores it: no leading blank line, one final newline, or empty. */
const markdown = fc.oneof(
  fc.constant(''),
  fc
    .array(fc.oneof(line, fc.constant('')), { minLength: 1, maxLength: 6 })
    .filter((lines) => lines[0] !== '' && !lines[0]!.startsWith('---'))
    .map((lines) => `${lines.join('\n')}\n`),
);
const extraKeys = fc.option(
  fc.constantFrom('---\nx-team: docs\n---\n', '---\ntags:\n  - a\n  - b\nmetaLinks:\n  canonical: https://example.com/\n---\n'),
  { nil: undefined },
);

const layout = fc
  .record(
    {
      width: fc.constantFrom('default' as const, 'wide' as const),
      cover: fc.boolean(),
      coverSize: fc.constantFrom('hero' as const, 'full' as const),
      coverMask: fc.constantFrom('none' as const, 'radial' as const),
      title: fc.boolean(),
      description: fc.boolean(),
      tableOfContents: fc.boolean(),
      outline: fc.boolean(),
      pagination: fc.boolean(),
      metadata: fc.boolean(),
      tags: fc.boolean(),
      actions: fc.boolean(),
      anchors: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .filter((l) => Object.keys(l).length > 0);

const meta = fc.record(
  {
    emoji: fc.constantFrom('🚀', '1f4a1', '👩‍💻'),
    icon: fc.constantFrom('rocket', 'house-window', 'circle-three-quarters-stroke'),
    description: fc.oneof(
      text,
      fc.constant('A long description that GitBook folds over more than one line because it runs past eighty columns, yes.'),
    ),
    hidden: fc.constant(true),
    noIndex: fc.constant(true),
    noRobotsIndex: fc.constant(true),
    layout,
    variables: fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,6}$/), fc.oneof(text, fc.integer(), fc.boolean()), {
      minKeys: 1,
      maxKeys: 3,
    }),
    condition: fc.constantFrom('visitor.claims.plan == "pro"', 'true'),
    linkTitle: text,
    cover: fc.record({
      kind: fc.constantFrom('file', 'url'),
      yPos: fc.option(fc.integer({ min: 0, max: 500 }), { nil: undefined }),
      height: fc.option(fc.integer({ min: 10, max: 700 }), { nil: undefined }),
    }),
  },
  { requiredKeys: [] },
);

interface Spec {
  kind: 'document' | 'link' | 'anchor';
  title: string;
  slug: string;
  meta: Record<string, unknown>;
  markdown: string;
  extra?: string;
  children: Spec[];
}

const specArb: fc.Memo<Spec> = fc.memo(
  (depth) =>
    fc.record({
      kind: fc.constantFrom('document' as const, 'document' as const, 'document' as const, 'link' as const, 'anchor' as const),
      title,
      slug,
      meta,
      markdown,
      extra: extraKeys,
      children: depth <= 1 ? fc.constant([]) : fc.array(specArb(depth - 1), { maxLength: 3 }),
    }) as fc.Arbitrary<Spec>,
);

const fileArb = fc.record({
  name: fc
    .tuple(
      fc.constantFrom('logo', 'image (1)', 'Actions Banner', 'schéma', 'data'),
      fc.constantFrom('.png', '.svg', '.pdf', '.bin', '.JPG'),
    )
    .map(([n, e]) => n + e),
  bytes: fc.uint8Array({ maxLength: 16 }),
});

let next = 0;
const id = () => `id${(next += 1)}`;

/** Builds pages from specs: unique slugs among siblings, covers pointing at real files. */
function build(specs: readonly Spec[], files: readonly WorkspaceFile[]): WorkspacePage[] {
  const taken = new Set<string>();
  return specs.flatMap((spec): WorkspacePage[] => {
    if (spec.kind === 'link')
      return [{ id: id(), type: 'link', title: spec.title, href: `https://example.com/${encodeURIComponent(spec.slug)}` }];
    // A SUMMARY.md entry to a section of a page: a link page to that page and anchor.
    if (spec.kind === 'anchor')
      return [{ id: id(), type: 'link', title: spec.title, href: `${encodeURIComponent(spec.slug)}.md#${encodeURIComponent(spec.slug)}` }];
    if (taken.has(spec.slug) || /^readme$/i.test(spec.slug)) return [];
    taken.add(spec.slug);
    const { cover, ...rest } = spec.meta as { cover?: { kind: string; yPos?: number; height?: number } } & Record<string, unknown>;
    const page = {
      id: id(),
      type: 'document',
      title: spec.title,
      slug: spec.slug,
      ...rest,
      markdown: (spec.extra ?? '') + spec.markdown,
      pages: build(spec.children, files),
    } as WorkspaceDocument;
    const ref =
      cover?.kind === 'url'
        ? { kind: 'url' as const, url: 'https://example.com/cover.png' }
        : files[0]
          ? { kind: 'file' as const, file: files[0].id }
          : undefined;
    if (cover && ref)
      page.cover = {
        ref,
        ...(cover.yPos === undefined ? {} : { yPos: cover.yPos }),
        ...(cover.height === undefined ? {} : { height: cover.height }),
      };
    return [page];
  });
}

/**
 * Settles what the folder does not record, as `readFolder` does: the first page's slug is its
 * title's, and a group with no page file of its own in its folder takes its title's slug.
 */
function settle(pages: WorkspacePage[]): boolean {
  const docs = (list: readonly WorkspacePage[]): WorkspaceDocument[] =>
    list.flatMap((p) => (p.type === 'link' ? [] : [...(p.type === 'document' ? [p] : []), ...docs(p.pages)]));
  const first = docs(pages)[0];
  const tops = pages.flatMap((p) => (p.type === 'link' ? [] : [p.slug]));
  if (new Set(tops).size !== tops.length) return false;
  if (first) {
    const parent = [pages, ...pages.flatMap((p) => (p.type === 'group' ? [p.pages] : []))].find((list) => list.includes(first))!;
    first.slug = uniqueSlug(slugify(first.title), new Set(parent.flatMap((p) => (p.type === 'link' || p === first ? [] : [p.slug]))));
  }
  return true;
}

/** Workspace contents in canonical form: what `readFolder(writeFolder(c))` must give back. */
export const contentArb: fc.Arbitrary<WorkspaceContent> = fc
  .record({
    top: fc.array(specArb(5), { maxLength: 3 }),
    groups: fc.array(fc.record({ title, slug, pages: fc.array(specArb(4), { maxLength: 3 }) }), { maxLength: 3 }),
    // Top-level pages after the groups: SUMMARY.md lists them after a `***` line.
    after: fc.array(specArb(3), { maxLength: 2 }),
    files: fc.uniqueArray(fileArb, { selector: (f) => f.name, maxLength: 3 }),
    variables: fc.dictionary(fc.stringMatching(/^[A-Z][A-Z_]{0,8}$/), fc.oneof(text, fc.integer(), fc.boolean()), { maxKeys: 3 }),
    includes: fc.uniqueArray(fc.record({ title, markdown }), { selector: (i) => slugify(i.title), maxLength: 3 }),
    root: fc.constantFrom(undefined, './', './docs/'),
    summaryTitle: fc.constantFrom(undefined, 'Table of contents', 'Summary', 'Contenu'),
    redirects: fc.option(fc.dictionary(fc.constantFrom('old/page', 'a/b', 'legacy'), fc.constantFrom('README.md', 'guides/install.md')), {
      nil: undefined,
    }),
  })
  .map((spec) => {
    const files = spec.files
      .map((f) => ({ id: id(), name: f.name, contentType: contentTypeOf(f.name), bytes: f.bytes }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const groupSlugs = new Set<string>();
    const pages: WorkspacePage[] = [
      ...build(spec.top, files),
      ...spec.groups.flatMap((g): WorkspacePage[] =>
        groupSlugs.has(g.slug) || g.slug === ''
          ? []
          : (groupSlugs.add(g.slug), [{ id: id(), type: 'group', title: g.title, slug: g.slug, pages: build(g.pages, files) }]),
      ),
      ...build(spec.after, files),
    ];
    const includes = spec.includes.map((inc) => ({ id: id(), ...inc }));
    const paths = includePaths(includes);
    const reusableContents = includes
      .map((inc, i) => ({ inc, path: paths[i]! }))
      .sort((a, b) => (a.path < b.path ? -1 : 1))
      .map((x) => x.inc);
    const settings: WorkspaceContent['settings'] = {};
    if (spec.root !== undefined) settings.root = spec.root;
    if (spec.redirects !== undefined) settings.redirects = spec.redirects;
    if (spec.summaryTitle !== undefined) settings.summaryTitle = spec.summaryTitle;
    return { ok: settle(pages), content: { pages, files, variables: spec.variables, reusableContents, settings } };
  })
  .filter((x) => x.ok)
  .map((x) => x.content);
