import type { Kysely } from 'kysely';
import type { Database, RevisionsTable } from './schema.js';
import { newId } from '../util/ids.js';

export type RevisionRow = RevisionsTable;

/**
 * The stored tree of a revision. The content engine owns its full shape; the foundation only
 * needs a space's first revision (one empty root page) and copies of a tree.
 */
export interface StoredTree {
  pages: unknown[];
  files: unknown[];
  variables: Record<string, unknown>;
  reusableContents: unknown[];
}

export function initialTree(pageId: string, empty: boolean): StoredTree {
  return {
    pages: empty ? [] : [{ id: pageId, type: 'document', title: 'Introduction', slug: '', document: null, pages: [] }],
    files: [],
    variables: {},
    reusableContents: [],
  };
}

export async function createRevision(
  db: Kysely<Database>,
  input: { spaceId: string; type: string; parents: string[]; tree: string },
  now: string,
): Promise<RevisionRow> {
  const row: RevisionRow = {
    id: newId(),
    space_id: input.spaceId,
    type: input.type,
    parents: JSON.stringify(input.parents),
    tree: input.tree,
    created_at: now,
  };
  await db.insertInto('revisions').values(row).execute();
  return row;
}

export function findRevision(db: Kysely<Database>, id: string): Promise<RevisionRow | undefined> {
  return db.selectFrom('revisions').selectAll().where('id', '=', id).executeTakeFirst();
}
