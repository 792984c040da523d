import { expect } from 'vitest';
import { sql } from 'kysely';
import type { TestServer } from './server.js';

/**
 * Tables that change on requests that change nothing a caller owns, left out of the comparison:
 * - `rate_limit_windows`: every `/v1` request counts against its caller (refused ones too), when
 *   a limit is configured;
 * - `web_sessions`: the pages for people touch a session's last use on every page view;
 * - `kysely_migration`, `kysely_migration_lock`: the migrator's own bookkeeping.
 */
export const VOLATILE_TABLES = new Set(['rate_limit_windows', 'web_sessions', 'kysely_migration', 'kysely_migration_lock']);

export type StoreDump = Map<string, string[]>;

/** Every table of the test server's store (SQLite or the PostgreSQL schema), each row as JSON, rows sorted. */
export async function dumpStore(s: TestServer): Promise<StoreDump> {
  const db = s.server.db.kysely;
  const names =
    s.server.db.dialect === 'postgres'
      ? (
          await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
            db,
          )
        ).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)).rows;
  const dump: StoreDump = new Map();
  for (const { name } of names.sort((a, b) => a.name.localeCompare(b.name))) {
    if (VOLATILE_TABLES.has(name)) continue;
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)).rows;
    dump.set(
      name,
      rows
        .map((row) =>
          JSON.stringify(
            Object.entries(row).map(([key, value]) => [key, value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value]),
          ),
        )
        .sort(),
    );
  }
  return dump;
}

/** The rows added and removed between two dumps, table by table; empty when nothing changed. */
export function storeChanges(before: StoreDump, after: StoreDump): Record<string, { added: string[]; removed: string[] }> {
  const changes: Record<string, { added: string[]; removed: string[] }> = {};
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const was = new Set(before.get(name) ?? []);
    const now = new Set(after.get(name) ?? []);
    const added = [...now].filter((row) => !was.has(row));
    const removed = [...was].filter((row) => !now.has(row));
    if (added.length > 0 || removed.length > 0) changes[name] = { added: added.slice(0, 3), removed: removed.slice(0, 3) };
  }
  return changes;
}

/** Fails with the changed rows when the store differs from `before`. */
export async function expectStoreUnchanged(s: TestServer, before: StoreDump, what: string): Promise<void> {
  expect(storeChanges(before, await dumpStore(s)), `${what}: the store changed`).toEqual({});
}
