import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { createHash } from 'node:crypto';

/**
 * The content engine's storage: blobs stored once by sha256 (page markdown, file bytes and
 * revision trees), change requests, and revisions that point at a tree blob instead of holding
 * their tree inline. Existing revisions (the foundation's first revisions) are converted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('blobs')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('data', postgres ? sql`bytea` : 'blob', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('revision_initial', 'text', (c) => c.notNull())
    .addColumn('revision_merged_ancestor', 'text')
    .addColumn('revision_merged', 'text')
    .addColumn('merged_by', 'text')
    .addColumn('merged_at', 'text')
    .addColumn('agent_task_id', 'text')
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('change_requests_number', ['space_id', 'number'])
    .execute();
  await db.schema.createIndex('change_requests_space').on('change_requests').columns(['space_id', 'status', 'updated_at', 'id']).execute();

  await db.schema.alterTable('revisions').addColumn('tree_sha', 'text').execute();
  await db.schema.alterTable('revisions').addColumn('change_request_id', 'text').execute();
  await db.schema.alterTable('revisions').addColumn('merged_from', 'text').execute();
  await db.schema.alterTable('revisions').addColumn('created_by', 'text').execute();

  const rows = await sql<{ id: string; tree: string }>`select id, tree from revisions`.execute(db);
  for (const row of rows.rows) {
    const legacy = JSON.parse(row.tree) as { pages: { id: string; title: string }[] };
    const tree = {
      pages: legacy.pages.map((p) => ({ id: p.id, type: 'document', title: p.title, slug: 'introduction', pages: [] })),
      files: [],
      variables: {},
      reusableContents: [],
    };
    const bytes = Buffer.from(JSON.stringify(tree), 'utf8');
    const sha = createHash('sha256').update(bytes).digest('hex');
    await sql`insert into blobs (sha256, size, data) values (${sha}, ${bytes.length}, ${bytes}) on conflict (sha256) do nothing`.execute(
      db,
    );
    await sql`update revisions set tree_sha = ${sha} where id = ${row.id}`.execute(db);
  }
  await db.schema.alterTable('revisions').dropColumn('tree').execute();
}
