import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Runs `fn` in a transaction, joining the caller's transaction when there is one already. */
export function inTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
