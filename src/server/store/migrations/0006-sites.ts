import type { Kysely } from 'kysely';

/*
 * Docs sites. A site's default section and the default site space (of the root, or of each
 * section) are pointers held by the parent row, so there is at most one of each by construction:
 * setting one replaces the other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('basename', 'text', (c) => c.unique())
    .addColumn('hostname', 'text', (c) => c.unique())
    .addColumn('proxy_origin', 'text')
    .addColumn('published', 'integer', (c) => c.notNull())
    .addColumn('adaptive_content', 'integer', (c) => c.notNull())
    .addColumn('agents_context', 'text', (c) => c.notNull())
    .addColumn('default_section_id', 'text')
    .addColumn('default_site_space_id', 'text')
    .addColumn('adaptive_schema', 'text')
    .addColumn('adaptive_schema_updated_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_org').on('sites').columns(['org_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('site_section_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('position', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_section_groups_site').on('site_section_groups').columns(['site_id', 'position', 'id']).execute();

  await db.schema
    .createTable('site_sections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id'))
    .addColumn('group_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('condition', 'text')
    .addColumn('icon', 'text')
    .addColumn('description', 'text')
    .addColumn('default_site_space_id', 'text')
    .addColumn('position', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('site_sections_path', ['site_id', 'path'])
    .execute();
  await db.schema.createIndex('site_sections_site').on('site_sections').columns(['site_id', 'position', 'id']).execute();

  await db.schema
    .createTable('site_spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id'))
    .addColumn('section_id', 'text')
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('condition', 'text')
    .addColumn('position', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_spaces_site').on('site_spaces').columns(['site_id', 'position', 'id']).execute();
  await db.schema.createIndex('site_spaces_space').on('site_spaces').columns(['space_id']).execute();

  await db.schema
    .createTable('site_share_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id'))
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_share_links_site').on('site_share_links').columns(['site_id', 'created_at', 'id']).execute();
}
