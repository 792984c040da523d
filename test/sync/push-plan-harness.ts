import fc from 'fast-check';
import { computedSource } from '../../src/sync/push/plan/changes.js';
import { expect } from 'vitest';
import {
  DEFAULT_PAGE_LAYOUT,
  ContentChangeBatch,
  type ContentChange,
  type ContentTree,
  type PageLayout,
  type TreePage,
} from '../../src/model/index.js';
import { applyChanges, pagePaths, refPaths, renderPageMarkdown, splitTemplate, uniqueSlug } from '../../src/content/index.js';
import { relativePath } from '../../src/content/changes/render-links.js';
import { createdRefs, type ContentWriteResult } from '../../src/client/index.js';
import { checkFileItems, loadFiles } from '../../src/server/revisions/apply-batch.js';
import { sha256 } from '../../src/server/store/blobs.js';
import { findNulCharacter, validatorCompiler } from '../../src/server/validation.js';
import { planPush, type PushPlan } from '../../src/sync/push/plan/plan.js';
import { batchesOf, resolveRefs } from '../../src/sync/push/send-batches.js';
import type { WorkspaceContent, WorkspaceDocument, WorkspacePage } from '../../src/workspace/index.js';

/**
 * The planner's test bench: random workspace contents, random edits of them, and a run of a plan
 * through what a push does with it (`batchesOf`, `into` resolved as `sendBatches` does) into the
 * server's own route validation and pure batch application, on a model tree of the remote side.
 */

// ---------------------------------------------------------------------------------------------
// Values

/** Titles that trip YAML (numbers, booleans, null, colons), markdown and slugs, in many scripts. */
const TITLES = [
  'Intro',
  'Guide',
  'Getting started',
  'Café',
  '日本語',
  'Ελληνικά',
  'Ünïcödé ✨',
  '🚀 Launch',
  'a: b',
  '# not a heading',
  "it's",
  '"quoted"',
  'yes',
  'no',
  'null',
  'true',
  '2024',
  '1e3',
  '0x1F',
  '~',
  '- item',
  'a/b',
  '..',
  '[x]',
  'Intro 2',
  '---',
  '@at',
  '&anchor',
  '*alias',
  '!tag',
  '| pipe',
  '> fold',
  '{brace}',
  '%percent',
  '`tick`',
  '? question',
  'a #b',
  'x\\y',
];
const SLUGS = [
  'intro',
  'intro-2',
  'intro-3',
  'guide',
  'guides',
  'guide-1',
  'a',
  'b',
  'c',
  'a-b',
  'café',
  '日本語',
  'v1..v2',
  'detox-+-jest',
  'docsync-1',
  'docsync-2',
  'intro-docsync-1',
  'a-docsync-1',
  'b-docsync-1',
  'readme',
];
const LINES = [
  'alpha',
  'Some *text* here',
  '- a list item',
  '日本語のテキスト',
  '> a quote',
  '`code`',
  'a | b',
  '# A heading in the body',
  'title: not front matter',
];
const EMOJIS = ['1f389', '2764', '🚀', '👩‍💻', '1f468-200d-1f4bb'];
const HREFS = [
  'https://example.com',
  'https://example.com/a?b=c#d',
  'mailto:someone@example.com',
  'https://例え.jp/パス',
  'http://localhost:8080/x',
];
const LAYOUTS: PageLayout[] = [
  { width: 'wide' },
  { title: false, outline: false },
  { cover: false, coverSize: 'full' },
  { tableOfContents: false, pagination: false },
  { coverMask: 'radial', metadata: false },
  DEFAULT_PAGE_LAYOUT,
  { anchors: false },
  { width: 'default', actions: true },
];
const FILE_NAMES = ['logo.png', 'diagram.svg', 'notes.txt', 'ü.png', 'a b.pdf', 'data.json'];

