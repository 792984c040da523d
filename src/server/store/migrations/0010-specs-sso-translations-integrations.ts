import type { Kysely } from 'kysely';

/*
 * The rest of Part 2 (docs/api.md): OpenAPI specs and their versions, translation settings,
 * SAML providers with the two tables their sign-in needs, integrations and their installations.
 *
 * - `openapi_specs.source_text` holds an uploaded spec; `source_url` one fetched from a URL.
 *   `openapi_spec_versions.digest` is the sha256 of every file read, so processing makes a new
 *   version only when the content changed.
 * - `saml_requests` holds the AuthnRequests in flight (their ids, checked against the response's
 *   InResponseTo) and `saml_assertions` the assertion ids already used (replays), both in the
 *   database so that any server process can finish a sign-in another one started.
 * - `integrations.secrets` is encrypted (AES-256-GCM); `icon` and `preview_images` are blob ids.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('openapi_specs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('source_text', 'text')
    .addColumn('processing_state', 'text', (c) => c.notNull())
    .addColumn('last_version', 'text')
    .addColumn('last_processed_at', 'text')
    .addColumn('last_error_code', 'text')
    .addColumn('last_errors', 'text')
    .addColumn('last_error_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('openapi_specs_slug', ['org_id', 'slug'])
    .execute();
  await db.schema.createIndex('openapi_specs_org').on('openapi_specs').columns(['org_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('openapi_spec_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('spec_id', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('entry', 'text', (c) => c.notNull())
    .addColumn('filesystem', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('openapi_spec_versions_spec').on('openapi_spec_versions').columns(['spec_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('translation_settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('languages', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('translation_settings_org').on('translation_settings').columns(['org_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('saml_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text')
    .addColumn('certificate', 'text')
    .addColumn('sso_url', 'text')
    .addColumn('default_team', 'text')
    .addColumn('default_role', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_providers_org').on('saml_providers').columns(['org_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('saml_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('saml_assertions')
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('assertion_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('saml_assertions_pk', ['provider_id', 'assertion_id'])
    .execute();

  await db.schema
    .createTable('integrations')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner_org', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('script', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('preview_images', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('integrations_owner').on('integrations').columns(['owner_org', 'name']).execute();

  await db.schema
    .createTable('integration_installations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('external_ids', 'text', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('integration_installations_org', ['integration', 'org_id'])
    .execute();
  await db.schema
    .createIndex('integration_installations_list')
    .on('integration_installations')
    .columns(['integration', 'created_at', 'id'])
    .execute();
}
