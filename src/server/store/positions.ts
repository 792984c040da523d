import type { Kysely } from 'kysely';
import { DocsyncError, badRequest, type ContentPointer, type ContentPosition } from '../../model/index.js';
import type { Database } from './schema.js';

/** A space or collection among the children of one parent (a collection, or the org's root). */
export interface Sibling {
  type: 'space' | 'collection';
  id: string;
  position: number;
}

/** Spaces and collections share one sibling order under a parent, as the move API's pointers do. */
export async function siblings(db: Kysely<Database>, orgId: string, parentId: string | null): Promise<Sibling[]> {
  const spaces = await db
    .selectFrom('spaces')
    .select(['id', 'position'])
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .where((eb) => (parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId)))
    .execute();
  const collections = await db
    .selectFrom('collections')
    .select(['id', 'position'])
    .where('org_id', '=', orgId)
    .where((eb) => (parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', parentId)))
    .execute();
  return [
    ...spaces.map((s) => ({ type: 'space' as const, id: s.id, position: Number(s.position) })),
    ...collections.map((c) => ({ type: 'collection' as const, id: c.id, position: Number(c.position) })),
  ].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Serialises writes to an organization's tree of spaces and collections until the transaction
 * ends. Checks such as "the new parent is not inside the collection" read several rows; without
 * this, two concurrent moves could each pass their check and together make a cycle. A no-op
 * update takes a row lock on PostgreSQL and the write lock on SQLite, so it works on both; it
 * touches the title rather than the key so that no foreign-key check runs.
 */
export async function lockContentTree(trx: Kysely<Database>, orgId: string): Promise<void> {
  await trx
    .updateTable('organizations')
    .set((eb) => ({ title: eb.ref('title') }))
    .where('id', '=', orgId)
    .execute();
}

export async function nextPosition(db: Kysely<Database>, orgId: string, parentId: string | null): Promise<number> {
  const all = await siblings(db, orgId, parentId);
  return all.length === 0 ? 1 : Math.floor(all[all.length - 1]!.position) + 1;
}

export interface Pointer {
  type: 'space' | 'collection';
  id: string;
}

export interface Placement {
  before?: Pointer;
  after?: Pointer;
}

/**
 * Where `item` lands among `others` (its future siblings, without itself): before `before`,
 * after `after`, between both when both are given (they must then be neighbours), else last.
 * Returns the new order, or an error message naming the offending field.
 */
export function placeAmong(others: readonly Sibling[], item: Pointer, placement: Placement | undefined): Pointer[] | string {
  const order: Pointer[] = others.map(({ type, id }) => ({ type, id }));
  const indexOf = (p: Pointer) => order.findIndex((s) => s.type === p.type && s.id === p.id);
  const same = (p: Pointer) => p.type === item.type && p.id === item.id;
  let at = order.length;
  if (placement?.before) {
    if (same(placement.before)) return 'body.position.before points at the item being moved';
    const i = indexOf(placement.before);
    if (i < 0) return `body.position.before: ${placement.before.type} ${placement.before.id} is not in the target parent`;
    at = i;
  }
  if (placement?.after) {
    if (same(placement.after)) return 'body.position.after points at the item being moved';
    const i = indexOf(placement.after);
    if (i < 0) return `body.position.after: ${placement.after.type} ${placement.after.id} is not in the target parent`;
    if (placement.before && i + 1 !== at) return 'body.position.after and body.position.before are not neighbours';
    at = i + 1;
  }
  order.splice(at, 0, { type: item.type, id: item.id });
  return order;
}

/** Writes positions 1..n in `order`, touching only rows whose position changes. */
export async function writeOrder(db: Kysely<Database>, order: readonly Pointer[], current: readonly Sibling[]): Promise<void> {
  const before = new Map(current.map((s) => [`${s.type}:${s.id}`, s.position]));
  for (const [index, pointer] of order.entries()) {
    const position = index + 1;
    if (before.get(`${pointer.type}:${pointer.id}`) === position) continue;
    if (pointer.type === 'space') await db.updateTable('spaces').set({ position }).where('id', '=', pointer.id).execute();
    else await db.updateTable('collections').set({ position }).where('id', '=', pointer.id).execute();
  }
}

/** The API's `{type: "space", space}` / `{type: "collection", collection}` pointers as Pointers. */
export function placementOf(position: ContentPosition | undefined): Placement | undefined {
  if (!position) return undefined;
  const pointer = (p: ContentPointer): Pointer =>
    p.type === 'space' ? { type: 'space', id: p.space } : { type: 'collection', id: p.collection };
  return {
    ...(position.before ? { before: pointer(position.before) } : {}),
    ...(position.after ? { after: pointer(position.after) } : {}),
  };
}

/**
 * Puts `item` among the children of `parentId` where `position` says (last when absent) and
 * writes the new order. A placement that names no sibling is a 400; one that would leave the
 * item where it is (same parent, same place) is the 409 the published spec declares.
 */
export async function placeItem(
  db: Kysely<Database>,
  target: { orgId: string; parentId: string | null; previousParentId: string | null },
  item: Pointer,
  position: ContentPosition | undefined,
): Promise<void> {
  const current = await siblings(db, target.orgId, target.parentId);
  const others = current.filter((s) => !(s.type === item.type && s.id === item.id));
  const order = placeAmong(others, item, placementOf(position));
  if (typeof order === 'string') throw badRequest(order);
  const unchanged =
    target.parentId === target.previousParentId &&
    order.length === current.length &&
    order.every((p, i) => p.type === current[i]!.type && p.id === current[i]!.id);
  if (unchanged) throw new DocsyncError('conflict', `moving ${item.type} ${item.id} there would not change anything`);
  await writeOrder(db, order, current);
}