// eslint-disable-next-line no-control-regex
const readable = (s: string) => s.trim() === s && s !== '' && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(s);
export const titleArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TITLES) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).filter(readable) },
);
export const slugArb = fc.constantFrom(...SLUGS);
/** `{{link:N}}` becomes a link to the Nth page when the page is written (`resolveLinks`), a path once the tree is final (`finish`). */
const linkLineArb = fc.tuple(fc.nat(60), fc.constantFrom('', '#part')).map(([n, anchor]) => `See {{link:${n}${anchor}}} and more.`);
export const markdownArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant('') },
  {
    weight: 4,
    arbitrary: fc.array(fc.oneof(fc.constantFrom(...LINES), fc.constant(''), linkLineArb), { minLength: 1, maxLength: 4 }).map(toBody),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 2 })
      .map((lines) => `---\ntags:\n  - one\n---\n${toBody(lines)}`),
  },
);
/** The stored form of a body: no blank lines around it, one newline at the end. */
function toBody(lines: string[]): string {
  const text = lines.join('\n').replace(/^\n+/, '').replace(/\n+$/, '');
  return text === '' ? 'alpha\n' : `${text}\n`;
}

export interface DocMeta {
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: true;
  noIndex?: true;
  noRobotsIndex?: true;
  layout?: PageLayout;
  condition?: string;
  linkTitle?: string;
}
const metaValueArb = {
  emoji: fc.constantFrom(...EMOJIS),
  icon: fc.constantFrom('book', 'gear', 'rocket'),
  description: fc.constantFrom('Short', 'yes', 'Ünïcode: a description', '123'),
  hidden: fc.constant(true as const),
  noIndex: fc.constant(true as const),
  noRobotsIndex: fc.constant(true as const),
  layout: fc.constantFrom(...LAYOUTS),
  condition: fc.constantFrom('visitor.claims.plan == "pro"', 'true'),
  linkTitle: fc.constantFrom('Short', '短い', 'null'),
};
export const META_KEYS = Object.keys(metaValueArb) as (keyof DocMeta)[];
export const docMetaArb: fc.Arbitrary<DocMeta> = fc.record(metaValueArb, { requiredKeys: [] }) as fc.Arbitrary<DocMeta>;
/** One metadata field set to a new value or removed. */
export const metaEditArb: fc.Arbitrary<{ key: keyof DocMeta; value: unknown }> = fc
  .constantFrom(...META_KEYS)
  .chain((key) => fc.record({ key: fc.constant(key), value: fc.option(metaValueArb[key] as fc.Arbitrary<unknown>, { nil: undefined }) }));

export type Kind = 'document' | 'group' | 'link' | 'computed';
export interface PageSpec {
  kind: Kind;
  parent: number;
  at: number;
  title: string;
  slug: string;
  markdown: string;
  meta: DocMeta;
  href: string;
}
export const pageSpecArb: fc.Arbitrary<PageSpec> = fc.record({
  kind: fc.constantFrom<Kind>('document', 'document', 'document', 'group', 'link'),
  parent: fc.nat(40),
  at: fc.nat(6),
  title: titleArb,
  slug: slugArb,
  markdown: markdownArb,
  meta: docMetaArb,
  href: fc.constantFrom(...HREFS),
});
export const bytesArb = fc.uint8Array({ minLength: 0, maxLength: 24 });
export const fileSpecArb = fc.record({ name: fc.constantFrom(...FILE_NAMES), bytes: bytesArb });

// ---------------------------------------------------------------------------------------------
// Contents

const MAX_DEPTH = 4;

interface Place {
  page: WorkspacePage;
  parent: WorkspacePage | undefined;
  siblings: WorkspacePage[];
  depth: number;
}

/** Every page with where it is, depth first. */
export function places(content: WorkspaceContent): Place[] {
  const out: Place[] = [];
  const visit = (siblings: WorkspacePage[], parent: WorkspacePage | undefined, depth: number) => {
    for (const page of siblings) {
      out.push({ page, parent, siblings, depth });
      if (page.type !== 'link') visit(page.pages, page, depth + 1);
    }
  };
  visit(content.pages, undefined, 1);
  return out;
}

const height = (page: WorkspacePage): number => (page.type === 'link' ? 1 : 1 + Math.max(0, ...page.pages.map(height)));
const within = (page: WorkspacePage, candidate: WorkspacePage): boolean =>
  page === candidate || (page.type !== 'link' && page.pages.some((child) => within(child, candidate)));
const takenSlugs = (siblings: readonly WorkspacePage[], except?: WorkspacePage) =>
  new Set(siblings.filter((p) => p !== except && p.type !== 'link').map((p) => (p as { slug: string }).slug));

/** Gives `page` a slug no sibling in `siblings` holds, as the workspace reader would insist. */
function fitSlug(page: WorkspacePage, siblings: readonly WorkspacePage[]): void {
  if (page.type === 'link') return;
  page.slug = uniqueSlug(page.slug, takenSlugs(siblings, page));
}

