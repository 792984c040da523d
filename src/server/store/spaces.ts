import { inTransaction } from './transaction.js';
import type { Kysely } from 'kysely';
import type { Database, SpacesTable } from './schema.js';
import { newId } from '../util/ids.js';
import { afterKey } from './keyset.js';
import type { SortKey } from '../util/cursor.js';
import { createRevision, findRevision, initialTree, revisionTree } from './revisions.js';
import { nextPosition } from './positions.js';

export type SpaceRow = SpacesTable;

export interface NewSpace {
  orgId: string;
  parentId: string | null;
  title: string;
  emoji: string;
  visibility: string;
  editMode: string;
  empty: boolean;
}

/** Creates a space with its first revision: one empty root page unless `empty`. */
export async function createSpace(db: Kysely<Database>, input: NewSpace, now: string): Promise<SpaceRow> {
  return inTransaction(db, async (trx) => {
    const id = newId();
    const revision = await createRevision(
      trx,
      { spaceId: id, type: 'edits', parents: [], tree: initialTree(newId(), input.empty, now) },
      now,
    );
    const row: SpaceRow = {
      id,
      org_id: input.orgId,
      parent_id: input.parentId,
      title: input.title,
      emoji: input.emoji,
      visibility: input.visibility,
      edit_mode: input.editMode,
      default_level: 'inherit',
      revision_id: revision.id,
      position: await nextPosition(trx, input.orgId, input.parentId),
      created_at: now,
      updated_at: now,
      deleted_at: null,
      comments: 0,
      change_requests: 0,
      change_requests_open: 0,
      change_requests_draft: 0,
    };
    await trx.insertInto('spaces').values(row).execute();
    return row;
  });
}

/** A live space; deleted spaces are invisible unless `includeDeleted`. */
export function findSpace(db: Kysely<Database>, id: string, includeDeleted = false): Promise<SpaceRow | undefined> {
  let query = db.selectFrom('spaces').selectAll().where('id', '=', id);
  if (!includeDeleted) query = query.where('deleted_at', 'is', null);
  return query.executeTakeFirst();
}

export function listSpacesOfOrganization(db: Kysely<Database>, orgId: string, after: SortKey | undefined, n: number) {
  let query = db.selectFrom('spaces').selectAll().where('org_id', '=', orgId).where('deleted_at', 'is', null);
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'id', after));
  return query.orderBy('created_at').orderBy('id').limit(n).execute();
}

/** Spaces directly in a collection, in their sibling order. */
export function listSpacesOfCollection(db: Kysely<Database>, collectionId: string, after: SortKey | undefined, n: number) {
  let query = db.selectFrom('spaces').selectAll().where('parent_id', '=', collectionId).where('deleted_at', 'is', null);
  if (after) query = query.where((eb) => afterKey(eb, 'position', 'id', after));
  return query.orderBy('position').orderBy('id').limit(n).execute();
}

export async function updateSpace(db: Kysely<Database>, id: string, changes: Partial<Omit<SpaceRow, 'id' | 'created_at'>>): Promise<void> {
  await db.updateTable('spaces').set(changes).where('id', '=', id).execute();
}

/** A new space in the same place holding a copy of the source's current content. */
export async function duplicateSpace(db: Kysely<Database>, source: SpaceRow, title: string, now: string): Promise<SpaceRow> {
  return inTransaction(db, async (trx) => {
    const id = newId();
    const head = await findRevision(trx, source.revision_id);
    const revision = await createRevision(
      trx,
      // Same tree, so the same blobs: a copy costs one revision row.
      { spaceId: id, type: 'edits', parents: [], tree: head ? await revisionTree(trx, head) : initialTree(newId(), false, now) },
      now,
    );
    const row: SpaceRow = {
      ...source,
      id,
      title,
      revision_id: revision.id,
      position: await nextPosition(trx, source.org_id, source.parent_id),
      created_at: now,
      updated_at: now,
      deleted_at: null,
      comments: 0,
      change_requests: 0,
      change_requests_open: 0,
      change_requests_draft: 0,
    };
    await trx.insertInto('spaces').values(row).execute();
    return row;
  });
}
