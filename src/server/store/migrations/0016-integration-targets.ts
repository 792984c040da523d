import type { Kysely } from 'kysely';

/*
 * Integration installations on spaces and sites (routes/integration-targets.ts), the
 * installation's selections, and expiring tokens (installation tokens, auth/installation-scope.ts).
 * A target row is one space or site an installation is installed on, with its own external ids
 * and configuration; `kind` is `space` or `site`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('integration_targets')
    .addColumn('installation_id', 'text', (c) => c.notNull().references('integration_installations.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('external_ids', 'text', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('integration_targets_pk', ['installation_id', 'kind', 'target_id'])
    .execute();
  await db.schema.createIndex('integration_targets_target').on('integration_targets').columns(['kind', 'target_id']).execute();
  await db.schema
    .alterTable('integration_installations')
    .addColumn('space_selection', 'text', (c) => c.notNull().defaultTo('selected'))
    .execute();
  await db.schema
    .alterTable('integration_installations')
    .addColumn('site_selection', 'text', (c) => c.notNull().defaultTo('selected'))
    .execute();
  await db.schema.alterTable('tokens').addColumn('expires_at', 'text').execute();
}
