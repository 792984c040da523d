import type { Kysely } from 'kysely';
import { mergeTrees, type TreeConflict } from '../../content/index.js';
import { DocsyncError, type ContentTree } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { findRevision, revisionTree } from '../store/revisions.js';
import { prepareDocuments } from './documents.js';

export interface CleanMerge {
  tree: ContentTree;
  /** Stores the documents the line merge produced; call it in the transaction that saves the tree. */
  flush(db: Kysely<Database>): Promise<void>;
}

async function treeOf(db: Kysely<Database>, revisionId: string): Promise<ContentTree> {
  const revision = await findRevision(db, revisionId);
  if (!revision) throw new Error(`revision ${revisionId} is missing`);
  return revisionTree(db, revision);
}

/**
 * Three-way merge of the trees of three revisions. A conflict throws 409 naming every page (or
 * file, variable, reusable content) in conflict and why; nothing is stored in that case.
 */
export async function mergeRevisions(
  db: Kysely<Database>,
  revisions: { base: string; ours: string; theirs: string },
  what: string,
): Promise<CleanMerge> {
  const [base, ours, theirs] = await Promise.all([treeOf(db, revisions.base), treeOf(db, revisions.ours), treeOf(db, revisions.theirs)]);
  const documents = await prepareDocuments(db, base, ours, theirs);
  const result = mergeTrees(base, ours, theirs, documents.store);
  if (result.kind === 'conflict') throw new DocsyncError('conflict', conflictMessage(what, result.conflicts));
  // What reads need of the line-merged documents is derived now, as for any written document.
  await documents.deriveFacts();
  return { tree: result.tree, flush: documents.flush };
}

const REASONS: Record<TreeConflict['reason'], (c: TreeConflict) => string> = {
  document: () => 'both sides changed the same lines of its document',
  metadata: (c) => (c.fields ? `both sides changed ${c.fields.join(', ')}` : 'added on both sides with different content'),
  'edit-delete': () => 'changed on one side and deleted on the other',
  move: () => 'moved under different parents on each side',
  'deleted-parent': () => 'placed under a page the other side deleted',
  cycle: () => 'the moves of both sides put it inside itself',
  'duplicate-slug': () => 'another page under the same parent has its slug',
  file: () => 'changed differently on both sides',
  'duplicate-file-name': () => 'each side added a file of this name',
  variable: () => 'set to different values on both sides',
  'reusable-content': (c) => (c.fields ? `both sides changed its ${c.fields.join(', ')}` : 'changed differently on both sides'),
  'duplicate-include-name': () => 'each side added a reusable content with this include file',
  'git-file': () => 'both sides changed the same lines, or one changed it and the other removed it',
};

const KIND: Record<TreeConflict['reason'], string> = {
  document: 'page',
  metadata: 'page',
  'edit-delete': 'page',
  move: 'page',
  'deleted-parent': 'page',
  cycle: 'page',
  'duplicate-slug': 'page',
  file: 'file',
  'duplicate-file-name': 'file',
  variable: 'variable',
  'reusable-content': 'reusable content',
  'duplicate-include-name': 'reusable content',
  'git-file': 'folder file',
};

export function conflictMessage(what: string, conflicts: readonly TreeConflict[]): string {
  const listed = conflicts.map((c) => `${KIND[c.reason]} "${c.title}" (${c.id}): ${REASONS[c.reason](c)}`);
  const pages = new Set(conflicts.map((c) => c.id)).size;
  return `${what}: ${pages} conflict${pages === 1 ? '' : 's'}; ${listed.join('; ')}`;
}
