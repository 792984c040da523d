import type { Kysely } from 'kysely';
import type { Database, UsersTable } from './schema.js';

export interface WebSessionsTable {
  /** sha256 of the cookie's secret. */
  id: string;
  user_id: string;
  /** The API token the session was opened with; its revocation ends the session. */
  token_id: string;
  csrf: string;
  created_at: string;
  expires_at: string;
}

declare module './schema.js' {
  interface Database {
    web_sessions: WebSessionsTable;
  }
}

export type WebSessionRow = WebSessionsTable;

export async function insertWebSession(db: Kysely<Database>, row: WebSessionRow): Promise<void> {
  await db.insertInto('web_sessions').values(row).execute();
}

/** A live session and its user: not expired at `now`, its token not revoked. */
export async function findLiveWebSession(
  db: Kysely<Database>,
  id: string,
  now: string,
): Promise<{ session: WebSessionRow; user: UsersTable } | undefined> {
  const row = await db
    .selectFrom('web_sessions')
    .innerJoin('tokens', 'tokens.id', 'web_sessions.token_id')
    .innerJoin('users', 'users.id', 'web_sessions.user_id')
    .select([
      'web_sessions.id as sid',
      'web_sessions.user_id',
      'web_sessions.token_id',
      'web_sessions.csrf',
      'web_sessions.created_at as s_created',
      'web_sessions.expires_at',
      'users.id',
      'users.email',
      'users.display_name',
      'users.photo_url',
      'users.created_at',
    ])
    .where('web_sessions.id', '=', id)
    .where('web_sessions.expires_at', '>', now)
    .where('tokens.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    session: {
      id: row.sid,
      user_id: row.user_id,
      token_id: row.token_id,
      csrf: row.csrf,
      created_at: row.s_created,
      expires_at: row.expires_at,
    },
    user: { id: row.id, email: row.email, display_name: row.display_name, photo_url: row.photo_url, created_at: row.created_at },
  };
}

export async function deleteWebSession(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('id', '=', id).execute();
}

/** Removes sessions expired before `now`; returns how many. */
export async function deleteExpiredWebSessions(db: Kysely<Database>, now: string): Promise<number> {
  const result = await db.deleteFrom('web_sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The id of a live token with this hash, or undefined. Expiring tokens (an integration
 * installation's) open no session: they are for the API only.
 */
export async function liveTokenByHash(db: Kysely<Database>, hash: string): Promise<{ id: string; user_id: string } | undefined> {
  return db
    .selectFrom('tokens')
    .select(['id', 'user_id'])
    .where('hash', '=', hash)
    .where('revoked_at', 'is', null)
    .where('expires_at', 'is', null)
    .executeTakeFirst();
}
