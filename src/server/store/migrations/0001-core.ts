import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('photo_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('label', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('email_domains', 'text', (c) => c.notNull())
    .addColumn('hostname', 'text', (c) => c.unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('use_case', 'text')
    .addColumn('community_type', 'text')
    .addColumn('default_role', 'text')
    .addColumn('default_content', 'text')
    .addColumn('sso', 'integer', (c) => c.notNull())
    .addColumn('ai', 'integer', (c) => c.notNull())
    .addColumn('invite_links', 'integer', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('logo', 'text')
    .execute();
  await db.schema.createIndex('organizations_created').on('organizations').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('members')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('role', 'text')
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text')
    .addColumn('disabled', 'integer', (c) => c.notNull())
    .addColumn('sso', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('members_pk', ['org_id', 'user_id'])
    .execute();
  await db.schema.createIndex('members_user').on('members').columns(['user_id']).execute();

  await db.schema
    .createTable('collections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('parent_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('default_level', 'text', (c) => c.notNull())
    .addColumn('position', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('collections_org').on('collections').columns(['org_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('collections_parent').on('collections').columns(['parent_id', 'position', 'id']).execute();

  await db.schema
    .createTable('spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('parent_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('edit_mode', 'text', (c) => c.notNull())
    .addColumn('default_level', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('position', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .addColumn('comments', 'integer', (c) => c.notNull())
    .addColumn('change_requests', 'integer', (c) => c.notNull())
    .addColumn('change_requests_open', 'integer', (c) => c.notNull())
    .addColumn('change_requests_draft', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('spaces_org').on('spaces').columns(['org_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('spaces_parent').on('spaces').columns(['parent_id', 'position', 'id']).execute();

  await db.schema
    .createTable('revisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('parents', 'text', (c) => c.notNull())
    .addColumn('tree', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('revisions_space').on('revisions').columns(['space_id']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['run_at']).execute();
}
