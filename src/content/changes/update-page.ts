import type { TreePage, UpdatePageChange } from '../../model/index.js';
import { indexPages, isWithin, movePage, updatePage } from '../tree/page-tree.js';
import { readSubmittedDocument } from './document.js';
import { checkNoDocument, checkParent, checkTypedFields } from './page-types.js';
import { checkSlug, parkDocument, withMeta, type BatchState } from './state.js';
import { patchExtraFrontMatter, patchPageFrontMatter } from './front-matter-text.js';
import { readFrontMatter } from '../markdown/front-matter.js';
import { fail } from './types.js';

/**
 * Moves (`into`: a page id, or null for the top level; `at` alone reorders among the current
 * siblings), then sets metadata and the document. The slug is kept unless given: renaming the
 * title does not move the page's URL. A kept slug taken in the new parent is a 409. The page's
 * type never changes; the fields and places it may take are those of its type (page-types.ts).
 */
export function updatePageChange(state: BatchState, change: UpdatePageChange): void {
  const id = change.page;
  const place = indexPages(state.tree.pages).get(id);
  if (!place) return fail(`page ${id} not found`);
  const type = place.page.type;
  checkTypedFields(type, change);
  checkNoDocument(type, change.document);
  const doc = change.document === undefined || type !== 'document' ? undefined : readSubmittedDocument(change.document);

  let parentId = place.parentId;
  const moved = change.into !== undefined && change.into !== place.parentId;
  if (change.into !== undefined || change.at !== undefined) {
    parentId = change.into === undefined ? place.parentId : change.into;
    checkParent(state.tree, type, parentId);
    if (parentId !== null && isWithin(state.tree.pages, id, parentId))
      fail(`into: page ${id} cannot move into itself or one of its subpages (${parentId})`);
    const at = change.at ?? (parentId === place.parentId ? place.index : undefined);
    state.tree = { ...state.tree, pages: movePage(state.tree.pages, id, parentId, at)! };
  }
  const slug = change.slug ?? place.page.slug;
  // Link and computed pages have no path, so no slug of theirs can clash.
  if (type !== 'link' && type !== 'computed') checkSlug(state.tree, slug, parentId, id);

  const title = doc?.title ?? change.title;
  // A document replacing the keys kept in the stored markdown's front matter (a cover changed on
  // the platform) rewrites them in the front matter as written too, unless the change gives it.
  const extras =
    doc?.extra !== undefined && place.page.frontMatter !== undefined && change.frontMatter === undefined
      ? storedExtra(state, place.page)
      : undefined;
  state.tree = {
    ...state.tree,
    pages: updatePage(state.tree.pages, id, (page) =>
      withTitleHeading(
        withFrontMatter(
          page,
          change.frontMatter,
          extras && { before: extras, after: doc!.extra! },
          withGitPath(
            {
              ...withMeta(page, change, doc?.meta ?? {}),
              slug,
              ...(title !== undefined ? { title } : {}),
              ...(change.href !== undefined ? { href: change.href } : {}),
              ...(change.computed !== undefined ? { computed: JSON.stringify(change.computed) } : {}),
              updatedAt: state.ctx.now,
            },
            change.gitPath,
            moved || slug !== place.page.slug,
          ),
        ),
        change.titleHeading,
      ),
    )!,
  };
  state.touched.add(id);
  if (doc) parkDocument(state, id, doc.body);
}

/**
 * The page's kept file after an update: the one given (null: none), else none once the page
 * moved or took another slug without one (an editor that knows no files: the file it had no
 * longer says where the page is), else the one it had.
 */
function withGitPath(page: TreePage, given: string | null | undefined, moved: boolean): TreePage {
  if (given === undefined && !moved) return page;
  const { gitPath: _old, ...rest } = page;
  return typeof given === 'string' ? { ...rest, gitPath: given } : rest;
}

/**
 * The page's front matter as written after an update: the one given (null or "": none), else the
 * one it had with each field the update changed rewritten in place (`patchPageFrontMatter`).
 */
function withFrontMatter(
  before: TreePage,
  given: string | null | undefined,
  extras: { before: Record<string, unknown>; after: Record<string, unknown> } | undefined,
  after: TreePage,
): TreePage {
  if (given === undefined) {
    if (before.frontMatter === undefined) return after;
    const fields = patchPageFrontMatter(before.frontMatter, before, after);
    const patched = extras === undefined ? fields : patchExtraFrontMatter(fields, extras.before, extras.after);
    if (patched !== '') return { ...after, frontMatter: patched };
  }
  const { frontMatter: _old, ...rest } = after;
  return typeof given === 'string' && given !== '' ? { ...rest, frontMatter: given } : rest;
}

/** The front matter of the page's stored markdown (keys with no page field); undefined when the document is not at hand. */
function storedExtra(state: BatchState, page: TreePage): Record<string, unknown> | undefined {
  if (page.document === undefined) return {};
  const text = state.ctx.readDocument(page.document);
  if (text === undefined) return undefined;
  const read = readFrontMatter(text);
  return read.ok ? read.value.data : undefined;
}

/** `false` marks a page file without its title heading; `true` gives it one again (GitBook's form, the field absent). */
function withTitleHeading(page: TreePage, given: boolean | undefined): TreePage {
  if (given === undefined) return page;
  const { titleHeading: _old, ...rest } = page;
  return given ? rest : { ...rest, titleHeading: false };
}
