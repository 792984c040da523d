import { pagePaths, walkPages } from '../../content/index.js';
import type { ContentTree, TreePage } from '../../model/index.js';

export type PageChange =
  | { kind: 'added'; page: TreePage }
  | { kind: 'deleted'; page: TreePage }
  | { kind: 'changed'; page: TreePage; before: TreePage; moved: boolean; edited: boolean };

/**
 * What a change request does to pages, from its base to its head, matched by page id: pages
 * added, deleted, and changed (the document or a field edited, or moved: another path), in the
 * head's order, deleted pages last.
 */
export function pageChanges(base: ContentTree, head: ContentTree): PageChange[] {
  const before = new Map([...walkPages(base.pages)].map((p) => [p.id, p]));
  const after = [...walkPages(head.pages)];
  const basePaths = pagePaths(base.pages);
  const headPaths = pagePaths(head.pages);
  const changes: PageChange[] = [];
  for (const page of after) {
    const old = before.get(page.id);
    if (!old) {
      changes.push({ kind: 'added', page });
      continue;
    }
    const moved = basePaths.get(page.id)?.path !== headPaths.get(page.id)?.path;
    const { pages: _a, ...fieldsNow } = page;
    const { pages: _b, ...fieldsThen } = old;
    const edited = JSON.stringify(fieldsNow) !== JSON.stringify(fieldsThen);
    if (moved || edited) changes.push({ kind: 'changed', page, before: old, moved, edited });
  }
  const kept = new Set(after.map((p) => p.id));
  for (const page of before.values()) if (!kept.has(page.id)) changes.push({ kind: 'deleted', page });
  return changes;
}
