import { ASSETS_DIR, type ContentTree, type TreeFile } from '../../model/index.js';
import { rewriteLinks, type LinkDecision } from '../changes/link-rewrite.js';
import { finalPaths, storeFoundLinks, storeLinks, type FinalPaths } from '../changes/render-links.js';
import { PLACEHOLDER, linkScope, pagesOf, placeholder, resolveLink, type LinkScope } from '../changes/resolve-link.js';
import { pagePaths } from '../tree/paths.js';
import { withoutNul } from '../links/stored-ref.js';

/** A document of the import, before its links are stored. */
export interface ImportedText {
  /** Its file in the imported folder (`guides/install.md`), which its relative links start from. */
  path?: string;
  /** A web page's URL, which its links to the import's other web pages are read against. */
  url?: string;
  body: string;
}

/** Where an imported web page's links point: imported web pages by URL (no fragment), to page ids. */
export type WebPages = ReadonlyMap<string, string>;

/**
 * A web page's link to another page of the same import (`guide.html`, `/docs/faq.html#top`,
 * `https://site/docs/`) as a reference to that page, its fragment as the anchor; undefined for
 * any other link.
 */
function webPageLink(href: string, from: string, pages: WebPages): LinkDecision | undefined {
  if (pages.size === 0 || href.trim() === '' || href.startsWith('#')) return undefined;
  let url: URL;
  try {
    url = new URL(href.trim(), from);
  } catch {
    return undefined;
  }
  const anchor = url.hash === '' ? undefined : decodeAnchor(url.hash.slice(1));
  url.hash = '';
  const id = pages.get(url.href);
  if (id === undefined) return undefined;
  return { kind: 'url', url: placeholder(anchor === undefined || anchor === '' ? { kind: 'page', id } : { kind: 'page', id, anchor }) };
}

function decodeAnchor(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Where the links of an import's documents point: a relative link names a page or asset of the
 * imported folder (by the path it had there, so `../README.md` is the folder's first page even
 * when the space already has a README and the imported one gets another slug); `/pages/<id or
 * path>` and `/files/<id>` name the space as it is once the import is added.
 */
export function importScope(tree: ContentTree, folder: ReadonlyMap<string, string>, files: readonly TreeFile[]): LinkScope {
  const fileByPath = new Map<string, string>();
  for (const file of files) {
    const path = `${ASSETS_DIR}/${file.name}`;
    if (!fileByPath.has(path)) fileByPath.set(path, file.id);
  }
  const { byPath, pageIds } = pagesOf(tree.pages);
  return { byGitPath: folder, byPath, pageIds, fileByPath, fileIds: new Set(tree.files.map((f) => f.id)), refs: new Map() };
}

/**
 * Stores the links of imported documents as references, as the batch endpoint stores those of the
 * documents it is sent (changes/state.ts `parkDocument`, changes/render-links.ts): a link to a
 * page, heading or file becomes a reference with its target's path in `tree`; a link naming
 * nothing stays as written. A document from a folder resolves relative links in `folder` (the
 * import's own files, `importScope`), from its path there; one that was no file of a folder (a
 * markdown file or web page fetched by URL) is read as a batch reads a page: from where it now
 * is in `tree`, after a web page's links to the other web pages of the import (`web`, by URL)
 * are taken as links to them. Pages and reusable contents differ as they do in a batch (a page's
 * link to a group becomes text; an include's stays as written).
 */
export function importLinks(
  tree: ContentTree,
  folder: LinkScope,
  web: WebPages = new Map(),
): { page(id: string, text: ImportedText): string; include(text: ImportedText): string } {
  // Paths and the space's lookups cost a walk of the tree; only documents with links need them.
  let paths: FinalPaths | undefined;
  let space: LinkScope | undefined;
  const final = () => (paths ??= finalPaths(tree));
  return {
    page(id, text) {
      let from = text.path;
      let scope = folder;
      const resolve = (url: string, kind: Parameters<typeof resolveLink>[3]) => {
        const toWebPage = text.url === undefined || kind === 'image' ? undefined : webPageLink(url, text.url, web);
        if (toWebPage !== undefined) return toWebPage;
        if (from === undefined) {
          from = pagePaths(tree.pages).get(id)?.gitPath ?? 'README.md';
          scope = space ??= linkScope(tree, new Map());
        }
        return resolveLink(url, from, scope, kind);
      };
      const template = rewriteLinks(withoutNul(text.body), resolve);
      return template.includes(PLACEHOLDER) ? storeLinks(template, final()) : template;
    },
    include(text) {
      return storeFoundLinks(text.body, text.path ?? INCLUDE_FILE, () => folder, final);
    },
  };
}

/** Every include file is in `.gitbook/includes/`. */
const INCLUDE_FILE = '.gitbook/includes/_.md';
