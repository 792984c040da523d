import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';
import { sqliteDriver } from './sqlite/driver.js';
import { openBetterSqlite3 } from './sqlite/better-sqlite3.js';
import { openNodeSqlite } from './sqlite/node-sqlite.js';

export type Dialect = 'sqlite' | 'postgres';

export interface StoreOptions {
  /** Directory of the SQLite database; used when `databaseUrl` is not set. */
  dataDir?: string;
  /** `postgres://...`: use PostgreSQL instead of SQLite. */
  databaseUrl?: string;
  /** PostgreSQL schema to use (created when missing); lets tests share one database. */
  schema?: string;
}

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export const SQLITE_FILE = 'docsync.sqlite';

export async function openDatabase(options: StoreOptions): Promise<Db> {
  const db = options.databaseUrl ? await openPostgres(options.databaseUrl, options.schema) : await openSqlite(options.dataDir);
  await migrate(db.kysely, db.dialect === 'postgres' ? await currentSchema(db.kysely) : undefined);
  return db;
}

/** What each connection to the SQLite store sets. */
const SQLITE_PRAGMAS = [
  'journal_mode = WAL',
  // Another process (a second server, `docsync admin`) may hold the write lock briefly.
  'busy_timeout = 5000',
  'foreign_keys = ON',
] as const;

async function openSqlite(dataDir = './.docsync-data'): Promise<Db> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // The store holds token hashes and the PDF signing secret: readable by its owner alone. SQLite
  // gives the -wal and -shm files the database file's mode, so setting it here covers them.
  const file = join(dataDir, SQLITE_FILE);
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const driver = sqliteDriver(process.version, process.env.DOCSYNC_SQLITE_DRIVER);
  const database = driver === 'node:sqlite' ? await openNodeSqlite(file, SQLITE_PRAGMAS) : await openBetterSqlite3(file, SQLITE_PRAGMAS);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
}

async function openPostgres(url: string, schema?: string): Promise<Db> {
  if (schema !== undefined) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid PostgreSQL schema name "${schema}"`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
  });
  // A lost connection (PostgreSQL restarted, an administrator ended it, the network dropped it)
  // is an 'error' event: of the pool for an idle client, of the client itself for one a request
  // holds between two statements of a transaction. Unheard, either ends the whole server (test:
  // pg-restart). The pool drops such a client and opens a new one for the next query; the request
  // that held it gets the error from its next statement and is answered 503 (errors.ts).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
}

async function migrate(kysely: Kysely<Database>, schema: string | undefined): Promise<void> {
  // Kysely looks for its migration tables in every schema unless told which one: another schema's
  // tables (another server or test sharing the database) would make it skip creating its own.
  // Migrations are numbered per feature and may land in any order; a database that ran a later one
  // still takes an earlier one added after it.
  if (await allMigrationsRan(kysely, schema)) return;
  const migrator = new Migrator({
    db: kysely,
    provider: migrationProvider,
    allowUnorderedMigrations: true,
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
  });
  for (let attempt = 1; ; attempt += 1) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return;
    // Kysely's migrator reads the catalog of every schema; another process dropping its own
    // schema at that moment fails the read without touching ours: read again.
    const code = (error as { code?: unknown }).code;
    if (attempt < MIGRATION_ATTEMPTS && typeof code === 'string' && CATALOG_RACES.has(code)) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      continue;
    }
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

const MIGRATION_ATTEMPTS = 10;

/**
 * What a catalog read fails with when another schema's objects go while it runs: the schema
 * (3F000), a table (42P01), a column that `pg_get_serial_sequence` looks up after the catalog
 * listed it (42703, "column sso_url of relation saml_providers does not exist"), or a cache lookup
 * of an object already gone (XX000).
 */
const CATALOG_RACES: ReadonlySet<string> = new Set(['3F000', '42P01', '42703', 'XX000']);

/**
 * True when the store already ran every migration: read from our own migration table alone, so
 * that opening an up-to-date store (each `docsync admin` command, each server start) never reads
 * the catalog of every schema, which Kysely's migrator does to find its tables.
 */
async function allMigrationsRan(kysely: Kysely<Database>, schema: string | undefined): Promise<boolean> {
  const table = schema === undefined ? sql.table('kysely_migration') : sql.table(`${schema}.kysely_migration`);
  let ran: Set<string>;
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(kysely);
    ran = new Set(rows.map((row) => row.name));
  } catch {
    // No migration table yet (a new store): the migrator makes it.
    return false;
  }
  const wanted = Object.keys(await migrationProvider.getMigrations());
  return wanted.every((name) => ran.has(name));
}

async function currentSchema(kysely: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(kysely);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: check search_path of DOCSYNC_DATABASE_URL');
  return schema;
}

/** Drops a PostgreSQL schema: tests clean up after themselves. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

export { sql };
