import type { TreePage } from '../../model/index.js';
import { inheritShape } from './shape.js';

/** Where a page sits: its parent's id (null at the top level) and its index among siblings. */
export interface PagePlace {
  page: TreePage;
  parentId: string | null;
  index: number;
  depth: number;
}

// Trees are never mutated (every operation copies on write), so an index computed for a pages
// array stays true for as long as the array lives: reads of a 5,000-page revision then cost a
// lookup, not a walk. An array derived from an indexed one by an edit gets its index derived too
// (`deriveIndex`), at the cost of what the edit changed, so a chain of one-page writes never
// walks the whole tree.
const indexes = new WeakMap<readonly TreePage[], ReadonlyMap<string, PagePlace>>();

/** Every page by id; iterated in document order (parents before children). Never mutate the answer. */
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

/**
 * An index told as a full index of an older tree plus the places that differ (null: the page is
 * gone). Lookups cost two map reads; iterating, which walks every page anyway, builds the full
 * index of its own tree once, so document order is always the tree's.
 */
class OverlayIndex implements ReadonlyMap<string, PagePlace> {
  #full: Map<string, PagePlace> | undefined;

  constructor(
    readonly pages: readonly TreePage[],
    readonly base: ReadonlyMap<string, PagePlace>,
    readonly changes: ReadonlyMap<string, PagePlace | null>,
    readonly size: number,
  ) {}

  get(id: string): PagePlace | undefined {
    const changed = this.changes.get(id);
    return changed === undefined ? this.base.get(id) : (changed ?? undefined);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  #all(): Map<string, PagePlace> {
    return (this.#full ??= buildIndex(this.pages));
  }

  forEach(fn: (value: PagePlace, key: string, map: ReadonlyMap<string, PagePlace>) => void, thisArg?: unknown): void {
    this.#all().forEach((value, key) => fn.call(thisArg, value, key, this));
  }

  entries(): MapIterator<[string, PagePlace]> {
    return this.#all().entries();
  }

  keys(): MapIterator<string> {
    return this.#all().keys();
  }

  values(): MapIterator<PagePlace> {
    return this.#all().values();
  }

  [Symbol.iterator](): MapIterator<[string, PagePlace]> {
    return this.entries();
  }
}

/**
 * Gives `to`, a tree built from `from` by copy on write, an index derived from `from`'s, and
 * `from`'s shape when it kept it. Only arrays that differ by identity are compared, so the cost
 * is that of the pages the edit rebuilt (their sibling lists and any subtree that moved), not
 * of the tree. Does nothing when `from` has no index yet: `to`'s is then built when first asked.
 *
 * Invariant: the derived index answers every id exactly as `buildIndex(to)` would.
 */
export function deriveIndex(from: readonly TreePage[], to: readonly TreePage[]): void {
  if (from === to || indexes.has(to)) return;
  const old = indexes.get(from);
  if (!old) return;
  const placed = new Map<string, PagePlace>();
  const gone: TreePage[] = [];
  let sameShape = true;

  const placeSubtree = (list: readonly TreePage[], parentId: string | null, depth: number) => {
    list.forEach((page, index) => {
      placed.set(page.id, { page, parentId, index, depth });
      placeSubtree(page.pages, page.id, depth + 1);
    });
  };
  const compare = (before: readonly TreePage[], after: readonly TreePage[], parentId: string | null, depth: number) => {
    if (before === after) return;
    const sameIds = before.length === after.length && before.every((p, i) => p.id === after[i]!.id);
    const was = sameIds ? undefined : new Map(before.map((p, i) => [p.id, i]));
    if (!sameIds) sameShape = false;
    after.forEach((page, index) => {
      const at = was ? was.get(page.id) : index;
      const prior = at === undefined ? undefined : before[at];
      if (prior === page && at === index) return;
      placed.set(page.id, { page, parentId, index, depth });
      if (prior === undefined) {
        placeSubtree(page.pages, page.id, depth + 1);
        return;
      }
      if (prior.slug !== page.slug || prior.type !== page.type || prior.gitPath !== page.gitPath) sameShape = false;
      compare(prior.pages, page.pages, page.id, depth + 1);
    });
    if (was) {
      const kept = new Set(after.map((p) => p.id));
      for (const page of before) if (!kept.has(page.id)) gone.push(page);
    }
  };
  compare(from, to, null, 0);

  const base = old instanceof OverlayIndex ? old.base : old;
  const changes = new Map(old instanceof OverlayIndex ? old.changes : []);
  let size = old.size;
  for (const [id, place] of placed) {
    if (!old.has(id)) size += 1;
    changes.set(id, place);
  }
  // A page that left one list may have entered another (a move): its new place stands.
  const forget = (page: TreePage) => {
    if (!placed.has(page.id) && old.has(page.id) && changes.get(page.id) !== null) {
      changes.set(page.id, null);
      size -= 1;
    }
    page.pages.forEach(forget);
  };
  gone.forEach(forget);

  // Lookups stay two map reads; past this many changes a fresh index is cheaper to keep.
  if (changes.size <= Math.max(64, 4 * Math.sqrt(base.size))) indexes.set(to, new OverlayIndex(to, base, changes, size));
  if (sameShape) inheritShape(from, to);
}
