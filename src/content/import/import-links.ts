import { ASSETS_DIR, type ContentTree, type TreeFile } from '../../model/index.js';
import { rewriteLinks } from '../changes/link-rewrite.js';
import { finalPaths, storeFoundLinks, storeLinks, type FinalPaths } from '../changes/render-links.js';
import { PLACEHOLDER, linkScope, pagesOf, resolveLink, type LinkScope } from '../changes/resolve-link.js';
import { pagePaths } from '../tree/paths.js';
import { withoutNul } from '../links/stored-ref.js';

/** A document of the import, before its links are stored. */
export interface ImportedText {
  /** Its file in the imported folder (`guides/install.md`), which its relative links start from. */
  path?: string;
  body: string;
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
 * is in `tree`. Pages and reusable contents differ as they do in a batch (a page's link to a
 * group becomes text; an include's stays as written).
 */
export function importLinks(
  tree: ContentTree,
  folder: LinkScope,
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
