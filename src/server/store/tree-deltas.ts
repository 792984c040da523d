import type { TreePage } from '../../model/index.js';

/**
 * A tree stored as the pages it changed against another stored tree (its base), when its shape
 * (every page's id, place and order) is the base's: what a page edit, a metadata change or a
 * revert makes. Node blobs name their children by sha, so storing such a tree as nodes rewrites
 * the page's node and every node on its path to the root, each holding the shas of all its
 * children: 10 KB for one page of a 5,000-page space of 50 sections of 100. A delta holds the
 * changed pages' own fields and the two shas of base and rest, whatever the space's size.
 *
 * Invariants:
 * - a delta's base is a stored root (nodes or delta) of the same shape, reached from a revision
 *   committed before it; chains are at most MAX_DELTA_DEPTH long, so a cold read reads at most
 *   that many small blobs before the nodes of a full tree;
 * - `pages` lists each changed page once with all its fields but its children (they are the
 *   base's, changed or not by their own entries).
 */
export interface DeltaBlob {
  format: 'delta-1';
  base: string;
  depth: number;
  rest: string;
  pages: PageFields[];
}

export type PageFields = Omit<TreePage, 'pages'>;

/** Chain length after which a tree is stored as nodes again. */
export const MAX_DELTA_DEPTH = 64;
/** Pages one delta may hold; a batch changing more is stored as nodes. */
export const MAX_DELTA_PAGES = 32;

function fieldsOf(page: TreePage): PageFields {
  const { pages: _pages, ...fields } = page;
  return fields;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ak = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const bk = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function sameFields(a: TreePage, b: TreePage): boolean {
  return sameValue(fieldsOf(a), fieldsOf(b));
}

/**
 * The pages of `after` whose fields differ from `before`'s, when both have one shape and at most
 * MAX_DELTA_PAGES differ; undefined otherwise. Subtrees `after` shares with `before` (the content
 * layer copies on write) are skipped, so an edit costs its path, not the tree.
 */
export function changedPages(before: readonly TreePage[], after: readonly TreePage[]): PageFields[] | undefined {
  const changed: PageFields[] = [];
  const stack: [readonly TreePage[], readonly TreePage[]][] = [[before, after]];
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    if (a === b) continue;
    if (a.length !== b.length) return undefined;
    for (let i = 0; i < a.length; i += 1) {
      const pa = a[i]!;
      const pb = b[i]!;
      if (pa === pb) continue;
      if (pa.id !== pb.id) return undefined;
      if (!sameFields(pa, pb)) {
        changed.push(fieldsOf(pb));
        if (changed.length > MAX_DELTA_PAGES) return undefined;
      }
      stack.push([pa.pages, pb.pages]);
    }
  }
  return changed;
}

/**
 * `pages` with the fields of the pages `changed` names replaced, copied on write: subtrees with
 * no changed page are `pages`' own. Throws when a page of `changed` is not in the tree.
 */
export function applyChangedPages(pages: readonly TreePage[], changed: ReadonlyMap<string, PageFields>): TreePage[] {
  let left = changed.size;
  const walk = (list: readonly TreePage[]): readonly TreePage[] => {
    let out: TreePage[] | undefined;
    for (let i = 0; i < list.length && left > 0; i += 1) {
      const page = list[i]!;
      const fields = changed.get(page.id);
      if (fields) left -= 1;
      const children = left > 0 ? walk(page.pages) : page.pages;
      if (fields === undefined && children === page.pages) continue;
      out ??= list.slice();
      out[i] = { ...(fields ?? fieldsOf(page)), pages: children as TreePage[] };
    }
    return out ?? list;
  };
  const result = walk(pages) as TreePage[];
  if (left > 0) throw new Error(`a tree delta names ${left} page(s) its base does not have`);
  return result;
}
