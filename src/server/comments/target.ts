import type { Kysely } from 'kysely';
import { findPage, nodePreview, pagePaths } from '../../content/index.js';
import { badRequest, type CommentTarget, type ContentTree } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { CommentRow } from '../store/comments.js';
import { loadFacts } from '../revisions/facts.js';
import { revisionTreeOf, type CommentPlace } from './place.js';

export type StoredTarget = Pick<CommentRow, 'page_id' | 'page_document' | 'node_id' | 'node_preview'>;

/**
 * Checks a posted `page` and `node` against the place's head and returns what the comment
 * stores of them: the page's document sha (for `outdated`) and the block's preview text.
 */
export async function resolvePostedTarget(
  db: Kysely<Database>,
  place: CommentPlace,
  posted: { page?: string | undefined; node?: string | undefined },
): Promise<StoredTarget> {
  if (posted.page === undefined) {
    if (posted.node !== undefined) throw badRequest('body.node needs body.page: the page the block is in');
    return { page_id: null, page_document: null, node_id: null, node_preview: null };
  }
  const where = place.changeRequest === null ? `space ${place.space.id}` : `change request #${place.changeRequest.number}`;
  const page = findPage((await place.tree()).pages, posted.page);
  if (!page) throw badRequest(`body.page: page ${posted.page} not found in ${where}`);
  const stored = { page_id: page.id, page_document: page.document ?? '', node_id: null, node_preview: null };
  if (posted.node === undefined) return stored;
  // Block texts hold no URL, so the facts derived at write time give the ids reads and working trees give.
  const blocks = page.document === undefined ? [] : ((await loadFacts(db, [page.document])).get(page.document)?.blockNodes ?? []);
  const block = blocks.find((b) => b.id === posted.node);
  if (!block) throw badRequest(`body.node: no block ${posted.node} in page ${page.id} of ${where}`);
  return { ...stored, node_id: block.id, node_preview: nodePreview(block.text) };
}

/**
 * Renders `target` for comments of one place. A page is described as it is at the place's head
 * now; a page since removed, as it was in the revision the comment was posted on (and
 * `outdated`). Trees are read once per listing.
 */
export function targetRenderer(db: Kysely<Database>, place: CommentPlace): (row: CommentRow) => Promise<CommentTarget> {
  const trees = new Map<string, Promise<ContentTree>>();
  const treeAt = (revisionId: string) => {
    let tree = trees.get(revisionId);
    if (!tree) trees.set(revisionId, (tree = revisionTreeOf(db, revisionId)));
    return tree;
  };
  return async (row) => {
    const target: CommentTarget = {
      space: row.space_id,
      revision: row.revision_id,
      ...(row.change_request_id !== null ? { changeRequest: row.change_request_id } : {}),
    };
    if (row.page_id === null) return target;
    let tree = await place.tree();
    let page = findPage(tree.pages, row.page_id);
    let outdated = page !== undefined && (page.document ?? '') !== row.page_document;
    if (!page) {
      tree = await treeAt(row.revision_id);
      page = findPage(tree.pages, row.page_id);
      outdated = true;
    }
    const path = pagePaths(tree.pages).get(row.page_id)?.path ?? '';
    target.page = {
      id: row.page_id,
      title: page?.title ?? '',
      ...(page?.emoji ? { emoji: page.emoji } : {}),
      ...(page?.icon ? { icon: page.icon } : {}),
      ...(page?.createdAt ? { createdAt: page.createdAt } : {}),
      ...(page?.updatedAt ? { updatedAt: page.updatedAt } : {}),
      path,
      outdated,
    };
    if (row.node_id !== null) target.node = { id: row.node_id, preview: row.node_preview ?? '' };
    return target;
  };
}
