import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { IntegrationInstallationsTable, IntegrationsTable } from './part2-tables.js';
import type { SortKey } from '../util/cursor.js';
import { afterKey } from './keyset.js';
import { newId } from '../util/ids.js';

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

export async function deleteIntegration(db: Kysely<Database>, name: string): Promise<void> {
  await db.deleteFrom('integration_installations').where('integration', '=', name).execute();
  await db.deleteFrom('integrations').where('name', '=', name).execute();
}

export async function insertInstallation(db: Kysely<Database>, integration: string, orgId: string, now: string): Promise<InstallationRow> {
  const row: InstallationRow = {
    id: newId(),
    integration,
    org_id: orgId,
    external_ids: '[]',
    configuration: '{}',
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

export async function deleteInstallation(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('integration_installations').where('id', '=', id).execute();
}
