import type { Kysely } from 'kysely';
import { DocsyncError, badRequest, restoreDeadline, type ContentPosition } from '../../model/index.js';
import type { Database } from './schema.js';
import { inTransaction } from './transaction.js';
import { findCollection } from './collections.js';
import { lockContentTree, nextPosition, placeItem, siblings, writeOrder } from './positions.js';
import { createSpace, duplicateSpace, findSpace, updateSpace, type NewSpace, type SpaceRow } from './spaces.js';

/*
 * Writes that change where a space sits in its organization's tree. Invariants kept here:
 * a space's parent is a live collection of the space's own organization, an `in-collection`
 * space has a parent, and siblings under one parent have distinct positions. Collections are
 * moved and deleted concurrently, so each operation takes the organization's tree lock, reads
 * the space and its parent again under it, and only then checks and writes. The caller's role
 * was checked before, on the rows as they were; that check stays valid, since the lock only
 * guards against the tree changing underneath.
 */

async function requireLiveParent(trx: Kysely<Database>, orgId: string, parentId: string | null, field: string): Promise<void> {
  if (parentId === null) return;
  const parent = await findCollection(trx, parentId);
  if (!parent || parent.org_id !== orgId) throw badRequest(`${field}: collection ${parentId} not found in organization ${orgId}`);
}

/** Takes the tree locks (in a fixed order, so two transfers never deadlock) and re-reads the space. */
async function lockSpace(trx: Kysely<Database>, space: SpaceRow, alsoOrg?: string): Promise<SpaceRow> {
  for (const orgId of [...new Set([space.org_id, alsoOrg ?? space.org_id])].sort()) await lockContentTree(trx, orgId);
  const fresh = await findSpace(trx, space.id, true);
  if (!fresh) throw new DocsyncError('not_found', `space ${space.id} not found`);
  if (fresh.org_id !== space.org_id) throw new DocsyncError('conflict', `space ${space.id} was transferred meanwhile; try again`);
  return fresh;
}

function requireLive(space: SpaceRow): void {
  if (space.deleted_at !== null) throw new DocsyncError('not_found', `space ${space.id} not found`);
}

function requireParentForVisibility(visibility: string, parentId: string | null, field: string): void {
  if (visibility === 'in-collection' && parentId === null) {
    throw badRequest(`${field}: a space with visibility \`in-collection\` must be in a collection`);
  }
}

/** A new space, last among its siblings. */
export function addSpace(db: Kysely<Database>, input: NewSpace, now: string): Promise<SpaceRow> {
  return inTransaction(db, async (trx) => {
    await lockContentTree(trx, input.orgId);
    await requireLiveParent(trx, input.orgId, input.parentId, 'body.parent');
    return createSpace(trx, input, now);
  });
}

/** A copy of `source` next to it (last among its siblings). */
export function copySpace(db: Kysely<Database>, source: SpaceRow, title: string, now: string): Promise<SpaceRow> {
  return inTransaction(db, async (trx) => {
    const fresh = await lockSpace(trx, source);
    requireLive(fresh);
    return duplicateSpace(trx, fresh, title, now);
  });
}

/** Applies a PATCH; visibility `in-collection` is checked against the parent as it is now. */
export function changeSpace(db: Kysely<Database>, space: SpaceRow, changes: Partial<Omit<SpaceRow, 'id' | 'created_at'>>): Promise<void> {
  return inTransaction(db, async (trx) => {
    if (changes.visibility === 'in-collection') {
      const fresh = await lockSpace(trx, space);
      requireLive(fresh);
      requireParentForVisibility('in-collection', fresh.parent_id, 'body.visibility');
    }
    await updateSpace(trx, space.id, changes);
  });
}

/**
 * Moves a space under `parentId` (undefined: its current parent) at `position` (default: last).
 * A move that would leave everything as it is is a 409, as the published spec declares.
 */
export function moveSpace(
  db: Kysely<Database>,
  space: SpaceRow,
  target: { parentId: string | null | undefined; position: ContentPosition | undefined },
  now: string,
): Promise<void> {
  return inTransaction(db, async (trx) => {
    const fresh = await lockSpace(trx, space);
    requireLive(fresh);
    const parentId = target.parentId === undefined ? fresh.parent_id : target.parentId;
    await requireLiveParent(trx, fresh.org_id, parentId, 'body.parent');
    requireParentForVisibility(fresh.visibility, parentId, 'body.parent');
    await placeItem(
      trx,
      { orgId: fresh.org_id, parentId, previousParentId: fresh.parent_id },
      { type: 'space', id: fresh.id },
      target.position,
    );
    await updateSpace(trx, fresh.id, { parent_id: parentId, updated_at: now });
  });
}

/** Moves a space to another organization (or collection), last among its new siblings. */
export function transferSpace(
  db: Kysely<Database>,
  space: SpaceRow,
  target: { orgId: string; parentId: string | null },
  now: string,
): Promise<void> {
  return inTransaction(db, async (trx) => {
    const fresh = await lockSpace(trx, space, target.orgId);
    requireLive(fresh);
    if (target.orgId === fresh.org_id && target.parentId === fresh.parent_id) {
      throw new DocsyncError('conflict', `transferring space ${fresh.id} there would not change anything`);
    }
    await requireLiveParent(trx, target.orgId, target.parentId, 'body.collection');
    requireParentForVisibility(fresh.visibility, target.parentId, 'body.collection');
    const current = await siblings(trx, target.orgId, target.parentId);
    const others = current.filter((s) => !(s.type === 'space' && s.id === fresh.id));
    await updateSpace(trx, fresh.id, { org_id: target.orgId, parent_id: target.parentId, updated_at: now });
    await writeOrder(trx, [...others, { type: 'space', id: fresh.id }], current);
  });
}

/**
 * Brings back a space deleted less than the restore window ago, last among its siblings (its old
 * place may have been taken). Deleting its collection meanwhile moved it up, possibly to the
 * root, where `in-collection` would let no one in: there it becomes private.
 */
export function restoreSpace(db: Kysely<Database>, space: SpaceRow, now: Date): Promise<void> {
  return inTransaction(db, async (trx) => {
    const fresh = await lockSpace(trx, space);
    if (fresh.deleted_at === null) throw new DocsyncError('conflict', `space ${fresh.id} is not deleted`);
    const deadline = restoreDeadline(fresh.deleted_at);
    if (now.getTime() >= deadline.getTime()) {
      throw new DocsyncError(
        'restore_window_passed',
        `space ${fresh.id} was deleted at ${fresh.deleted_at}; it could be restored until ${deadline.toISOString()}`,
      );
    }
    const changes: Partial<SpaceRow> = {
      deleted_at: null,
      updated_at: now.toISOString(),
      position: await nextPosition(trx, fresh.org_id, fresh.parent_id),
    };
    if (fresh.parent_id === null && fresh.visibility === 'in-collection') changes.visibility = 'private';
    await updateSpace(trx, fresh.id, changes);
  });
}
