import type { UpdatePageChange } from '../../model/index.js';
import { findPage, indexPages, isWithin, movePage, updatePage } from '../tree/page-tree.js';
import { readSubmittedDocument } from './document.js';
import { checkSlug, parkDocument, withMeta, type BatchState } from './state.js';
import { fail } from './types.js';

/**
 * Moves (`into`: a page id, or null for the top level; `at` alone reorders among the current
 * siblings), then sets metadata and the document. The slug is kept unless given: renaming the
 * title does not move the page's URL. A kept slug taken in the new parent is a 409.
 */
export function updatePageChange(state: BatchState, change: UpdatePageChange): void {
  const id = change.page;
  const place = indexPages(state.tree.pages).get(id);
  if (!place) return fail(`page ${id} not found`);
  const doc = change.document === undefined ? undefined : readSubmittedDocument(change.document);

  let parentId = place.parentId;
  if (change.into !== undefined || change.at !== undefined) {
    parentId = change.into === undefined ? place.parentId : change.into;
    if (parentId !== null) {
      if (!findPage(state.tree.pages, parentId)) fail(`into: page ${parentId} not found`);
      if (isWithin(state.tree.pages, id, parentId)) fail(`into: page ${id} cannot move into itself or one of its subpages (${parentId})`);
    }
    const at = change.at ?? (parentId === place.parentId ? place.index : undefined);
    state.tree = { ...state.tree, pages: movePage(state.tree.pages, id, parentId, at)! };
  }
  const slug = change.slug ?? place.page.slug;
  checkSlug(state.tree, slug, parentId, id);

  const title = doc?.title ?? change.title;
  state.tree = {
    ...state.tree,
    pages: updatePage(state.tree.pages, id, (page) => ({
      ...withMeta(page, change, doc?.meta ?? {}),
      slug,
      ...(title !== undefined ? { title } : {}),
      updatedAt: state.ctx.now,
    }))!,
  };
  state.touched.add(id);
  if (doc) parkDocument(state, id, doc.body);
}
