import type { Kysely } from 'kysely';
import type { Database, UsersTable } from './schema.js';
import { newId } from '../util/ids.js';
import { hashToken } from '../auth/tokens.js';

export type UserRow = UsersTable;

export async function createUser(
  db: Kysely<Database>,
  input: { email: string; displayName: string; id?: string },
  now: string,
): Promise<UserRow> {
  const row: UserRow = {
    id: input.id ?? newId(),
    email: input.email.toLowerCase(),
    display_name: input.displayName,
    photo_url: null,
    created_at: now,
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

export function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function createToken(
  db: Kysely<Database>,
  input: { userId: string; token: string; label?: string },
  now: string,
): Promise<string> {
  const id = newId();
  await db
    .insertInto('tokens')
    .values({ id, user_id: input.userId, hash: hashToken(input.token), label: input.label ?? null, created_at: now, revoked_at: null })
    .execute();
  return id;
}

/** The user a live token belongs to, or undefined for an unknown, revoked or expired (at `now`) token. */
export async function userForToken(db: Kysely<Database>, token: string, now: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .selectAll('users')
    .where('tokens.hash', '=', hashToken(token))
    .where('tokens.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('tokens.expires_at', 'is', null), eb('tokens.expires_at', '>', now)]))
    .executeTakeFirst();
}

/** Revokes a token given either its id or its secret; returns how many tokens were revoked. */
export async function revokeToken(db: Kysely<Database>, idOrToken: string, now: string): Promise<number> {
  const result = await db
    .updateTable('tokens')
    .set({ revoked_at: now })
    .where((eb) => eb.or([eb('id', '=', idOrToken), eb('hash', '=', hashToken(idOrToken))]))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function listTokens(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('tokens')
    .select(['id', 'label', 'created_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

export async function isEmptyStore(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}
