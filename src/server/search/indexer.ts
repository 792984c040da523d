import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Dialect } from '../store/db.js';
import { findRevision, revisionTree } from '../store/revisions.js';
import { inTransaction } from '../store/transaction.js';
import { indexablePages, sectionRows, type IndexablePage, type SectionRow } from './page-rows.js';
import { searchDb } from './tables.js';
import { loadFacts } from '../revisions/facts.js';
import { pageSections, walkPages } from '../../content/index.js';
import { generateReferences, openApiSource, specVersions } from '../openapi/reference.js';

const CHUNK = 200;

/**
 * Brings a space's search index to `revisionId` (its head), lazily, when a search needs it, with
 * the pages its OpenAPI computed pages generate when the space's organization is given.
 * Invariants: after it returns, `search_spaces` names a revision at least as new as the one the
 * caller read, and for every document page of that revision `search_pages.digest` equals the
 * page's digest and its `search_sections` rows are exactly `sectionRows(page)`. Only pages whose
 * digest differs from the indexed one are rebuilt, so a one-page edit of a 5,000-page space
 * parses one page. Concurrent callers (other requests, other server processes) serialise on the
 * space's `search_spaces` row; the second one finds the work done.
 */
export async function ensureIndexed(
  db: Kysely<Database>,
  dialect: Dialect,
  space: { id: string; revision_id: string; org_id?: string },
): Promise<void> {
  const sdb = searchDb(db);
  const indexed = await sdb.selectFrom('search_spaces').select('revision_id').where('space_id', '=', space.id).executeTakeFirst();
  if (indexed?.revision_id === space.revision_id) return;
  // A revision with API reference pages is indexed with the versions of its organization's specs
  // (`<revision>|<slug@version,...>`): a new version of a spec indexes its generated pages again.
  const specs = space.org_id === undefined ? undefined : await specVersions(db, space.org_id);
  if (specs !== undefined && indexed?.revision_id === `${space.revision_id}|${specs}`) return;
  const revision = await findRevision(db, space.revision_id);
  if (!revision) return;
  const tree = await revisionTree(db, revision);
  const hasReference = specs !== undefined && [...walkPages(tree.pages)].some((p) => openApiSource(p) !== undefined);
  const key = hasReference ? `${space.revision_id}|${specs}` : space.revision_id;
  const wanted = indexablePages(tree, hasReference ? await generateReferences(db, space.org_id!, tree) : undefined);

  await inTransaction(db, async (trx) => {
    const tdb = searchDb(trx);
    // Taking the row (insert or lock) first makes concurrent indexers of one space wait here.
    await tdb
      .insertInto('search_spaces')
      .values({ space_id: space.id, revision_id: '' })
      .onConflict((oc) => oc.column('space_id').doNothing())
      .execute();
    let current = tdb.selectFrom('search_spaces').select('revision_id').where('space_id', '=', space.id);
    if (dialect === 'postgres') current = current.forUpdate();
    if ((await current.executeTakeFirst())?.revision_id === key) return;

    const have = await tdb.selectFrom('search_pages').select(['page_id', 'digest']).where('space_id', '=', space.id).execute();
    const stale = have.filter((row) => wanted.get(row.page_id)?.digest !== row.digest).map((row) => row.page_id);
    const haveDigest = new Map(have.map((row) => [row.page_id, row.digest]));
    const fresh = [...wanted.values()].filter((page) => haveDigest.get(page.pageId) !== page.digest);

    for (let i = 0; i < stale.length; i += CHUNK) {
      const ids = stale.slice(i, i + CHUNK);
      await tdb.deleteFrom('search_sections').where('space_id', '=', space.id).where('page_id', 'in', ids).execute();
      await tdb.deleteFrom('search_pages').where('space_id', '=', space.id).where('page_id', 'in', ids).execute();
    }
    for (let i = 0; i < fresh.length; i += CHUNK) await insertPages(trx, space.id, fresh.slice(i, i + CHUNK));
    await tdb.updateTable('search_spaces').set({ revision_id: key }).where('space_id', '=', space.id).execute();
  });
}

/** Rows of `pages`, from their documents' sections (facts derived when written: text holds no URL). */
async function insertPages(trx: Kysely<Database>, spaceId: string, pages: IndexablePage[]): Promise<void> {
  const db = searchDb(trx);
  const facts = await loadFacts(
    trx,
    pages.flatMap((p) => (p.document ? [p.document] : [])),
  );
  const text = (page: IndexablePage) =>
    page.markdown !== undefined
      ? pageSections(page.markdown)
      : ((page.document ? facts.get(page.document)?.text : undefined) ?? { sections: [] });
  const rows: SectionRow[] = pages.flatMap((page) => sectionRows(page, text(page)));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto('search_sections')
      .values(rows.slice(i, i + CHUNK).map((row) => ({ ...row, space_id: spaceId })))
      .execute();
  }
  await db
    .insertInto('search_pages')
    .values(pages.map((p) => ({ space_id: spaceId, page_id: p.pageId, digest: p.digest })))
    .execute();
}

/** Forgets a space's index (the space is purged). */
export async function dropSpaceIndex(db: Kysely<Database>, spaceId: string): Promise<void> {
  const sdb = searchDb(db);
  await sdb.deleteFrom('search_sections').where('space_id', '=', spaceId).execute();
  await sdb.deleteFrom('search_pages').where('space_id', '=', spaceId).execute();
  await sdb.deleteFrom('search_spaces').where('space_id', '=', spaceId).execute();
}
