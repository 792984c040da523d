import { sql, type Kysely } from 'kysely';
import type { Database, SitesTable, SiteShareLinksTable } from './schema.js';
import { afterKey } from './keyset.js';
import type { SortKey } from '../util/cursor.js';

export type SiteRow = SitesTable;
export type ShareLinkRow = SiteShareLinksTable;

export function findSite(db: Kysely<Database>, id: string): Promise<SiteRow | undefined> {
  return db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertSite(db: Kysely<Database>, row: SiteRow): Promise<void> {
  await db.insertInto('sites').values(row).execute();
}

export async function updateSite(db: Kysely<Database>, id: string, changes: Partial<Omit<SiteRow, 'id' | 'org_id'>>): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('sites').set(changes).where('id', '=', id).execute();
}

/**
 * Serialises writes to one site's structure until the transaction ends: a no-op update takes
 * the row lock on PostgreSQL and the write lock on SQLite (as `lockContentTree` does).
 */
export async function lockSite(trx: Kysely<Database>, siteId: string): Promise<void> {
  await trx
    .updateTable('sites')
    .set({ title: sql<string>`title` })
    .where('id', '=', siteId)
    .execute();
}

export interface SiteFilters {
  /** Only sites holding this space in one of their site spaces. */
  space?: string;
  /** Case-insensitive substring of the title. */
  title?: string;
  published?: boolean;
}

export function listSitesOfOrganization(db: Kysely<Database>, orgId: string, filters: SiteFilters, after: SortKey | undefined, n: number) {
  let query = db.selectFrom('sites').selectAll().where('org_id', '=', orgId);
  if (filters.published !== undefined) query = query.where('published', '=', filters.published ? 1 : 0);
  if (filters.title !== undefined) {
    query = query.where(sql<boolean>`lower(title) like ${containsPattern(filters.title)} escape '\\'`);
  }
  if (filters.space !== undefined) {
    const space = filters.space;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('site_spaces')
          .select('site_spaces.id')
          .whereRef('site_spaces.site_id', '=', 'sites.id')
          .where('site_spaces.space_id', '=', space),
      ),
    );
  }
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'id', after));
  return query.orderBy('created_at').orderBy('id').limit(n).execute();
}

export async function countSiteSpaces(db: Kysely<Database>, siteId: string): Promise<number> {
  const row = await db
    .selectFrom('site_spaces')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Removes the site and everything that hangs off it; the spaces themselves stay. */
export async function deleteSiteRows(trx: Kysely<Database>, siteId: string): Promise<void> {
  await trx.deleteFrom('site_spaces').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('site_sections').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('site_section_groups').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('site_share_links').where('site_id', '=', siteId).execute();
  await trx.deleteFrom('sites').where('id', '=', siteId).execute();
}

export function findShareLink(db: Kysely<Database>, siteId: string, id: string): Promise<ShareLinkRow | undefined> {
  return db.selectFrom('site_share_links').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
}

export function findShareLinkByKey(db: Kysely<Database>, siteId: string, key: string): Promise<ShareLinkRow | undefined> {
  return db.selectFrom('site_share_links').selectAll().where('site_id', '=', siteId).where('key', '=', key).executeTakeFirst();
}

export function listShareLinks(db: Kysely<Database>, siteId: string, search: string | undefined, after: SortKey | undefined, n: number) {
  let query = db.selectFrom('site_share_links').selectAll().where('site_id', '=', siteId);
  if (search !== undefined) {
    const pattern = containsPattern(search);
    query = query.where((eb) => eb.or([eb('key', '=', search), sql<boolean>`lower(name) like ${pattern} escape '\\'`]));
  }
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'id', after));
  return query.orderBy('created_at').orderBy('id').limit(n).execute();
}

/** A LIKE pattern matching text that contains `needle` (lower-cased), its wildcards escaped. */
function containsPattern(needle: string): string {
  return `%${needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
