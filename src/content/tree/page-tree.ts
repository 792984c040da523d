import type { TreePage } from '../../model/index.js';

/** Where a page sits: its parent's id (null at the top level) and its index among siblings. */
export interface PagePlace {
  page: TreePage;
  parentId: string | null;
  index: number;
  depth: number;
}

// Trees are never mutated (every operation here copies on write), so an index computed for a
// pages array stays true for as long as the array lives: reads of a 5,000-page revision then
// cost a lookup, not a walk.
const indexes = new WeakMap<readonly TreePage[], ReadonlyMap<string, PagePlace>>();

/** Every page by id, in document order (parents before children). Never mutate the answer. */
export function indexPages(pages: readonly TreePage[]): ReadonlyMap<string, PagePlace> {
  let cached = indexes.get(pages);
  if (!cached) indexes.set(pages, (cached = buildIndex(pages)));
  return cached;
}

function buildIndex(pages: readonly TreePage[]): Map<string, PagePlace> {
  const index = new Map<string, PagePlace>();
  const visit = (list: readonly TreePage[], parentId: string | null, depth: number) => {
    list.forEach((page, i) => {
      index.set(page.id, { page, parentId, index: i, depth });
      visit(page.pages, page.id, depth + 1);
    });
  };
  visit(pages, null, 0);
  return index;
}

/** Pages in document order: a parent, then its children, then its next sibling. */
export function* walkPages(pages: readonly TreePage[]): Generator<TreePage> {
  for (const page of pages) {
    yield page;
    yield* walkPages(page.pages);
  }
}

export function countPages(pages: readonly TreePage[]): number {
  let n = 0;
  for (const _ of walkPages(pages)) n += 1;
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

/**
 * Rebuilds the tree with `fn` applied to the children list of `parentId`; untouched subtrees
 * are shared with the input (the input is never mutated). Undefined when the parent is missing.
 */
function withChildren(
  pages: readonly TreePage[],
  parentId: string | null,
  fn: (children: readonly TreePage[]) => TreePage[],
): TreePage[] | undefined {
  if (parentId === null) return fn(pages);
  let found = false;
  const rebuild = (list: readonly TreePage[]): TreePage[] =>
    list.map((page) => {
      if (found) return page;
      if (page.id === parentId) {
        found = true;
        return { ...page, pages: fn(page.pages) };
      }
      const children = rebuild(page.pages);
      return children.every((c, i) => c === page.pages[i]) ? page : { ...page, pages: children };
    });
  const result = rebuild(pages);
  return found ? result : undefined;
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
  return withChildren(pages, place.parentId, (children) => children.map((p) => (p.id === id ? fn(p) : p)));
}

/** True when `candidateId` is `pageId` or inside its subtree. */
export function isWithin(pages: readonly TreePage[], pageId: string, candidateId: string): boolean {
  const page = findPage(pages, pageId);
  if (!page) return false;
  for (const p of walkPages([page])) if (p.id === candidateId) return true;
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
 * Applies `fn` to the pages named in `ids`, in one walk, keeping every untouched subtree (and
 * array) as it was: what did not change keeps its identity, which storage relies on.
 */
export function replacePages(pages: readonly TreePage[], ids: ReadonlySet<string>, fn: (page: TreePage) => TreePage): readonly TreePage[] {
  if (ids.size === 0) return pages;
  let changed = false;
  const next = pages.map((page) => {
    const children = replacePages(page.pages, ids, fn);
    let result = children === page.pages ? page : { ...page, pages: children as TreePage[] };
    if (ids.has(page.id)) result = fn(result);
    if (result !== page) changed = true;
    return result;
  });
  return changed ? next : pages;
}
