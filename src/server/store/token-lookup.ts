import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { hashToken } from '../auth/tokens.js';

export interface TokenRecord {
  id: string;
  userId: string;
  email: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/**
 * The token with this id, or whose secret this is, revoked or not. `docsync admin token revoke`
 * accepts either, and needs the id and owner to say what it revoked without echoing a secret.
 */
export async function findTokenByIdOrSecret(db: Kysely<Database>, idOrToken: string): Promise<TokenRecord | undefined> {
  const row = await db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .select(['tokens.id', 'tokens.user_id', 'users.email', 'tokens.label', 'tokens.created_at', 'tokens.revoked_at'])
    .where((eb) => eb.or([eb('tokens.id', '=', idOrToken), eb('tokens.hash', '=', hashToken(idOrToken))]))
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, userId: row.user_id, email: row.email, label: row.label, createdAt: row.created_at, revokedAt: row.revoked_at };
}
