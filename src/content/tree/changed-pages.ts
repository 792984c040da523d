import type { ContentTree, TreePage } from '../../model/index.js';

/**
 * Page fields that place a page in the tree or name it there (its path, its SUMMARY.md line, its
 * kept file, what other pages' links to it become): a change of one is a change of the tree's
 * shape, not of the page alone.
 */
const SHAPE_FIELDS = new Set(['id', 'type', 'title', 'slug', 'linkTitle', 'href', 'gitPath', 'computed']);
/** Not content: when a page was written. */
const IGNORED = new Set(['pages', 'createdAt', 'updatedAt']);

export interface ChangedPages {
  /**
   * Pages whose own fields changed (`document` when their markdown did), in tree order. Only
   * listed when `structure` is false.
   */
  pages: { id: string; fields: string[] }[];
  /**
   * Something beyond pages' own fields changed: the tree's shape (pages added, removed or moved,
   * a title, a slug, a link's target, a kept file), the files, the variables, the reusable
   * contents or the folder's kept files. A reader then reads the whole revision.
   */
  structure: boolean;
}

/** JSON with object keys sorted, so two values that differ only in key order compare equal. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * What changed from tree `from` to tree `to` (two revisions of one space), page by page: the
 * pages whose own fields differ when the shape and everything else are the same, or
 * `structure` otherwise. Pure.
 */
export function changedPages(from: ContentTree, to: ContentTree): ChangedPages {
  const structure = { pages: [], structure: true };
  if (
    stable(from.files) !== stable(to.files) ||
    // In written order: a reorder of .gitbook/vars.yaml is a change the folder must show (the
    // store keeps the order; test/sync/variables-order.test.ts).
    JSON.stringify(from.variables ?? null) !== JSON.stringify(to.variables ?? null) ||
    stable(from.reusableContents) !== stable(to.reusableContents) ||
    stable(from.gitFiles ?? []) !== stable(to.gitFiles ?? [])
  )
    return structure;
  const pages: ChangedPages['pages'] = [];
  const walk = (a: readonly TreePage[], b: readonly TreePage[]): boolean => {
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) {
      const [x, y] = [a[i]!, b[i]!];
      if (x === y) continue;
      const fields: string[] = [];
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      for (const key of keys) {
        if (IGNORED.has(key)) continue;
        const [before, after] = [(x as unknown as Record<string, unknown>)[key], (y as unknown as Record<string, unknown>)[key]];
        if (before === after || stable(before) === stable(after)) continue;
        if (SHAPE_FIELDS.has(key)) return false;
        fields.push(key);
      }
      if (fields.length > 0) pages.push({ id: y.id, fields: fields.sort() });
      if (!walk(x.pages, y.pages)) return false;
    }
    return true;
  };
  return walk(from.pages, to.pages) ? { pages, structure: false } : structure;
}
