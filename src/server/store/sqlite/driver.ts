/** The two SQLite drivers the store runs on, behind the same Kysely dialect. */
export type SqliteDriverName = 'better-sqlite3' | 'node:sqlite';

/**
 * Which driver opens the SQLite store. better-sqlite3 on Node 20 and 22. Node 24's
 * `node::ObjectWrap` registers an environment cleanup hook per native object and removes it in
 * the destructor, which asserts that a Node environment is current; when V8 collects a
 * better-sqlite3 statement outside one (a GC task), the process aborts (`Assertion failed:
 * (env) != nullptr` in `Statement::~Statement`). better-sqlite3 13, which may build otherwise,
 * needs Node 22. Node's own `node:sqlite` has no native objects of ours, so Node 24 and later use
 * it. `DOCSYNC_SQLITE_DRIVER` chooses by hand (`node:sqlite` exists from Node 22.13).
 */
export function sqliteDriver(nodeVersion: string, override: string | undefined): SqliteDriverName {
  if (override !== undefined && override !== '') {
    if (override === 'better-sqlite3' || override === 'node:sqlite') return override;
    throw new Error(`DOCSYNC_SQLITE_DRIVER must be better-sqlite3 or node:sqlite, got "${override}"`);
  }
  const major = Number(/^v?(\d+)/.exec(nodeVersion)?.[1] ?? 0);
  return major >= 24 ? 'node:sqlite' : 'better-sqlite3';
}
