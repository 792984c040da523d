import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

const STATEMENT_CACHE = 256;

/** Opens `file` with better-sqlite3 (loaded only when this driver is chosen: its addon is built for one Node). */
export async function openBetterSqlite3(file: string, pragmas: readonly string[]): Promise<SqliteDatabase> {
  const { default: Database } = await import('better-sqlite3');
  const database = new Database(file);
  for (const pragma of pragmas) database.pragma(pragma);
  return withStatementCache(database);
}

/**
 * Kysely prepares every SQLite query anew, and preparing costs more than running the small
 * queries an API request makes. The same SQL text gets the same prepared statement back
 * (better-sqlite3 statements are reusable; Kysely never iterates two at once on one).
 */
function withStatementCache(database: BetterSqlite3.Database): BetterSqlite3.Database {
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (source: string): BetterSqlite3.Statement => {
    let statement = statements.get(source);
    if (statement) {
      statements.delete(source);
    } else {
      statement = database.prepare(source);
    }
    statements.set(source, statement);
    if (statements.size > STATEMENT_CACHE) statements.delete(statements.keys().next().value as string);
    return statement;
  };
  return new Proxy(database, {
    get(target, property, receiver) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
