import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { cachedPrepare } from './statement-cache.js';

/** Opens `file` with better-sqlite3 (loaded only when this driver is chosen: its addon is built for one Node). */
export async function openBetterSqlite3(file: string, pragmas: readonly string[]): Promise<SqliteDatabase> {
  const { default: Database } = await import('better-sqlite3');
  const database = new Database(file);
  for (const pragma of pragmas) database.pragma(pragma);
  return withStatementCache(database);
}

/** The database with Kysely's `prepare` answered from the statement cache. */
function withStatementCache(database: BetterSqlite3.Database): BetterSqlite3.Database {
  const prepare = cachedPrepare((source) => database.prepare(source));
  return new Proxy(database, {
    get(target, property, receiver) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
