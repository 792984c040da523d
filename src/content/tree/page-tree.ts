import type { TreePage } from '../../model/index.js';
import { deriveIndex, indexPages, type PagePlace } from './page-index.js';

export { deriveIndex, indexPages, type PagePlace } from './page-index.js';

/**
 * Any page tree: the store's (`TreePage`), the API's (`RevisionPage`, whose `pages` may be
 * absent) and a workspace's (`WorkspacePage`, whose links have none).
 */
export interface WalkablePage<P> {
  readonly id: string;
  readonly pages?: readonly P[];
}

/** A page met by `walkPlacedPages`, with its parent's id (undefined at the top level). */
export interface PlacedPage<P> {
  page: P;
  parent: string | undefined;
}

/**
 * The one walk of a page tree: pages in document order (a parent, then its children, then its
 * next sibling), each with its parent's id. Iterative, so a deep tree costs no stack.
 */
export function* walkPlacedPages<P extends WalkablePage<P>>(pages: readonly P[], parent?: string): Generator<PlacedPage<P>> {
  const stack: { list: readonly P[]; at: number; parent: string | undefined }[] = [{ list: pages, at: 0, parent }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.at === top.list.length) {
      stack.pop();
      continue;
    }
    const page = top.list[top.at++]!;
    yield { page, parent: top.parent };
    if (page.pages !== undefined && page.pages.length > 0) stack.push({ list: page.pages, at: 0, parent: page.id });
  }
}

/** Pages in document order: a parent, then its children, then its next sibling. */
export function* walkPages<P extends WalkablePage<P>>(pages: readonly P[]): Generator<P> {
  for (const { page } of walkPlacedPages(pages)) yield page;
}

export function countPages<P extends WalkablePage<P>>(pages: readonly P[]): number {
  let n = 0;
  for (const _ of walkPlacedPages(pages)) n += 1;
  return n;
}

export function findPage(pages: readonly TreePage[], id: string): TreePage | undefined {
  return indexPages(pages).get(id)?.page;
}

/** The children list of `parentId` (null: the top level), or undefined when it does not exist. */
export function childrenOf(pages: readonly TreePage[], parentId: string | null): readonly TreePage[] | undefined {
  if (parentId === null) return pages;
  return findPage(pages, parentId)?.pages;
}

/** The places of `id` and of its ancestors, from `id` up; empty when there is no such page. */
function placesUp(pages: readonly TreePage[], id: string): PagePlace[] {
  const index = indexPages(pages);
  const chain: PagePlace[] = [];
  for (let place = index.get(id); place; place = place.parentId === null ? undefined : index.get(place.parentId)) chain.push(place);
  return chain;
}

/**
 * Rebuilds the tree with `fn` applied to the children list of `parentId`, copying only the pages
 * on the path down to it (and their sibling lists): untouched subtrees are shared with the input,
 * which is never mutated. Undefined when the parent is missing.
 */
function withChildren(
  pages: readonly TreePage[],
  parentId: string | null,
  fn: (children: readonly TreePage[]) => TreePage[],
): TreePage[] | undefined {
  const chain = parentId === null ? [] : placesUp(pages, parentId);
  if (parentId !== null && chain.length === 0) return undefined;
  let list = fn(chain.length === 0 ? pages : chain[0]!.page.pages);
  for (const [k, place] of chain.entries()) {
    const siblings = k + 1 < chain.length ? chain[k + 1]!.page.pages : pages;
    const copy = siblings.slice();
    copy[place.index] = { ...place.page, pages: list };
    list = copy;
  }
  deriveIndex(pages, list);
  return list;
}

/** Inserts `page` under `parentId` at `at` (clamped; appended when undefined). */
export function insertPage(pages: readonly TreePage[], page: TreePage, parentId: string | null, at?: number): TreePage[] | undefined {
  return withChildren(pages, parentId, (children) => {
    const copy = [...children];
    const index = at === undefined ? copy.length : Math.max(0, Math.min(at, copy.length));
    copy.splice(index, 0, page);
    return copy;
  });
}

/** Removes a page and its subtree; undefined when there is no such page. */
export function removePage(pages: readonly TreePage[], id: string): { pages: TreePage[]; removed: TreePage } | undefined {
  const place = indexPages(pages).get(id);
  if (!place) return undefined;
  const next = withChildren(pages, place.parentId, (children) => children.filter((p) => p.id !== id));
  return next && { pages: next, removed: place.page };
}

/** Replaces one page (not its position) with `fn(page)`; undefined when there is no such page. */
export function updatePage(pages: readonly TreePage[], id: string, fn: (page: TreePage) => TreePage): TreePage[] | undefined {
  const place = indexPages(pages).get(id);
  if (!place) return undefined;
  return withChildren(pages, place.parentId, (children) => {
    const copy = children.slice();
    copy[place.index] = fn(place.page);
    return copy;
  });
}

/** True when `candidateId` is `pageId` or inside its subtree. */
export function isWithin(pages: readonly TreePage[], pageId: string, candidateId: string): boolean {
  const index = indexPages(pages);
  if (!index.has(pageId)) return false;
  // Up from the candidate: as many steps as it is deep, not a walk of the subtree.
  for (let place = index.get(candidateId); place; place = place.parentId === null ? undefined : index.get(place.parentId)) {
    if (place.page.id === pageId) return true;
  }
  return false;
}

/**
 * Moves a page (with its subtree) under `parentId` at `at`. Undefined when the page or the
 * parent is missing, or when the parent is inside the page (a page cannot contain itself).
 */
export function movePage(pages: readonly TreePage[], id: string, parentId: string | null, at?: number): TreePage[] | undefined {
  if (parentId !== null && isWithin(pages, id, parentId)) return undefined;
  const removed = removePage(pages, id);
  if (!removed) return undefined;
  return insertPage(removed.pages, removed.removed, parentId, at);
}

/**
 * Applies `fn` to the pages named in `ids` (each after its subtree), copying only the pages on
 * their paths and keeping every untouched subtree (and array) as it was: what did not change
 * keeps its identity, which storage relies on. Ids not in the tree are ignored.
 */
export function replacePages(pages: readonly TreePage[], ids: ReadonlySet<string>, fn: (page: TreePage) => TreePage): readonly TreePage[] {
  if (ids.size === 0) return pages;
  // The positions to rebuild, by parent id (null: the top level).
  const onPath = new Map<string | null, Set<number>>();
  for (const id of ids) {
    for (const place of placesUp(pages, id)) {
      const at = onPath.get(place.parentId) ?? new Set<number>();
      if (at.has(place.index)) break;
      onPath.set(place.parentId, at.add(place.index));
    }
  }
  const rebuild = (list: readonly TreePage[], parentId: string | null): readonly TreePage[] => {
    let copy: TreePage[] | undefined;
    for (const i of [...(onPath.get(parentId) ?? [])].sort((a, b) => a - b)) {
      const page = list[i]!;
      const children = rebuild(page.pages, page.id);
      let result = children === page.pages ? page : { ...page, pages: children as TreePage[] };
      if (ids.has(page.id)) result = fn(result);
      if (result !== page) (copy ??= list.slice())[i] = result;
    }
    return copy ?? list;
  };
  const next = rebuild(pages, null);
  deriveIndex(pages, next);
  return next;
}
