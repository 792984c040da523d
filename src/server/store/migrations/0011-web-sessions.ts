import type { Kysely } from 'kysely';

/*
 * Sessions of the server's own pages (docs/web.md). A session is a row keyed by the sha256 of
 * the secret its cookie holds (a stolen table signs no one in), bound to the API token it was
 * opened with: revoking the token ends the session. `csrf` is the session's form token.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('web_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('token_id', 'text', (c) => c.notNull().references('tokens.id'))
    .addColumn('csrf', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_expiry').on('web_sessions').column('expires_at').execute();
  await db.schema.createIndex('web_sessions_token').on('web_sessions').column('token_id').execute();
}
