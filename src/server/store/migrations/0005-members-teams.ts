import type { Kysely } from 'kysely';

/**
 * People and who may do what (docs/api.md, "Roles").
 *
 * - `teams` and `team_members` (role `owner` or `member`).
 * - `content_permissions`: a role given on a space or a collection to a user or a team; `org_id`
 *   lets one query load every grant a caller has in an organization.
 * - `link_invites`: invite links to an organization, usable while its `inviteLinks` is on.
 * - `org_keys`: each organization's key pair signing the `serviceVisitorClaims` of ping; the
 *   public half is published (JWKS).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('teams_org').on('teams').columns(['org_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('added_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').columns(['user_id', 'team_id']).execute();

  await db.schema
    .createTable('content_permissions')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('content_id', 'text', (c) => c.notNull())
    .addColumn('content_kind', 'text', (c) => c.notNull())
    .addColumn('principal_kind', 'text', (c) => c.notNull())
    .addColumn('principal_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_permissions_pk', ['content_id', 'principal_kind', 'principal_id'])
    .execute();
  await db.schema.createIndex('content_permissions_org').on('content_permissions').columns(['org_id', 'principal_id']).execute();
  await db.schema.createIndex('content_permissions_principal').on('content_permissions').columns(['principal_id']).execute();

  await db.schema
    .createTable('link_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('role', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_invites_org').on('link_invites').columns(['org_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('org_keys')
    .addColumn('org_id', 'text', (c) => c.primaryKey())
    .addColumn('kid', 'text', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // Member lists filter and sort within one organization.
  await db.schema.createIndex('members_org_joined').on('members').columns(['org_id', 'joined_at', 'user_id']).execute();
}
