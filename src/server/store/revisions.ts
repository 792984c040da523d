import type { Kysely } from 'kysely';
import type { ContentTree } from '../../model/index.js';
import type { Database, RevisionsTable } from './schema.js';
import { newId } from '../util/ids.js';
import { loadTree, saveTree } from './trees.js';

export type RevisionRow = RevisionsTable;

/** A new space's content: one empty page, or nothing at all for `empty`. */
export function initialTree(pageId: string, empty: boolean, now: string): ContentTree {
  return {
    pages: empty
      ? []
      : [{ id: pageId, type: 'document', title: 'Introduction', slug: 'introduction', createdAt: now, updatedAt: now, pages: [] }],
    files: [],
    variables: {},
    reusableContents: [],
  };
}

export interface NewRevision {
  spaceId: string;
  type: 'edits' | 'merge' | 'update' | 'rollback';
  parents: string[];
  tree: ContentTree;
  changeRequestId?: string | null;
  mergedFrom?: string | null;
  createdBy?: string | null;
}

/**
 * Stores the tree (once, as a delta of its first parent's where it can) and a revision pointing
 * at it. Moving a head is the caller's job.
 */
export async function createRevision(db: Kysely<Database>, input: NewRevision, now: string): Promise<RevisionRow> {
  const parent = input.parents[0];
  const base =
    parent === undefined
      ? undefined
      : (await db.selectFrom('revisions').select('tree_sha').where('id', '=', parent).executeTakeFirst())?.tree_sha;
  const row: RevisionRow = {
    id: newId(),
    space_id: input.spaceId,
    type: input.type,
    parents: JSON.stringify(input.parents),
    tree_sha: await saveTree(db, input.tree, base),
    change_request_id: input.changeRequestId ?? null,
    merged_from: input.mergedFrom ?? null,
    created_by: input.createdBy ?? null,
    created_at: now,
  };
  await db.insertInto('revisions').values(row).execute();
  return row;
}

export function findRevision(db: Kysely<Database>, id: string): Promise<RevisionRow | undefined> {
  return db.selectFrom('revisions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A revision of one space (revisions of other spaces are invisible through it). */
export function findSpaceRevision(db: Kysely<Database>, spaceId: string, id: string): Promise<RevisionRow | undefined> {
  return db.selectFrom('revisions').selectAll().where('id', '=', id).where('space_id', '=', spaceId).executeTakeFirst();
}

export async function revisionTree(db: Kysely<Database>, revision: RevisionRow): Promise<ContentTree> {
  return loadTree(db, revision.tree_sha);
}
