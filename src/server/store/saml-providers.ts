import type { Kysely } from 'kysely';
import type { Role } from '../../model/index.js';
import type { Database } from './schema.js';
import type { SamlProvidersTable } from './part2-tables.js';
import { afterKey } from './keyset.js';
import type { SortKey } from '../util/cursor.js';
import { newId } from '../util/ids.js';

export type SamlProviderRow = SamlProvidersTable;

export interface SamlProviderFields {
  label: string;
  entity_id: string | null;
  certificate: string | null;
  sso_url: string | null;
  default_team: string | null;
  default_role: Role | null;
}

export async function insertSamlProvider(
  db: Kysely<Database>,
  orgId: string,
  fields: SamlProviderFields,
  now: string,
): Promise<SamlProviderRow> {
  const row: SamlProviderRow = { id: newId(), org_id: orgId, ...fields, created_at: now };
  await db.insertInto('saml_providers').values(row).execute();
  return row;
}

export function findSamlProvider(db: Kysely<Database>, orgId: string, id: string): Promise<SamlProviderRow | undefined> {
  return db.selectFrom('saml_providers').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export function findSamlProviderById(db: Kysely<Database>, id: string): Promise<SamlProviderRow | undefined> {
  return db.selectFrom('saml_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listSamlProviders(db: Kysely<Database>, orgId: string, after: SortKey | undefined, n: number): Promise<SamlProviderRow[]> {
  let query = db.selectFrom('saml_providers').selectAll().where('org_id', '=', orgId);
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'id', after));
  return query.orderBy('created_at').orderBy('id').limit(n).execute();
}

export async function updateSamlProvider(db: Kysely<Database>, id: string, fields: Partial<SamlProviderFields>): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  await db.updateTable('saml_providers').set(fields).where('id', '=', id).execute();
}

export async function deleteSamlProvider(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('saml_requests').where('provider_id', '=', id).execute();
  await db.deleteFrom('saml_providers').where('id', '=', id).execute();
}