function makePage(spec: PageSpec, kind: Kind, id: string): WorkspacePage {
  if (kind === 'link') return { id, type: 'link', title: spec.title, href: spec.href };
  if (kind === 'group') return { id, type: 'group', title: spec.title, slug: spec.slug, pages: [] };
  return { id, type: 'document', title: spec.title, slug: spec.slug, markdown: spec.markdown, ...structuredClone(spec.meta), pages: [] };
}

/** Places a page from a spec: under a page that can hold it (or at the top), a group only at the top. */
/** Names the page each `{{link:N}}` of a document written now points to: `{{to:<id>}}`. */
function resolveLinks(content: WorkspaceContent, markdown: string): string {
  const ids = places(content).map((p) => p.page.id);
  return markdown.replace(/\{\{link:(\d+)(#[^}]*)?\}\}/g, (_, n: string, anchor = '') =>
    ids.length === 0 ? 'nothing' : `{{to:${ids[Number(n) % ids.length]!}${anchor}}}`,
  );
}

/**
 * The content as a folder and the server hold it: each `{{to:<id>}}` a markdown link relative to
 * the page's file (as the server writes links), or its label where the target has no file.
 */
export function finish(content: WorkspaceContent, links = true): WorkspaceContent {
  const done = structuredClone(content);
  const paths = pagePaths(modelTree(done).pages);
  for (const { page } of places(done)) {
    if (page.type !== 'document') continue;
    const own = paths.get(page.id)!.gitPath!;
    const dir = own.includes('/') ? own.slice(0, own.lastIndexOf('/')) : '';
    page.markdown = page.markdown.replace(/\{\{to:([^#}]*)(#[^}]*)?\}\}/g, (_, id: string, anchor = '') => {
      const to = links ? paths.get(id)?.gitPath : undefined;
      return to === undefined ? 'a page' : `[a page](${relativePath(dir, to).replace(/[%#?]/g, encodeURIComponent)}${anchor})`;
    });
  }
  return done;
}

function addPage(content: WorkspaceContent, spec: PageSpec, id: string): WorkspacePage {
  const holders = places(content).filter((p) => p.page.type !== 'link' && p.depth < MAX_DEPTH);
  const holder = spec.parent % 4 === 0 || holders.length === 0 ? undefined : holders[spec.parent % holders.length]!;
  const kind = spec.kind === 'group' && holder !== undefined ? 'document' : spec.kind;
  const siblings = holder ? (holder.page as { pages: WorkspacePage[] }).pages : content.pages;
  const page = makePage(spec, kind, id);
  fitSlug(page, siblings);
  siblings.splice(spec.at % (siblings.length + 1), 0, page);
  if (page.type === 'document') page.markdown = resolveLinks(content, page.markdown);
  return page;
}

/** A remote content of `minPages` to `maxPages` pages (and up to 3 files), links as `{{to:<id>}}` (see `finish`). */
export const draftArbOf = (minPages: number, maxPages: number): fc.Arbitrary<WorkspaceContent> =>
  fc
    .record({
      pages: fc.array(pageSpecArb, { minLength: minPages, maxLength: maxPages, size: 'max' }),
      files: fc.uniqueArray(fileSpecArb, { maxLength: 3, selector: (f) => f.name }),
    })
    .map(({ pages, files }) => {
      const content: WorkspaceContent = {
        pages: [],
        files: files.map((f, i) => ({ id: `file${i + 1}`, name: f.name, contentType: 'application/octet-stream', bytes: f.bytes })),
        variables: {},
        reusableContents: [],
        settings: {},
      };
      pages.forEach((spec, i) => addPage(content, spec, `r${i + 1}`));
      return content;
    });
export const draftArb = draftArbOf(0, 30);
export const remoteArbOf = (minPages: number, maxPages: number) => draftArbOf(minPages, maxPages).map(finish);
export const remoteArb = draftArb.map(finish);

// ---------------------------------------------------------------------------------------------
// Edits

export type Edit =
  | { op: 'insert'; spec: PageSpec }
  | { op: 'insert-tree'; spec: PageSpec; children: PageSpec[] }
  | { op: 'delete'; pick: number }
  | { op: 'dissolve'; pick: number }
  | { op: 'move'; pick: number; parent: number; at: number }
  | { op: 'reorder'; pick: number; at: number }
  | { op: 'under-child'; pick: number; child: number }
  | { op: 'slug'; pick: number; slug: string }
  | { op: 'swap'; pick: number; other: number }
  | { op: 'rotate'; pick: number }
  | { op: 'title'; pick: number; title: string }
  | { op: 'markdown'; pick: number; markdown: string }
  | { op: 'meta'; pick: number; key: keyof DocMeta; value: unknown }
  | { op: 'href'; pick: number; href: string }
  | { op: 'add-file'; name: string; bytes: Uint8Array }
  | { op: 'change-file'; pick: number; bytes: Uint8Array }
  | { op: 'drop-file'; pick: number };

const pick = fc.nat(60);
export const structureEditArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), spec: pageSpecArb }),
  fc.record({
    op: fc.constant('insert-tree' as const),
    spec: pageSpecArb,
    children: fc.array(pageSpecArb, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ op: fc.constant('delete' as const), pick }),
  fc.record({ op: fc.constant('dissolve' as const), pick }),
  fc.record({ op: fc.constant('move' as const), pick, parent: pick, at: fc.nat(6) }),
  fc.record({ op: fc.constant('reorder' as const), pick, at: fc.nat(6) }),
  fc.record({ op: fc.constant('under-child' as const), pick, child: pick }),
  fc.record({ op: fc.constant('slug' as const), pick, slug: slugArb }),
  fc.record({ op: fc.constant('swap' as const), pick, other: pick }),
  fc.record({ op: fc.constant('rotate' as const), pick }),
);
export const fieldEditArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('title' as const), pick, title: titleArb }),
  fc.record({ op: fc.constant('markdown' as const), pick, markdown: markdownArb }),
  metaEditArb.chain(({ key, value }) =>
    fc.record({ op: fc.constant('meta' as const), pick, key: fc.constant(key), value: fc.constant(value) }),
  ),
  fc.record({ op: fc.constant('href' as const), pick, href: fc.constantFrom(...HREFS) }),
);
export const fileEditArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('add-file' as const), name: fc.constantFrom(...FILE_NAMES), bytes: bytesArb }),
  fc.record({ op: fc.constant('change-file' as const), pick, bytes: bytesArb }),
  fc.record({ op: fc.constant('drop-file' as const), pick }),
);
export const editArb: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 3, arbitrary: structureEditArb },
  { weight: 2, arbitrary: fieldEditArb },
  { weight: 1, arbitrary: fileEditArb },
);

