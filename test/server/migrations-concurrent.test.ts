import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { dropPostgresSchema, openDatabase } from '../../src/server/store/db.js';

const url = process.env.DOCSYNC_TEST_DATABASE_URL;

// Kysely's migrator reads the catalog of every schema of the database. Several servers (or test
// files) share one PostgreSQL: a schema dropped elsewhere while a server starts must not fail
// the start. On SQLite there is nothing shared, so this runs where PostgreSQL is configured.
describe.runIf(url !== undefined)('migrations next to schemas being dropped (postgres)', () => {
  it('a server starts while other schemas of the database are dropped', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (let round = 0; round < 4; round += 1) {
        const doomed = Array.from({ length: 40 }, (_, i) => `drop_${process.pid}_${round}_${i}`);
        for (const name of doomed) {
          await client.query(
            `CREATE SCHEMA ${name}; ${[1, 2, 3, 4].map((t) => `CREATE TABLE ${name}.t${t} (a int, b text, c text)`).join('; ')}`,
          );
        }
        const mine = `mig_${process.pid}_${Date.now().toString(36)}_${round}`;
        // Drop the other schemas one by one for as long as the start takes.
        let starting = true;
        const dropping = (async () => {
          for (const name of doomed) {
            if (!starting) break;
            await dropPostgresSchema(url!, name);
          }
        })();
        const opened = await openDatabase({ databaseUrl: url!, schema: mine }).finally(() => {
          starting = false;
        });
        await dropping;
        for (const name of doomed) await dropPostgresSchema(url!, name);
        const tables = await opened.kysely.selectFrom('spaces').select('id').limit(1).execute();
        expect(tables).toEqual([]);
        await opened.close();
        await dropPostgresSchema(url!, mine);
      }
    } finally {
      await client.end();
    }
  });
});
