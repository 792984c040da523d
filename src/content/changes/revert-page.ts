import { PAGE_META_KEYS, type ContentTree, type RevertPageChange, type TreePage } from '../../model/index.js';
import { findPage, indexPages, insertPage, removePage, updatePage, walkPages } from '../tree/page-tree.js';
import { revertBlocks } from './block-revert.js';
import { checkSlug, type BatchState } from './state.js';
import { fail } from './types.js';

/** `page` with its metadata and document from `old`; children and identity stay. */
function resetPage(page: TreePage, old: TreePage): TreePage {
  const next: TreePage = { ...page };
  for (const key of PAGE_META_KEYS) delete next[key];
  for (const key of PAGE_META_KEYS) if (old[key] !== undefined) Object.assign(next, { [key]: old[key] });
  if (old.document === undefined) delete next.document;
  else next.document = old.document;
  return { ...next, type: old.type, pages: page.pages };
}

/** A page deleted since `target`, with those of its old subpages the tree no longer has. */
function restored(page: TreePage, present: Set<string>): TreePage {
  return { ...page, pages: page.pages.filter((p) => !present.has(p.id)).map((p) => restored(p, present)) };
}

/**
 * Without `block`: the page as it was in the revision (an added page is removed with its
 * subtree, a deleted one comes back where it was, or at the top level when its old parent is
 * gone; an edited one gets its metadata and document back and stays where it is). With
 * `block`: only those top-level blocks of the document, metadata untouched (see block-revert).
 */
export function revertPageChange(state: BatchState, change: RevertPageChange): void {
  const revisionId = change.revision ?? state.ctx.defaultRevision;
  const target: ContentTree | undefined = state.ctx.revisions.get(revisionId);
  if (!target) return fail(`revision ${revisionId} not found in this space`);
  const id = change.page;
  const now = indexPages(state.tree.pages).get(id);
  const then = indexPages(target.pages).get(id);
  if (!now && !then) return fail(`page ${id} not found in the change request or in revision ${revisionId}`);

  if (change.block !== undefined) {
    if (!now) return fail(`page ${id} not found; a deleted page is restored by a revert_page without \`block\``);
    const currentText = state.pending.get(id) ?? (now.page.document === undefined ? '' : (state.ctx.readDocument(now.page.document) ?? ''));
    const oldText = then?.page.document === undefined ? '' : (state.ctx.readDocument(then.page.document) ?? '');
    const result = revertBlocks(currentText, oldText, change.block);
    if (!result.ok) return fail(`block ${JSON.stringify(result.key)} not found in page ${id}: its blocks are 0 to ${result.count - 1}`);
    state.pending.set(id, result.markdown);
    state.tree = { ...state.tree, pages: updatePage(state.tree.pages, id, (p) => ({ ...p, updatedAt: state.ctx.now }))! };
  } else if (!then) {
    const removed = removePage(state.tree.pages, id)!;
    state.tree = { ...state.tree, pages: removed.pages };
    for (const page of walkPages([removed.removed])) {
      state.touched.add(page.id);
      state.pending.delete(page.id);
    }
    return;
  } else if (!now) {
    const present = new Set(indexPages(state.tree.pages).keys());
    const parentId = then.parentId !== null && findPage(state.tree.pages, then.parentId) ? then.parentId : null;
    if (then.page.type !== 'link' && then.page.type !== 'computed') checkSlug(state.tree, then.page.slug, parentId, id);
    state.tree = { ...state.tree, pages: insertPage(state.tree.pages, restored(then.page, present), parentId, then.index)! };
    for (const page of walkPages([findPage(state.tree.pages, id)!])) state.touched.add(page.id);
    return;
  } else {
    if (then.page.type !== 'link' && then.page.type !== 'computed') checkSlug(state.tree, then.page.slug, now.parentId, id);
    state.pending.delete(id);
    state.tree = { ...state.tree, pages: updatePage(state.tree.pages, id, (p) => resetPage(p, then.page))! };
  }
  state.touched.add(id);
}
