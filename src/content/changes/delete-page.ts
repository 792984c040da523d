import type { DeletePageChange } from '../../model/index.js';
import { removePage, walkPages } from '../tree/page-tree.js';
import type { BatchState } from './state.js';
import { fail } from './types.js';

/** Removes the page and its whole subtree; each removed page counts as touched. */
export function deletePageChange(state: BatchState, change: DeletePageChange): void {
  const removed = removePage(state.tree.pages, change.page);
  if (!removed) return fail(`page ${change.page} not found`);
  state.tree = { ...state.tree, pages: removed.pages };
  for (const page of walkPages([removed.removed])) {
    state.touched.add(page.id);
    state.pending.delete(page.id);
  }
}
