import type { Kysely } from 'kysely';
import { refPaths, renderPageMarkdown, splitTemplate, type RefPaths, type TemplateParts } from '../../content/index.js';
import type { ContentTree, RevisionGitFile, TreePage } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { getBlobs } from '../store/blobs.js';
import { gitBlobOid } from '../store/git-oids.js';

// A stored document is immutable per sha, so its split into text and references is reused.
// Documents without references are never split (one `includes` check), nor cached.
const CACHE_SIZE = 10_000;
const split = new Map<string, TemplateParts>();

/** A stored page document cut into text and references (stored-ref.ts). */
export function templateOf(sha: string, text: string): TemplateParts {
  let parts = split.get(sha);
  if (!parts) {
    parts = splitTemplate(text);
    if (parts.length === 1) return parts;
    split.set(sha, parts);
    if (split.size > CACHE_SIZE) split.delete(split.keys().next().value as string);
  }
  return parts;
}

/**
 * Rendered markdown and its git oid by page and document, for one set of paths. `refPaths`
 * hands out the same two maps for every tree of one shape (and files array), so a page whose
 * document and place are unchanged renders from here on every read: reading a page with 50
 * links, or a section with a hundred such children, costs what reading it without links costs.
 * Weakly held by the paths, so a shape no tree has any more takes its renders with it.
 */
interface Rendered {
  markdown: string;
  oid?: string;
}
const RENDERED_PER_SHAPE = 20_000;
const renders = new WeakMap<RefPaths['pages'], WeakMap<RefPaths['fileGitPath'], Map<string, Rendered>>>();

function rendersFor(paths: RefPaths): Map<string, Rendered> {
  let byFiles = renders.get(paths.pages);
  if (!byFiles) renders.set(paths.pages, (byFiles = new WeakMap()));
  let map = byFiles.get(paths.fileGitPath);
  if (!map) byFiles.set(paths.fileGitPath, (map = new Map()));
  return map;
}

/**
 * Renders the stored documents of a tree's pages as markdown, each reference as the path from
 * the page to its target in this tree (docs/api.md, "Links"). Everything content leaves the
 * store as (reads, search, PDF) goes through here or `templateOf`.
 */
export class PageMarkdown {
  readonly #tree: ContentTree;
  readonly #texts: ReadonlyMap<string, Buffer>;
  #paths: RefPaths | undefined;

  constructor(tree: ContentTree, texts: ReadonlyMap<string, Buffer>) {
    this.#tree = tree;
    this.#texts = texts;
  }

  /** The stored bytes read, by sha. */
  get blobs(): ReadonlyMap<string, Buffer> {
    return this.#texts;
  }

  /** The stored text of a page (a template), '' when it has none. */
  stored(page: TreePage): string {
    return page.document === undefined ? '' : (this.#texts.get(page.document)?.toString('utf8') ?? '');
  }

  parts(page: TreePage): TemplateParts {
    return page.document === undefined ? [''] : templateOf(page.document, this.stored(page));
  }

  /** True when the page's markdown depends on where its link targets are. */
  hasRefs(page: TreePage): boolean {
    return this.parts(page).length > 1;
  }

  markdown(page: TreePage): string {
    return this.#render(page)?.markdown ?? (this.parts(page)[0] as string);
  }

  /** The git blob oid of a page's rendered markdown, for a page with references (undefined otherwise: the stored oid serves). */
  renderedOid(page: TreePage): string | undefined {
    const rendered = this.#render(page);
    if (rendered === undefined) return undefined;
    rendered.oid ??= gitBlobOid(Buffer.from(rendered.markdown, 'utf8'));
    return rendered.oid;
  }

  /** The page's rendering, for a document with references; undefined for one without (its text is its markdown). */
  #render(page: TreePage): Rendered | undefined {
    const parts = this.parts(page);
    if (parts.length === 1) return undefined;
    // Paths cost a walk of the tree (cached by its shape); a document without references needs none.
    const paths = (this.#paths ??= refPaths(this.#tree));
    const cache = rendersFor(paths);
    const key = `${page.id}\u0000${page.document ?? ''}`;
    let rendered = cache.get(key);
    if (!rendered) {
      rendered = { markdown: renderPageMarkdown(parts, page.id, paths) };
      cache.set(key, rendered);
      if (cache.size > RENDERED_PER_SHAPE) cache.delete(cache.keys().next().value as string);
    }
    return rendered;
  }
}

/** Loads the documents of `pages` and renders them against `tree`. */
export async function loadPageMarkdown(db: Kysely<Database>, tree: ContentTree, pages: Iterable<TreePage>): Promise<PageMarkdown> {
  const shas = new Set<string>();
  for (const page of pages) if (page.document !== undefined) shas.add(page.document);
  return new PageMarkdown(tree, await getBlobs(db, shas));
}

/** The folder files of a tree with their texts (the `git-files` extension); undefined when it has none. */
export async function loadGitFiles(db: Kysely<Database>, tree: ContentTree): Promise<RevisionGitFile[] | undefined> {
  const files = tree.gitFiles ?? [];
  if (files.length === 0) return undefined;
  const texts = await getBlobs(db, new Set(files.map((f) => f.document)));
  return files.map((file) => {
    const text = texts.get(file.document);
    if (text === undefined) throw new Error(`folder file ${file.path}: document ${file.document} is missing from the blob store`);
    return { path: file.path, text: text.toString('utf8') };
  });
}
