import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { cachedPrepare } from './statement-cache.js';

/** What the store uses of `node:sqlite` (the types of Node 20 do not describe it). */
interface NodeStatement {
  all(...parameters: unknown[]): Record<string, unknown>[];
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: unknown[]): IterableIterator<Record<string, unknown>>;
  /** From Node 22.16: the result's columns; none for a statement that returns no rows. */
  columns?(): unknown[];
}
interface NodeDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeStatement;
  close(): void;
}
interface NodeSqliteModule {
  DatabaseSync: new (path: string) => NodeDatabase;
}

/** Before `columns()`: a statement returns rows when it reads or says `RETURNING`. */
const READS = /^\s*(select|with|pragma|values|explain)\b|\breturning\b/i;

/**
 * A row as better-sqlite3 gives it, so the store reads the same from both drivers: an ordinary
 * object (node:sqlite's have no prototype) and blobs as Buffers (node:sqlite's are Uint8Arrays).
 */
function row(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const value = record[key];
    out[key] =
      value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value;
  }
  return out;
}

function statementOf(statement: NodeStatement, source: string): SqliteStatement {
  const reader = typeof statement.columns === 'function' ? statement.columns().length > 0 : READS.test(source);
  return {
    reader,
    all: (parameters) => statement.all(...parameters).map(row),
    run: (parameters) => statement.run(...parameters),
    *iterate(parameters) {
      for (const record of statement.iterate(...parameters)) yield row(record);
    },
  };
}

/**
 * Opens `file` with Node's own `node:sqlite` as Kysely's SqliteDialect expects a database
 * (better-sqlite3's shape), with the same statement cache.
 */
export async function openNodeSqlite(file: string, pragmas: readonly string[]): Promise<SqliteDatabase> {
  const { DatabaseSync } = (await import('node:sqlite' as string)) as NodeSqliteModule;
  const database = new DatabaseSync(file);
  for (const pragma of pragmas) database.exec(`PRAGMA ${pragma}`);
  return {
    prepare: cachedPrepare((source) => statementOf(database.prepare(source), source)),
    close: () => database.close(),
  };
}