/** Moves `page` (out of wherever it is) into `siblings` at `at`, with a slug free there. */
function placeInto(page: WorkspacePage, siblings: WorkspacePage[], at: number): void {
  fitSlug(page, siblings);
  siblings.splice(Math.min(at, siblings.length), 0, page);
}

function detach(place: Place): number {
  const index = place.siblings.indexOf(place.page);
  place.siblings.splice(index, 1);
  return index;
}

/** Applies an edit the way a writer editing the folder could; an edit that does not fit the tree does nothing. */
export function applyEdit(content: WorkspaceContent, edit: Edit, newId: () => string): void {
  const all = places(content);
  const chosen = (n: number): Place | undefined => (all.length === 0 ? undefined : all[n % all.length]);
  switch (edit.op) {
    case 'insert':
      return void addPage(content, edit.spec, newId());
    case 'insert-tree': {
      // A new parent with new children (and grandchildren, when a child picks another new page).
      const parent = addPage(content, { ...edit.spec, kind: edit.spec.kind === 'link' ? 'document' : edit.spec.kind }, newId());
      const added = [parent];
      for (const spec of edit.children) {
        const holder = added[spec.parent % added.length]!;
        if (holder.type === 'link' || places(content).find((p) => p.page === holder)!.depth >= MAX_DEPTH) continue;
        const child = makePage(spec, spec.kind === 'group' ? 'document' : spec.kind, newId());
        placeInto(child, holder.pages, spec.at);
        if (child.type === 'document') child.markdown = resolveLinks(content, child.markdown);
        added.push(child);
      }
      return;
    }
    case 'delete': {
      const place = chosen(edit.pick);
      if (place) detach(place);
      return;
    }
    case 'dissolve': {
      // A parent goes; its children take its place, in order.
      const place = chosen(edit.pick);
      if (!place || place.page.type === 'link') return;
      const children = place.page.pages;
      const at = detach(place);
      children.forEach((child, i) => placeInto(child, place.siblings, at + i));
      return;
    }
    case 'move': {
      const place = chosen(edit.pick);
      const target = edit.parent % 4 === 0 ? undefined : chosen(edit.parent);
      if (!place || (target && (target.page.type === 'link' || within(place.page, target.page)))) return;
      if (place.page.type === 'group' && target) return;
      if ((target?.depth ?? 0) + height(place.page) > MAX_DEPTH + 1) return;
      detach(place);
      placeInto(place.page, target ? (target.page as { pages: WorkspacePage[] }).pages : content.pages, edit.at);
      return;
    }
    case 'reorder': {
      const place = chosen(edit.pick);
      if (!place) return;
      detach(place);
      place.siblings.splice(Math.min(edit.at, place.siblings.length), 0, place.page);
      return;
    }
    case 'under-child': {
      // A page moves into what was its child, which takes the page's place.
      const place = chosen(edit.pick);
      if (!place || place.page.type !== 'document') return;
      const holders = place.page.pages.filter((p) => p.type === 'document');
      if (holders.length === 0) return;
      const child = holders[edit.child % holders.length]!;
      if (place.depth + height(place.page) > MAX_DEPTH + 1) return;
      place.page.pages.splice(place.page.pages.indexOf(child), 1);
      const at = detach(place);
      placeInto(child, place.siblings, at);
      placeInto(place.page, (child as WorkspaceDocument).pages, (child as WorkspaceDocument).pages.length);
      return;
    }
    case 'slug': {
      const place = chosen(edit.pick);
      if (!place || place.page.type === 'link') return;
      if (takenSlugs(place.siblings, place.page).has(edit.slug)) return;
      place.page.slug = edit.slug;
      return;
    }
    case 'swap': {
      const place = chosen(edit.pick);
      if (!place || place.page.type === 'link') return;
      const others = place.siblings.filter((p) => p !== place.page && p.type !== 'link') as { slug: string }[];
      if (others.length === 0) return;
      const other = others[edit.other % others.length]!;
      [place.page.slug, other.slug] = [other.slug, place.page.slug];
      return;
    }
    case 'rotate': {
      // Every slug of a parent's children moves one sibling on: a cycle of any length.
      const place = chosen(edit.pick);
      if (!place) return;
      const pages = place.siblings.filter((p) => p.type !== 'link') as { slug: string }[];
      const slugs = pages.map((p) => p.slug);
      pages.forEach((p, i) => (p.slug = slugs[(i + 1) % slugs.length]!));
      return;
    }
    case 'title': {
      const place = chosen(edit.pick);
      if (place) place.page.title = edit.title;
      return;
    }
    case 'markdown': {
      const place = chosen(edit.pick);
      if (place?.page.type === 'document') place.page.markdown = resolveLinks(content, edit.markdown);
      return;
    }
    case 'meta': {
      const place = chosen(edit.pick);
      if (place?.page.type !== 'document') return;
      const page = place.page as unknown as Record<string, unknown>;
      if (edit.value === undefined) delete page[edit.key];
      else page[edit.key] = structuredClone(edit.value);
      return;
    }
    case 'href': {
      const place = chosen(edit.pick);
      if (place?.page.type === 'link') place.page.href = edit.href;
      return;
    }
    case 'add-file': {
      if (content.files.some((f) => f.name === edit.name)) return;
      content.files.push({ id: newId(), name: edit.name, contentType: 'application/octet-stream', bytes: edit.bytes });
      return;
    }
    case 'change-file': {
      const file = content.files[edit.pick % Math.max(1, content.files.length)];
      if (file) file.bytes = edit.bytes;
      return;
    }
    case 'drop-file': {
      if (content.files.length > 0) content.files.splice(edit.pick % content.files.length, 1);
      return;
    }
  }
}

