import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { IntegrationInstallationsTable, IntegrationsTable } from './part2-tables.js';
import type { SortKey } from '../util/cursor.js';
import { afterKey } from './keyset.js';
import { newId } from '../util/ids.js';
import { hashToken } from '../auth/tokens.js';
import { inTransaction } from './transaction.js';

export type IntegrationRow = IntegrationsTable;
export type InstallationRow = IntegrationInstallationsTable;

export function findIntegration(db: Kysely<Database>, name: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Integrations by name, strictly after `after`. */
export function listIntegrations(db: Kysely<Database>, after: SortKey | undefined, n: number): Promise<IntegrationRow[]> {
  let query = db.selectFrom('integrations').selectAll();
  if (after) query = query.where((eb) => afterKey(eb, 'name', 'name', after));
  return query.orderBy('name').limit(n).execute();
}

/** Publishes (inserts) or republishes (replaces, version + 1) an integration. */
export async function saveIntegration(
  db: Kysely<Database>,
  row: Omit<IntegrationRow, 'version' | 'created_at'>,
  now: string,
): Promise<void> {
  const existing = await findIntegration(db, row.name);
  if (existing) {
    await db
      .updateTable('integrations')
      .set({ ...row, version: existing.version + 1, updated_at: now })
      .where('name', '=', row.name)
      .execute();
    return;
  }
  await db
    .insertInto('integrations')
    .values({ ...row, version: 1, created_at: now, updated_at: now })
    .execute();
}

export async function deleteIntegration(db: Kysely<Database>, name: string, now: string): Promise<void> {
  const installations = await db.selectFrom('integration_installations').select('id').where('integration', '=', name).execute();
  for (const { id } of installations) await deleteInstallation(db, id, now);
  await db.deleteFrom('integrations').where('name', '=', name).execute();
}

export async function insertInstallation(db: Kysely<Database>, integration: string, orgId: string, now: string): Promise<InstallationRow> {
  const row: InstallationRow = {
    id: newId(),
    integration,
    org_id: orgId,
    external_ids: '[]',
    configuration: '{}',
    space_selection: 'selected',
    site_selection: 'selected',
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('integration_installations').values(row).execute();
  return row;
}

export function findInstallation(db: Kysely<Database>, integration: string, id: string): Promise<InstallationRow | undefined> {
  return db
    .selectFrom('integration_installations')
    .selectAll()
    .where('integration', '=', integration)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findInstallationOf(db: Kysely<Database>, integration: string, orgId: string): Promise<InstallationRow | undefined> {
  return db
    .selectFrom('integration_installations')
    .selectAll()
    .where('integration', '=', integration)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
}

export function listInstallations(
  db: Kysely<Database>,
  integration: string,
  after: SortKey | undefined,
  n: number,
): Promise<InstallationRow[]> {
  let query = db.selectFrom('integration_installations').selectAll().where('integration', '=', integration);
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'id', after));
  return query.orderBy('created_at').orderBy('id').limit(n).execute();
}

/** Removes an installation, its spaces and sites, and revokes its tokens (whose user is the installation's id). */
export async function deleteInstallation(db: Kysely<Database>, id: string, now: string): Promise<void> {
  await db.updateTable('tokens').set({ revoked_at: now }).where('user_id', '=', id).where('revoked_at', 'is', null).execute();
  await db.deleteFrom('integration_targets').where('installation_id', '=', id).execute();
  await db.deleteFrom('integration_installations').where('id', '=', id).execute();
}

export async function updateInstallation(
  db: Kysely<Database>,
  row: InstallationRow,
  change: Partial<Pick<InstallationRow, 'external_ids' | 'configuration' | 'space_selection' | 'site_selection'>>,
  now: string,
): Promise<InstallationRow> {
  const next = { ...row, ...change, updated_at: now };
  await db
    .updateTable('integration_installations')
    .set({
      external_ids: next.external_ids,
      configuration: next.configuration,
      space_selection: next.space_selection,
      site_selection: next.site_selection,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .execute();
  return next;
}

/**
 * A new token for the installation's own user (created on first use: id = the installation's id,
 * named after the integration), stored hashed, expiring at `expiresAt`.
 */
export async function createInstallationToken(
  db: Kysely<Database>,
  installation: InstallationRow,
  integrationTitle: string,
  token: string,
  now: string,
  expiresAt: string,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('id', '=', installation.id).executeTakeFirst();
    if (!user)
      await trx
        .insertInto('users')
        .values({
          id: installation.id,
          email: `${installation.id.toLowerCase()}.${installation.integration.toLowerCase()}@installations.invalid`,
          display_name: integrationTitle,
          photo_url: null,
          created_at: now,
        })
        .execute();
    await trx
      .insertInto('tokens')
      .values({
        id: newId(),
        user_id: installation.id,
        hash: hashToken(token),
        label: `integration ${installation.integration}`,
        created_at: now,
        revoked_at: null,
        expires_at: expiresAt,
      })
      .execute();
  });
}

export function findInstallationById(db: Kysely<Database>, id: string): Promise<InstallationRow | undefined> {
  return db.selectFrom('integration_installations').selectAll().where('id', '=', id).executeTakeFirst();
}
