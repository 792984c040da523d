import type {
  ContentTree,
  InsertPageChange,
  PageMeta,
  TreeFile,
  TreePage,
  TreeReusableContent,
  UpdatePageChange,
} from '../../model/index.js';
import { childrenOf } from '../tree/page-tree.js';
import { pagePaths } from '../tree/paths.js';
import { slugProblem } from '../tree/slugs.js';
import { rewriteLinks } from './link-rewrite.js';
import { withoutNul } from '../links/stored-ref.js';
import { linkScope, resolveLink, type Target } from './resolve-link.js';
import { fail, type ApplyContext } from './types.js';

/** The batch as it is being applied. Trees are replaced, never mutated. */
export interface BatchState {
  ctx: ApplyContext;
  tree: ContentTree;
  /** Documents written in this batch, with links parked as placeholders, by page id. */
  pending: Map<string, string>;
  /** Page ids in the order the batch first touched them. */
  touched: Set<string>;
  refs: Map<string, Target>;
  /** Ids given out before applying, so refs resolve whatever the order of the changes. */
  pageIds: Map<number, string>;
  fileIds: Map<string, string>;
  createdRefs: Map<string, string>;
  insertedFiles: TreeFile[];
  /** Reusable contents as `insert_reusable_content` made them, in order. */
  insertedReusableContents: TreeReusableContent[];
  /** Bodies of reusable contents written in this batch, by sha. */
  includeTexts: Map<string, string>;
  /** Texts of folder files written in this batch (`set_git_file`), by sha. */
  gitTexts: Map<string, string>;
}

export const fileKey = (change: number, item: number) => `${change}/${item}`;

/** Slugs the siblings hold; link pages hold none (they have no path of their own). */
export function siblingSlugs(tree: ContentTree, parentId: string | null, except: string): Set<string> {
  return new Set(
    (childrenOf(tree.pages, parentId) ?? [])
      .filter((p) => p.id !== except && p.type !== 'link' && p.type !== 'computed')
      .map((p) => p.slug),
  );
}

/** An explicit slug: valid, and not taken by a sibling (409, like every duplicate slug). */
export function checkSlug(tree: ContentTree, slug: string, parentId: string | null, pageId: string): void {
  const problem = slugProblem(slug);
  if (problem) fail(`slug ${JSON.stringify(slug)} ${problem}`);
  if (siblingSlugs(tree, parentId, pageId).has(slug)) {
    fail(
      `slug ${JSON.stringify(slug)} is already used by another page ${parentId === null ? 'at the top level' : `under page ${parentId}`}`,
      409,
    );
  }
}

type MetaFields = Pick<
  InsertPageChange | UpdatePageChange,
  'emoji' | 'icon' | 'description' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'condition' | 'linkTitle'
>;
const CLEARABLE = ['emoji', 'icon', 'description', 'condition', 'linkTitle'] as const;
const FLAGS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/** The operation's metadata fields, then front matter over them; `""` removes a text field. */
export function withMeta(page: TreePage, fields: MetaFields, fromFrontMatter: Partial<Omit<PageMeta, 'slug'>>): TreePage {
  const next: TreePage = { ...page };
  for (const key of CLEARABLE) {
    const value = fromFrontMatter[key] ?? fields[key];
    if (value === '') delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  for (const key of FLAGS) {
    const value = fromFrontMatter[key] ?? fields[key];
    if (value !== undefined) next[key] = value;
  }
  if (fromFrontMatter.layout) next.layout = { ...page.layout, ...fromFrontMatter.layout };
  return next;
}

/** Parks a submitted body for `pageId`, its links resolved from where the page now sits. */
export function parkDocument(state: BatchState, pageId: string, body: string): void {
  // The lookups cost a walk of the tree; a document without links never needs them.
  const tree = state.tree;
  let where: { scope: ReturnType<typeof linkScope>; own: string } | undefined;
  const resolve = (url: string, kind: Parameters<typeof resolveLink>[3]) => {
    where ??= { scope: linkScope(tree, state.refs), own: pagePaths(tree.pages).get(pageId)?.gitPath ?? 'README.md' };
    return resolveLink(url, where.own, where.scope, kind);
  };
  // A NUL marks a stored reference, so none may come from the writer (CommonMark reads it as U+FFFD).
  state.pending.set(pageId, rewriteLinks(withoutNul(body), resolve));
}
