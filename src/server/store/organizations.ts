import { inTransaction } from './transaction.js';
import type { Kysely } from 'kysely';
import type { Role } from '../../model/index.js';
import type { Database, MembersTable, OrganizationsTable } from './schema.js';
import { newId } from '../util/ids.js';
import { afterKey } from './keyset.js';
import type { SortKey } from '../util/cursor.js';

export type OrganizationRow = OrganizationsTable;
export type MemberRow = MembersTable;

export async function createOrganization(
  db: Kysely<Database>,
  input: { title: string; ownerId: string; id?: string },
  now: string,
): Promise<OrganizationRow> {
  const row: OrganizationRow = {
    id: input.id ?? newId(),
    title: input.title,
    created_at: now,
    email_domains: '[]',
    hostname: null,
    type: 'business',
    use_case: null,
    community_type: null,
    default_role: 'read',
    default_content: null,
    sso: 0,
    ai: 0,
    invite_links: 0,
    plan: 'free',
    logo: null,
  };
  await inTransaction(db, async (trx) => {
    await trx.insertInto('organizations').values(row).execute();
    await trx
      .insertInto('members')
      .values({ org_id: row.id, user_id: input.ownerId, role: 'admin', joined_at: now, last_seen_at: null, disabled: 0, sso: 0 })
      .execute();
  });
  return row;
}

export function findOrganization(db: Kysely<Database>, id: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findMember(db: Kysely<Database>, orgId: string, userId: string): Promise<MemberRow | undefined> {
  return db.selectFrom('members').selectAll().where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
}

/** Adds a member, or changes the role of an existing one. */
export async function upsertMember(
  db: Kysely<Database>,
  input: { orgId: string; userId: string; role: Role | null },
  now: string,
): Promise<void> {
  const existing = await findMember(db, input.orgId, input.userId);
  if (existing) {
    await db
      .updateTable('members')
      .set({ role: input.role })
      .where('org_id', '=', input.orgId)
      .where('user_id', '=', input.userId)
      .execute();
    return;
  }
  await db
    .insertInto('members')
    .values({ org_id: input.orgId, user_id: input.userId, role: input.role, joined_at: now, last_seen_at: null, disabled: 0, sso: 0 })
    .execute();
}

/** Organizations the user is a member of, in creation order, strictly after `after`. */
export function listOrganizationsOfUser(db: Kysely<Database>, userId: string, after: SortKey | undefined, n: number) {
  let query = db
    .selectFrom('organizations')
    .innerJoin('members', 'members.org_id', 'organizations.id')
    .selectAll('organizations')
    .select('members.role as member_role')
    .where('members.user_id', '=', userId);
  if (after) query = query.where((eb) => afterKey(eb, 'organizations.created_at', 'organizations.id', after));
  return query.orderBy('organizations.created_at').orderBy('organizations.id').limit(n).execute();
}

/** Organizations that list `domain` among their e-mail domains. */
export async function listOrganizationsByEmailDomain(db: Kysely<Database>, domain: string): Promise<OrganizationRow[]> {
  const needle = domain.toLowerCase();
  // email_domains is a small JSON array; a LIKE narrows the scan and the parse decides exactly.
  const rows = await db
    .selectFrom('organizations')
    .selectAll()
    .where('email_domains', 'like', `%"${needle.replace(/[\\%_"]/g, '')}"%`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.filter((row) => (JSON.parse(row.email_domains) as string[]).includes(needle));
}

export async function updateOrganization(
  db: Kysely<Database>,
  id: string,
  changes: Partial<Omit<OrganizationRow, 'id' | 'created_at'>>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('organizations').set(changes).where('id', '=', id).execute();
}

export async function hostnameTaken(db: Kysely<Database>, hostname: string, exceptOrgId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organizations')
    .select('id')
    .where('hostname', '=', hostname)
    .where('id', '!=', exceptOrgId)
    .executeTakeFirst();
  return row !== undefined;
}
