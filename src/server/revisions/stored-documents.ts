import type { Kysely } from 'kysely';
import { refPaths, renderPageMarkdown, splitTemplate, type RefPaths, type TemplateParts } from '../../content/index.js';
import type { ContentTree, TreePage } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { getBlobs } from '../store/blobs.js';

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
 * Renders the stored documents of a tree's pages as markdown, each reference as the path from
 * the page to its target in this tree (docs/api.md, "Links"). Everything content leaves the
 * store as (reads, search, PDF) goes through here or `templateOf`.
 */
export class PageMarkdown {
  readonly #tree: ContentTree;
  readonly #texts: ReadonlyMap<string, Buffer>;
  #paths: RefPaths | undefined;
  readonly #rendered = new Map<string, string>();

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
    return page.document === undefined ? '' : this.#texts.get(page.document)?.toString('utf8') ?? '';
  }

  parts(page: TreePage): TemplateParts {
    return page.document === undefined ? [''] : templateOf(page.document, this.stored(page));
  }

  /** True when the page's markdown depends on where its link targets are. */
  hasRefs(page: TreePage): boolean {
    return this.parts(page).length > 1;
  }

  markdown(page: TreePage): string {
    const parts = this.parts(page);
    if (parts.length === 1) return parts[0] as string;
    let text = this.#rendered.get(page.id);
    // Paths cost a walk of the tree (cached by its shape); a document without references needs none.
    if (text === undefined) this.#rendered.set(page.id, (text = renderPageMarkdown(parts, page.id, (this.#paths ??= refPaths(this.#tree)))));
    return text;
  }
}

/** Loads the documents of `pages` and renders them against `tree`. */
export async function loadPageMarkdown(db: Kysely<Database>, tree: ContentTree, pages: Iterable<TreePage>): Promise<PageMarkdown> {
  const shas = new Set<string>();
  for (const page of pages) if (page.document !== undefined) shas.add(page.document);
  return new PageMarkdown(tree, await getBlobs(db, shas));
}
