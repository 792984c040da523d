import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/server/store/migrations/index.js';
import { openDatabase } from '../../src/server/store/db.js';
import { loadTree } from '../../src/server/store/trees.js';

describe('migrations', () => {
  it('0002 moves the first revisions of existing spaces into tree blobs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-migrate-'));
    try {
      const old = new Kysely<any>({ dialect: new SqliteDialect({ database: new BetterSqlite3(join(dir, 'docsync.sqlite')) }) });
      const migrator = new Migrator({ db: old, provider: migrationProvider });
      expect((await migrator.migrateTo('0001-core')).error).toBeUndefined();
      const legacy = {
        pages: [{ id: 'p1', type: 'document', title: 'Introduction', slug: '', document: null, pages: [] }],
        files: [],
        variables: {},
        reusableContents: [],
      };
      await old
        .insertInto('revisions')
        .values({
          id: 'r1',
          space_id: 's1',
          type: 'edits',
          parents: '[]',
          tree: JSON.stringify(legacy),
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      await old.destroy();

      const db = await openDatabase({ dataDir: dir });
      try {
        const row = await db.kysely.selectFrom('revisions').selectAll().where('id', '=', 'r1').executeTakeFirstOrThrow();
        expect(row).not.toHaveProperty('tree');
        expect(await loadTree(db.kysely, row.tree_sha)).toEqual({
          pages: [{ id: 'p1', type: 'document', title: 'Introduction', slug: 'introduction', pages: [] }],
          files: [],
          variables: {},
          reusableContents: [],
        });
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('opening an up-to-date store runs no migrator (it reads only its own migration table)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-migrate-'));
    try {
      await (await openDatabase({ dataDir: dir })).close();
      // The migrator makes its lock table whenever it runs: gone, it says whether it ran again.
      const raw = new BetterSqlite3(join(dir, 'docsync.sqlite'));
      raw.exec('DROP TABLE kysely_migration_lock');
      raw.close();
      await (await openDatabase({ dataDir: dir })).close();
      const after = new BetterSqlite3(join(dir, 'docsync.sqlite'), { readonly: true });
      const tables = after.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'kysely_%'").all();
      after.close();
      expect(tables).toEqual([{ name: 'kysely_migration' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a store missing a migration still gets it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsync-migrate-'));
    try {
      const old = new Kysely<any>({ dialect: new SqliteDialect({ database: new BetterSqlite3(join(dir, 'docsync.sqlite')) }) });
      expect((await new Migrator({ db: old, provider: migrationProvider }).migrateTo('0013-event-horizon')).error).toBeUndefined();
      await old.destroy();
      const db = await openDatabase({ dataDir: dir });
      try {
        const ran = await db.kysely
          .selectFrom('kysely_migration' as any)
          .select('name')
          .execute();
        expect(ran.map((row: any) => row.name).sort()).toEqual(Object.keys(await migrationProvider.getMigrations()).sort());
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
