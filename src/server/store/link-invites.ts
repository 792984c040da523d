import type { Kysely } from 'kysely';
import type { Role } from '../../model/index.js';
import type { Database, LinkInvitesTable } from './schema.js';
import { newId } from '../util/ids.js';
import { afterKey } from './keyset.js';
import type { SortKey } from '../util/cursor.js';

export type LinkInviteRow = LinkInvitesTable;

export async function createLinkInvite(
  db: Kysely<Database>,
  input: { orgId: string; role: Role | null; createdBy: string | null },
  now: string,
): Promise<LinkInviteRow> {
  const row: LinkInviteRow = { id: newId(), org_id: input.orgId, role: input.role, created_by: input.createdBy, created_at: now };
  await db.insertInto('link_invites').values(row).execute();
  return row;
}

export function findLinkInvite(db: Kysely<Database>, orgId: string, id: string): Promise<LinkInviteRow | undefined> {
  return db.selectFrom('link_invites').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export function listLinkInvites(db: Kysely<Database>, orgId: string, after: SortKey | undefined, n: number) {
  let query = db.selectFrom('link_invites').selectAll().where('org_id', '=', orgId);
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'id', after));
  return query.orderBy('created_at').orderBy('id').limit(n).execute();
}

/** True when the invite existed. */
export async function deleteLinkInvite(db: Kysely<Database>, orgId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('link_invites').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
