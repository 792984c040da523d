import type { Kysely } from 'kysely';
import type { CollectionsTable, Database } from './schema.js';
import { newId } from '../util/ids.js';
import { afterKey } from './keyset.js';
import type { SortKey } from '../util/cursor.js';
import { nextPosition } from './positions.js';

export type CollectionRow = CollectionsTable;

export async function createCollection(
  db: Kysely<Database>,
  input: { orgId: string; parentId: string | null; title: string },
  now: string,
): Promise<CollectionRow> {
  const row: CollectionRow = {
    id: newId(),
    org_id: input.orgId,
    parent_id: input.parentId,
    title: input.title,
    description: null,
    default_level: 'inherit',
    position: await nextPosition(db, input.orgId, input.parentId),
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('collections').values(row).execute();
  return row;
}

export function findCollection(db: Kysely<Database>, id: string): Promise<CollectionRow | undefined> {
  return db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Collections of an organization in creation order; `topLevelOnly` leaves out nested ones. */
export function listCollectionsOfOrganization(
  db: Kysely<Database>,
  orgId: string,
  topLevelOnly: boolean,
  after: SortKey | undefined,
  n: number,
) {
  let query = db.selectFrom('collections').selectAll().where('org_id', '=', orgId);
  if (topLevelOnly) query = query.where('parent_id', 'is', null);
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'id', after));
  return query.orderBy('created_at').orderBy('id').limit(n).execute();
}

export async function updateCollection(
  db: Kysely<Database>,
  id: string,
  changes: Partial<Omit<CollectionRow, 'id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('collections').set(changes).where('id', '=', id).execute();
}

/** Ids of the collection and every collection nested in it, at any depth. */
export async function collectionSubtree(db: Kysely<Database>, rootId: string): Promise<string[]> {
  const ids = [rootId];
  for (let i = 0; i < ids.length; i += 1) {
    const children = await db.selectFrom('collections').select('id').where('parent_id', '=', ids[i]!).execute();
    for (const child of children) if (!ids.includes(child.id)) ids.push(child.id);
  }
  return ids;
}

/** True when `candidateId` is `collectionId` or nested in it: moving `collectionId` under it would make a cycle. */
export async function isInSubtree(db: Kysely<Database>, collectionId: string, candidateId: string): Promise<boolean> {
  let current: string | null = candidateId;
  const seen = new Set<string>();
  while (current !== null && !seen.has(current)) {
    if (current === collectionId) return true;
    seen.add(current);
    const row: { parent_id: string | null } | undefined = await db
      .selectFrom('collections')
      .select('parent_id')
      .where('id', '=', current)
      .executeTakeFirst();
    current = row?.parent_id ?? null;
  }
  return false;
}
