import type { Kysely } from 'kysely';
import { DocsyncError, badRequest } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { findOrganization, type OrganizationRow } from '../store/organizations.js';
import { memberRole } from '../auth/access.js';
import type { IntegrationRow } from '../store/integrations.js';

/** An organization named by id or by its hostname (subdomain); `field` names it in the 400. */
export async function organizationByRef(db: Kysely<Database>, ref: string, field: string): Promise<OrganizationRow> {
  const org =
    (await findOrganization(db, ref)) ?? (await db.selectFrom('organizations').selectAll().where('hostname', '=', ref).executeTakeFirst());
  if (!org) throw badRequest(`${field}: no organization has the id or subdomain ${JSON.stringify(ref)}`);
  return org;
}

/**
 * Who sees an integration: anyone for `public` and `unlisted` (by name; listings leave unlisted
 * ones out), only members of the owner organization for `private`.
 */
export async function canSee(db: Kysely<Database>, row: IntegrationRow, userId: string, listing: boolean): Promise<boolean> {
  if (row.visibility === 'public') return true;
  if (row.visibility === 'unlisted' && !listing) return true;
  return (await memberRole(db, row.owner_org, userId)) !== undefined;
}

/** Does the caller administer at least one organization (where it could install)? */
export async function administersAny(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('members')
    .select('org_id')
    .where('user_id', '=', userId)
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .executeTakeFirst();
  return row !== undefined;
}

export async function loadVisible(
  db: Kysely<Database>,
  row: IntegrationRow | undefined,
  name: string,
  userId: string,
): Promise<IntegrationRow> {
  if (!row || !(await canSee(db, row, userId, false))) throw new DocsyncError('not_found', `integration ${name} not found`);
  return row;
}
