import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Full-text search over each space's head, and server settings.
 *
 * - `search_spaces`: per space, the head revision the index reflects.
 * - `search_pages`: per indexed page, a digest of what its rows were built from, so a new head
 *   reindexes only the pages whose title, path, description or document changed.
 * - `search_sections`: one row per page section (text before the first heading, then one per
 *   heading). SQLite indexes it with an external-content FTS5 table kept in step by triggers;
 *   PostgreSQL with a generated `tsvector` column (the `simple` configuration: no stemming and no
 *   stop words, so every language is searchable) under a GIN index.
 * - `settings`: small named values shared by every server process (the PDF link secret).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('search_spaces')
    .addColumn('space_id', 'text', (c) => c.primaryKey())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('search_pages')
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_pages_pk', ['space_id', 'page_id'])
    .execute();
  await db.schema
    .createTable('search_sections')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('anchor', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('page_title', 'text', (c) => c.notNull())
    .addColumn('page_path', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('search_sections_page').on('search_sections').columns(['space_id', 'page_id']).execute();

  if (postgres) {
    await sql`
      alter table search_sections add column tsv tsvector generated always as (
        setweight(to_tsvector('simple', page_title), 'A') ||
        setweight(to_tsvector('simple', title), 'B') ||
        setweight(to_tsvector('simple', page_path), 'C') ||
        setweight(to_tsvector('simple', body), 'D')
      ) stored`.execute(db);
    await sql`create index search_sections_tsv on search_sections using gin (tsv)`.execute(db);
  } else {
    await sql`
      create virtual table search_fts using fts5(
        page_title, title, page_path, body,
        content='search_sections', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
      )`.execute(db);
    await sql`
      create trigger search_sections_ai after insert on search_sections begin
        insert into search_fts (rowid, page_title, title, page_path, body)
        values (new.id, new.page_title, new.title, new.page_path, new.body);
      end`.execute(db);
    await sql`
      create trigger search_sections_ad after delete on search_sections begin
        insert into search_fts (search_fts, rowid, page_title, title, page_path, body)
        values ('delete', old.id, old.page_title, old.title, old.page_path, old.body);
      end`.execute(db);
  }

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
