import type { ContentTree } from '../../model/index.js';
import { refPaths, targetGitPath, type RefPaths } from '../links/ref-paths.js';
import { encodeStoredRef, withoutNul, type StoredRef } from '../links/stored-ref.js';
import { INCLUDES_DIR } from '../tree/include-names.js';
import { rewriteLinks } from './link-rewrite.js';
import { linkScope, parsePlaceholder, resolveLink, type LinkScope, type Target } from './resolve-link.js';

export { relativePath } from '../links/ref-paths.js';

export type FinalPaths = RefPaths;

/** Where pages and files of the final tree are. */
export const finalPaths = (tree: ContentTree): FinalPaths => refPaths(tree);

/** A resolved target as a stored reference token, or undefined when it has no file in the final tree. */
function storedRefUrl(target: Target, paths: FinalPaths): string | undefined {
  const path = targetGitPath(target, paths);
  if (path === undefined) return undefined;
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
  return encodeStoredRef(ref);
}

/**
 * Turns the placeholders of a page's document into stored references (stored-ref.ts), each
 * with its target's path in the final tree as the last known path. A target without a file (a
 * group, a link page) or gone by the end of the batch becomes text, as an unresolved link does.
 */
export function storeLinks(template: string, paths: FinalPaths): string {
  return rewriteLinks(template, (url) => {
    const target = parsePlaceholder(url);
    if (!target) return { kind: 'keep' };
    const token = storedRefUrl(target, paths);
    return token === undefined ? { kind: 'text' } : { kind: 'url', url: token, raw: true };
  });
}

/**
 * A reusable content's body with its links to pages, headings and files stored as references,
 * as a page's are, resolved from its include file (`.gitbook/includes/<name>`) in the batch's
 * final tree. A link that names nothing there stays as written (never text): an include file
 * goes through the server unchanged but for the links it can follow.
 */
export function storeIncludeLinks(body: string, tree: ContentTree, refs: Map<string, Target>, paths: FinalPaths): string {
  return storeFoundLinks(
    body,
    INCLUDE_FILE,
    () => linkScope(tree, refs),
    () => paths,
  );
}

/**
 * `body` with each link that `resolveLink` finds (from the file `fromGitPath`, in `scope`) stored
 * as a reference with its target's path in `paths`; every other link stays as written. Scope
 * and paths are asked for only when the body has a link.
 */
export function storeFoundLinks(body: string, fromGitPath: string, scope: () => LinkScope, paths: () => FinalPaths): string {
  let found: LinkScope | undefined;
  return rewriteLinks(withoutNul(body), (url, kind) => {
    const decision = resolveLink(url, fromGitPath, (found ??= scope()), kind);
    const target = decision.kind === 'url' ? parsePlaceholder(decision.url) : undefined;
    const token = target === undefined ? undefined : storedRefUrl(target, paths());
    return token === undefined ? { kind: 'keep' } : { kind: 'url', url: token, raw: true };
  });
}

/** Where an include's links are resolved from: every include file is in `.gitbook/includes/`. */
const INCLUDE_FILE = `${INCLUDES_DIR}/_.md`;
