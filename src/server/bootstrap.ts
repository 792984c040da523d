import { inTransaction } from './store/transaction.js';
import type { Kysely } from 'kysely';
import type { Database } from './store/schema.js';
import { createToken, createUser, isEmptyStore } from './store/users.js';
import { createOrganization } from './store/organizations.js';
import { DocsyncError } from '../model/index.js';

export const BOOTSTRAP_EMAIL = 'admin@localhost';

/** Shortest bootstrap token accepted: it is an admin's bearer token, so it must not be guessable. */
export const MIN_BOOTSTRAP_TOKEN = 20;

/** Refuses a bootstrap token too short to be secret (`DOCSYNC_BOOTSTRAP_TOKEN=a`), saying the minimum. */
export function checkBootstrapToken(token: string): void {
  if (token.length < MIN_BOOTSTRAP_TOKEN || /\s/.test(token)) {
    throw new DocsyncError(
      'invalid_request',
      `DOCSYNC_BOOTSTRAP_TOKEN must be at least ${MIN_BOOTSTRAP_TOKEN} characters without spaces (it becomes an admin token); generate one with \`openssl rand -hex 32\``,
    );
  }
}

/**
 * On an empty store, creates user `admin`, the organization `Default` with admin as its admin
 * member, and the given bearer token for admin. Does nothing on a store that has any user.
 * Returns whether it created anything.
 */
export async function bootstrapStore(db: Kysely<Database>, token: string, now: string): Promise<boolean> {
  if (!(await isEmptyStore(db))) return false;
  await inTransaction(db, async (trx) => {
    const user = await createUser(trx, { email: BOOTSTRAP_EMAIL, displayName: 'admin' }, now);
    await createOrganization(trx, { title: 'Default', ownerId: user.id }, now);
    await createToken(trx, { userId: user.id, token, label: 'bootstrap' }, now);
  });
  return true;
}
