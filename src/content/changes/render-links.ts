import type { ContentTree } from '../../model/index.js';
import { refPaths, targetGitPath, type RefPaths } from '../links/ref-paths.js';
import { encodeStoredRef, type StoredRef } from '../links/stored-ref.js';
import { rewriteLinks } from './link-rewrite.js';
import { parsePlaceholder } from './resolve-link.js';

export { relativePath } from '../links/ref-paths.js';

export type FinalPaths = RefPaths;

/** Where pages and files of the final tree are. */
export const finalPaths = (tree: ContentTree): FinalPaths => refPaths(tree);

/**
 * Turns the placeholders of a page's document into stored references (stored-ref.ts), each
 * with its target's path in the final tree as the last known path. A target without a file (a
 * group, a link page) or gone by the end of the batch becomes text, as an unresolved link does.
 */
export function storeLinks(template: string, paths: FinalPaths): string {
  return rewriteLinks(template, (url) => {
    const target = parsePlaceholder(url);
    if (!target) return { kind: 'keep' };
    const path = targetGitPath(target, paths);
    if (path === undefined) return { kind: 'text' };
    const ref: StoredRef =
      target.kind === 'file'
        ? { kind: 'file', id: target.id, path }
        : {
            kind: 'page',
            id: target.id,
            ...(target.anchor !== undefined ? { anchor: target.anchor } : {}),
            ...(target.folder ? { folder: true as const } : {}),
            path,
          };
    return { kind: 'url', url: encodeStoredRef(ref), raw: true };
  });
}
