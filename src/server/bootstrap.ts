import { inTransaction } from './store/transaction.js';
import type { Kysely } from 'kysely';
import type { Database } from './store/schema.js';
import { createToken, createUser, isEmptyStore } from './store/users.js';
import { createOrganization } from './store/organizations.js';

export const BOOTSTRAP_EMAIL = 'admin@localhost';

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
