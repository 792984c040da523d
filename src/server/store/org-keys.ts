import type { Kysely } from 'kysely';
import type { Database, OrgKeysTable } from './schema.js';

export type OrgKeyRow = OrgKeysTable;

export function findOrgKey(db: Kysely<Database>, orgId: string): Promise<OrgKeyRow | undefined> {
  return db.selectFrom('org_keys').selectAll().where('org_id', '=', orgId).executeTakeFirst();
}

/**
 * Stores a key unless the organization has one; answers the key that is stored, so two
 * processes creating a key at once end up signing with the same one.
 */
export async function insertOrgKey(db: Kysely<Database>, row: OrgKeyRow): Promise<OrgKeyRow> {
  await db
    .insertInto('org_keys')
    .values(row)
    .onConflict((oc) => oc.column('org_id').doNothing())
    .execute();
  const stored = await findOrgKey(db, row.org_id);
  if (!stored) throw new Error(`organization key of ${row.org_id} vanished after insert`);
  return stored;
}