/** Both sides from a draft of the remote: the remote, and the local one as a writer left it after `edits`. */
export function scenarioOf(
  draft: WorkspaceContent,
  edits: readonly Edit[],
  links = true,
): { remote: WorkspaceContent; edits: readonly Edit[]; local: WorkspaceContent } {
  return { remote: finish(draft, links), edits, local: finish(localOf(draft, edits), links) };
}

/** The draft as a writer left it after `edits` (new pages get `new-…` ids). */
export function localOf(remote: WorkspaceContent, edits: readonly Edit[]): WorkspaceContent {
  const local = structuredClone(remote);
  let n = 0;
  const newId = () => `new-${(n += 1)}`;
  for (const edit of edits) applyEdit(local, edit, newId);
  return local;
}

// ---------------------------------------------------------------------------------------------
// The server's side

/** Stored documents are named by their text in these tests, so a failure shows what is stored. */
const docSha = (text: string) => `d:${text}`;

/** The remote content as the server's model tree holds it. */
export function modelTree(content: WorkspaceContent): ContentTree {
  const toTree = (page: WorkspacePage): TreePage => {
    if (page.type === 'link') return { id: page.id, type: 'link', title: page.title, slug: '', href: page.href, pages: [] };
    if (page.type === 'group') return { id: page.id, type: 'group', title: page.title, slug: page.slug, pages: page.pages.map(toTree) };
    if (page.type === 'computed')
      return {
        id: page.id,
        type: 'computed',
        title: page.title,
        slug: '',
        computed: JSON.stringify(computedSource(page.source)),
        pages: [],
      };
    const { id, title, slug, markdown, pages, type: _type, path: _path, ...meta } = page;
    return {
      id,
      type: 'document',
      title,
      slug,
      ...meta,
      ...(markdown !== '' ? { document: docSha(markdown) } : {}),
      pages: pages.map(toTree),
    };
  };
  return {
    pages: content.pages.map(toTree),
    files: content.files.map((f) => ({
      id: f.id,
      name: f.name,
      contentType: f.contentType,
      size: f.bytes!.length,
      blob: sha256(f.bytes!),
    })),
    variables: content.variables,
    reusableContents: [],
  };
}

