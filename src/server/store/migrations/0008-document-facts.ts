import type { Kysely } from 'kysely';

/*
 * What reads need of a stored document (links, sections, PDF blocks, comment blocks, the JSON
 * document), derived once when the document is written (content/markdown/document-facts.ts),
 * keyed like the blob. A document written before this table existed gets its row on first read.
 * And rendered PDFs, one per revision and scope, so a PDF is rendered once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_facts')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('facts', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('pdf_renders')
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('blob', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pdf_renders_pk', ['revision_id', 'scope'])
    .execute();
}
