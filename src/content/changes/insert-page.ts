import type { InsertPageChange, TreePage } from '../../model/index.js';
import { insertPage } from '../tree/page-tree.js';
import { slugify, uniqueSlug } from '../tree/slugs.js';
import { readSubmittedDocument, type SubmittedDocument } from './document.js';
import { checkNoDocument, checkParent, checkTypedFields } from './page-types.js';
import { checkSlug, parkDocument, siblingSlugs, withMeta, type BatchState } from './state.js';
import { fail } from './types.js';

export const DEFAULT_TITLE = 'Untitled';

/**
 * Title: front matter, else the leading `# heading`, else `title`, else "Untitled". `type`
 * (default `document`) makes a group or a link page instead: those take no document, and a
 * link page has no slug (`''`, as the Git Sync layout gives it none) but an `href`.
 */
export function insertPageChange(state: BatchState, change: InsertPageChange, index: number): void {
  const id = state.pageIds.get(index)!;
  const type = change.type ?? 'document';
  const parentId = change.into ?? null;
  checkTypedFields(type, change);
  if (type === 'link' && change.href === undefined) fail('href: a link page needs `href`, the absolute URL it points to');
  if (type === 'computed' && change.computed === undefined)
    fail('computed: a computed page needs `computed`, the source its pages are generated from');
  checkParent(state.tree, type, parentId);
  checkNoDocument(type, change.document);
  const doc: SubmittedDocument | undefined = type === 'document' ? readSubmittedDocument(change.document) : undefined;
  const title = doc?.title ?? change.title ?? DEFAULT_TITLE;
  let slug = '';
  if (type === 'link' || type === 'computed') {
    // No slug to check: link and computed pages have no path of their own.
  } else if (change.slug !== undefined) {
    checkSlug(state.tree, change.slug, parentId, id);
    slug = change.slug;
  } else {
    slug = uniqueSlug(slugify(title), siblingSlugs(state.tree, parentId, id));
  }
  const now = state.ctx.now;
  const bare: TreePage = { id, type, title, slug, createdAt: now, updatedAt: now, pages: [] };
  if (change.href !== undefined) bare.href = change.href;
  if (change.gitPath !== undefined) bare.gitPath = change.gitPath;
  if (change.frontMatter !== undefined && change.frontMatter !== '') bare.frontMatter = change.frontMatter;
  if (change.titleHeading === false) bare.titleHeading = false;
  // As JSON text, so the source keeps the key order it was written in (tree blobs sort keys).
  if (change.computed !== undefined) bare.computed = JSON.stringify(change.computed);
  const page = withMeta(bare, change, doc?.meta ?? {});
  state.tree = { ...state.tree, pages: insertPage(state.tree.pages, page, parentId, change.at)! };
  state.touched.add(id);
  if (change.ref !== undefined) state.createdRefs.set(id, change.ref);
  if (doc) parkDocument(state, id, doc.body);
}