const validateBody = validatorCompiler({ schema: ContentChangeBatch, method: 'POST', url: '/content', httpPart: 'body' }) as ((
  body: unknown,
) => boolean) & { errors?: unknown };

export class Refused extends Error {
  constructor(
    readonly batch: number,
    readonly status: number,
    message: string,
    readonly changes: ContentChange[],
  ) {
    super(`batch ${batch} refused with ${status}: ${message}\n${JSON.stringify(changes, null, 1)}`);
  }
}

export interface Sent {
  tree: ContentTree;
  /** Ref → id the server created the page with. */
  created: Record<string, string>;
  batches: ContentChange[][];
}

/**
 * What a push does with a plan, against the server's pure code: `batchesOf`, then each batch with
 * `into` refs resolved as `sendBatches` does, checked by the route's schema and applied by
 * `applyChanges` as `writeContent` applies it. Throws `Refused` where the server would answer 4xx.
 */
export async function send(remote: ContentTree, plan: PushPlan): Promise<Sent> {
  const batches = batchesOf(plan.changes, plan.refs);
  let tree = remote;
  let created: Record<string, string> = {};
  let ids = 0;
  for (const [index, planned] of batches.entries()) {
    const batch = planned.map((change) => resolveRefs(change, created));
    const body = structuredClone({ changes: batch });
    if (!validateBody(body)) throw new Refused(index, 400, `the route's schema refuses it: ${JSON.stringify(validateBody.errors)}`, batch);
    const nul = findNulCharacter({ body });
    if (nul !== undefined) throw new Refused(index, 400, `NUL in ${nul}`, batch);
    checkFileItems(batch);
    const files = await loadFiles(batch, false);
    const result = applyChanges(tree, batch, {
      newId: () => `srv${(ids += 1)}-b${index}`,
      now: '2026-01-02T03:04:05.000Z',
      hash: docSha,
      readDocument: (sha) => (sha.startsWith('d:') ? sha.slice(2) : undefined),
      revisions: new Map(),
      defaultRevision: 'base',
      files,
    });
    if (!result.ok) throw new Refused(index, result.status, result.message, batch);
    const answer: ContentWriteResult = {
      changeRequest: undefined as never,
      changes: result.outcomes.map(
        (o) =>
          (o.object === 'deleted_page'
            ? o
            : {
                object: o.object,
                ...('ref' in o && o.ref !== undefined ? { ref: o.ref } : {}),
                page: { object: 'page', id: o.page, urls: { location: '' } },
              }) as never,
      ),
      insertedFiles: result.insertedFiles as never,
    };
    created = { ...created, ...Object.fromEntries([...createdRefs(batch, answer)].map(([ref, value]) => [ref, value.id])) };
    tree = result.tree;
  }
  return { tree, created, batches };
}

