import type { InsertPageChange, TreePage } from '../../model/index.js';
import { findPage, insertPage } from '../tree/page-tree.js';
import { slugify, uniqueSlug } from '../tree/slugs.js';
import { readSubmittedDocument } from './document.js';
import { checkSlug, parkDocument, siblingSlugs, withMeta, type BatchState } from './state.js';
import { fail } from './types.js';

export const DEFAULT_TITLE = 'Untitled';

/** Title: front matter, else the leading `# heading`, else `title`, else "Untitled". */
export function insertPageChange(state: BatchState, change: InsertPageChange, index: number): void {
  const id = state.pageIds.get(index)!;
  const parentId = change.into ?? null;
  if (parentId !== null && !findPage(state.tree.pages, parentId)) fail(`into: page ${parentId} not found`);
  const doc = readSubmittedDocument(change.document);
  const title = doc.title ?? change.title ?? DEFAULT_TITLE;
  let slug: string;
  if (change.slug !== undefined) {
    checkSlug(state.tree, change.slug, parentId, id);
    slug = change.slug;
  } else {
    slug = uniqueSlug(slugify(title), siblingSlugs(state.tree, parentId, id));
  }
  const now = state.ctx.now;
  const page = withMeta({ id, type: 'document', title, slug, createdAt: now, updatedAt: now, pages: [] } satisfies TreePage, change, doc.meta);
  state.tree = { ...state.tree, pages: insertPage(state.tree.pages, page, parentId, change.at)! };
  state.touched.add(id);
  if (change.ref !== undefined) state.createdRefs.set(id, change.ref);
  parkDocument(state, id, doc.body);
}
