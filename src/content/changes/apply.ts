import { PLACEHOLDER } from './resolve-link.js';
import { assertNever, type TreePage } from '../../model/index.js';
import type { ContentChange, ContentTree } from '../../model/index.js';
import { indexPages, replacePages } from '../tree/page-tree.js';
import { deleteFileChange } from './delete-file.js';
import { deletePageChange } from './delete-page.js';
import { deleteReusableContentChange } from './delete-reusable-content.js';
import { insertFilesChange } from './insert-files.js';
import { insertPageChange } from './insert-page.js';
import { insertReusableContentChange } from './insert-reusable-content.js';
import { assignIds } from './refs.js';
import { finalPaths, storeIncludeLinks, storeLinks } from './render-links.js';
import { revertPageChange } from './revert-page.js';
import { setVariablesChange } from './set-variables.js';
import { setGitFileChange } from './set-git-file.js';
import type { BatchState } from './state.js';
import { updatePageChange } from './update-page.js';
import { updateReusableContentChange } from './update-reusable-content.js';
import { ChangeFailure, type ApplyContext, type ApplyResult, type PageOutcome } from './types.js';

function applyOne(state: BatchState, change: ContentChange, index: number): void {
  switch (change.operation) {
    case 'insert_page':
      return insertPageChange(state, change, index);
    case 'update_page':
      return updatePageChange(state, change);
    case 'delete_page':
      return deletePageChange(state, change);
    case 'revert_page':
      return revertPageChange(state, change);
    case 'insert_files':
      return insertFilesChange(state, change, index);
    case 'delete_file':
      return deleteFileChange(state, change);
    case 'set_variables':
      return setVariablesChange(state, change);
    case 'set_git_file':
      return setGitFileChange(state, change);
    case 'insert_reusable_content':
      return insertReusableContentChange(state, change);
    case 'update_reusable_content':
      return updateReusableContentChange(state, change);
    case 'delete_reusable_content':
      return deleteReusableContentChange(state, change);
    default:
      return assertNever(change, 'change');
  }
}

/** Stores the parked documents with their links as references into the final tree. */
function storeDocuments(state: BatchState): Map<string, string> {
  const documents = new Map<string, string>();
  const shas = new Map<string, string | undefined>();
  // Final paths cost a walk of the tree; only documents with parked links need them.
  let paths: ReturnType<typeof finalPaths> | undefined;
  for (const [id, template] of state.pending) {
    const text = template.includes(PLACEHOLDER) ? storeLinks(template, (paths ??= finalPaths(state.tree))) : template;
    let sha: string | undefined;
    // Only no text at all is no document: whitespace is kept as sent (an empty page's blank lines).
    if (text !== '') {
      sha = state.ctx.hash(text);
      documents.set(sha, text);
    }
    shas.set(id, sha);
  }
  const pages = replacePages(state.tree.pages, new Set(shas.keys()), (page) => {
    const next = { ...page };
    const sha = shas.get(page.id);
    if (sha === undefined) delete next.document;
    else next.document = sha;
    return next;
  });
  if (pages !== state.tree.pages) state.tree = { ...state.tree, pages: pages as TreePage[] };
  // Bodies a later change of the batch replaced are not kept; those kept get their links as
  // references into the final tree, as pages' documents do.
  let changed = false;
  const contents = state.tree.reusableContents.map((content) => {
    const body = content.document === undefined ? undefined : state.includeTexts.get(content.document);
    if (body === undefined) return content;
    const text = storeIncludeLinks(body, state.tree, state.refs, (paths ??= finalPaths(state.tree)));
    const sha = text === body ? content.document! : state.ctx.hash(text);
    documents.set(sha, text);
    if (sha === content.document) return content;
    changed = true;
    return { ...content, document: sha };
  });
  // Folder files' texts a later change replaced are not kept.
  for (const file of state.tree.gitFiles ?? []) {
    const text = state.gitTexts.get(file.document);
    if (text !== undefined) documents.set(file.document, text);
  }
  if (changed) {
    state.tree = { ...state.tree, reusableContents: contents };
    const byId = new Map(contents.map((c) => [c.id, c]));
    state.insertedReusableContents = state.insertedReusableContents.map((c) => byId.get(c.id) ?? c);
  }
  return documents;
}

/** One entry per touched page, by comparing where it started with where it ended. */
function outcomes(state: BatchState, before: ContentTree): PageOutcome[] {
  const was = indexPages(before.pages);
  const is = indexPages(state.tree.pages);
  return [...state.touched].flatMap((id): PageOutcome[] => {
    if (was.has(id) && is.has(id)) return [{ object: 'updated_page', page: id }];
    if (is.has(id)) {
      const ref = state.createdRefs.get(id);
      return [ref === undefined ? { object: 'created_page', page: id } : { object: 'created_page', page: id, ref }];
    }
    return was.has(id) ? [{ object: 'deleted_page', page: id }] : [];
  });
}

/**
 * Applies a batch to a tree, in order, all or nothing. Pure: ids, time, hashes and stored
 * documents come from `ctx`. Invariants: the input tree is never modified; on failure nothing of
 * the batch is returned but the failing change's index and why; on success page ids are unique,
 * slugs are unique among siblings wherever this batch placed or renamed a page, and every
 * document in the result tree is either in `documents` or was already stored.
 */
export function applyChanges(tree: ContentTree, changes: readonly ContentChange[], ctx: ApplyContext): ApplyResult {
  const state: BatchState = {
    ctx,
    tree,
    pending: new Map(),
    touched: new Set(),
    refs: new Map(),
    pageIds: new Map(),
    fileIds: new Map(),
    createdRefs: new Map(),
    insertedFiles: [],
    insertedReusableContents: [],
    includeTexts: new Map(),
    gitTexts: new Map(),
  };
  const prefix = (index: number, message: string) => `changes[${index}]: ${message}`;
  const early = assignIds(state, tree, changes);
  if (early) return { ok: false, index: early.index, message: prefix(early.index, early.failure.message), status: early.failure.status };
  for (const [index, change] of changes.entries()) {
    try {
      applyOne(state, change, index);
    } catch (error) {
      // A stack overflow is a document nested past what the parser can walk: bad input, not a bug.
      if (error instanceof RangeError)
        return { ok: false, index, message: prefix(index, 'document is nested too deeply to process'), status: 400 };
      if (!(error instanceof ChangeFailure)) throw error;
      return { ok: false, index, message: prefix(index, error.message), status: error.status };
    }
  }
  const documents = storeDocuments(state);
  return {
    ok: true,
    tree: state.tree,
    outcomes: outcomes(state, tree),
    insertedFiles: state.insertedFiles,
    insertedReusableContents: state.insertedReusableContents,
    documents,
  };
}