// ---------------------------------------------------------------------------------------------
// Comparing

/** A page as both sides can say it: what the push must make the remote hold. */
export interface Shape {
  id: string;
  type: Kind;
  title: string;
  slug: string;
  href?: string;
  markdown?: string;
  meta?: Record<string, unknown>;
  pages: Shape[];
}

/** Metadata as the page shows it: an empty text or a false flag is no value, an unset layout option its default. */
function metaShape(page: Record<string, unknown>): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  for (const key of ['emoji', 'icon', 'description', 'condition', 'linkTitle'] as const)
    if (page[key] !== undefined && page[key] !== '') meta[key] = page[key];
  for (const key of ['hidden', 'noIndex', 'noRobotsIndex'] as const) if (page[key] === true) meta[key] = true;
  meta.layout = { ...DEFAULT_PAGE_LAYOUT, ...(page.layout as PageLayout | undefined) };
  return meta;
}

/** The server's pages as reads give them: each document's references rendered as paths in this tree. */
export function shapeOfTree(pages: readonly TreePage[], files: ContentTree['files'] = []): Shape[] {
  const paths = refPaths({ pages: pages as TreePage[], files, variables: {}, reusableContents: [] });
  const markdown = (page: TreePage) =>
    page.document === undefined ? '' : renderPageMarkdown(splitTemplate(page.document.slice(2)), page.id, paths);
  const shape = (list: readonly TreePage[]): Shape[] =>
    list.map((page) => ({
      id: page.id,
      type: page.type,
      title: page.title,
      slug: page.slug,
      ...(page.type === 'link' ? { href: page.href! } : {}),
      ...(page.type === 'document' ? { markdown: markdown(page), meta: metaShape(page as unknown as Record<string, unknown>) } : {}),
      pages: shape(page.pages),
    }));
  return shape(pages);
}

export function shapeOfContent(pages: readonly WorkspacePage[], idOf: (id: string) => string): Shape[] {
  return pages.map((page) => {
    if (page.type === 'link') return { id: idOf(page.id), type: 'link', title: page.title, slug: '', href: page.href, pages: [] };
    if (page.type === 'group')
      return { id: idOf(page.id), type: 'group', title: page.title, slug: page.slug, pages: shapeOfContent(page.pages, idOf) };
    if (page.type === 'computed') return { id: idOf(page.id), type: 'computed', title: page.title, slug: '', pages: [] };
    return {
      id: idOf(page.id),
      type: 'document',
      title: page.title,
      slug: page.slug,
      markdown: page.markdown,
      meta: metaShape(page as unknown as Record<string, unknown>),
      pages: shapeOfContent(page.pages, idOf),
    };
  });
}

/** Local id → the id the page has on the server after `sent` (new pages: the id created for their ref). */
export function idMapper(plan: PushPlan, sent: Sent): (id: string) => string {
  return (id) => {
    const ref = plan.refs.get(id);
    return ref === undefined ? id : (sent.created[ref] ?? `<never created: ${id}>`);
  };
}

/** Files by name as the server lists them last (a re-sent name is a newer file of that name). */
export function latestFiles(tree: ContentTree): Map<string, string> {
  return new Map(tree.files.map((f) => [f.name, f.blob]));
}

export function allIds(pages: readonly WorkspacePage[], into: string[] = []): string[] {
  for (const page of pages) {
    into.push(page.id);
    if (page.type !== 'link') allIds(page.pages, into);
  }
  return into;
}

export function plan(remote: WorkspaceContent, local: WorkspaceContent): PushPlan {
  return planPush(remote, local, { pathOf: () => 'README.md' });
}

/** Plans, sends, and checks the server ends up holding the local pages. */
export async function expectPushed(remote: WorkspaceContent, local: WorkspaceContent): Promise<{ planned: PushPlan; sent: Sent }> {
  const planned = plan(remote, local);
  const sent = await send(modelTree(remote), planned);
  expect(shapeOfTree(sent.tree.pages, sent.tree.files)).toEqual(shapeOfContent(local.pages, idMapper(planned, sent)));
  return { planned, sent };
}
