import type { StoreOptions } from '../../server/index.js';

/**
 * Where the store lives: `DOCSYNC_DATABASE_URL` wins over `--data`, as for `docsync serve`.
 * `DOCSYNC_DATABASE_SCHEMA` (undocumented in --help, see docs/cli.md) picks a PostgreSQL schema,
 * so tests can share one database.
 */
export function storeOptionsFromEnv(dataDir: string, env: NodeJS.ProcessEnv = process.env): StoreOptions {
  const databaseUrl = env.DOCSYNC_DATABASE_URL;
  if (!databaseUrl) return { dataDir };
  const schema = env.DOCSYNC_DATABASE_SCHEMA;
  return { databaseUrl, ...(schema ? { schema } : {}) };
}
