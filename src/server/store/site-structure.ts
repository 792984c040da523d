import type { Kysely } from 'kysely';
import type { Database, SiteSectionGroupsTable, SiteSectionsTable, SiteSpacesTable } from './schema.js';
import { preparedQuery } from './prepared-query.js';

export type SectionRow = SiteSectionsTable;
export type GroupRow = SiteSectionGroupsTable;
export type SiteSpaceRow = SiteSpacesTable;

const byPosition = <T extends { position: number; id: string }>(a: T, b: T) =>
  Number(a.position) - Number(b.position) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Everything a site's structure is made of, each kind in its stored order. */
export interface SiteParts {
  sections: SectionRow[];
  groups: GroupRow[];
  siteSpaces: SiteSpaceRow[];
}

// Prepared: every visit of a published page reads them (prepared-query.ts).
const sectionsOf = preparedQuery((db, siteId: string) => db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId));
const groupsOf = preparedQuery((db, siteId: string) => db.selectFrom('site_section_groups').selectAll().where('site_id', '=', siteId));
const siteSpacesOf = preparedQuery((db, siteId: string) => db.selectFrom('site_spaces').selectAll().where('site_id', '=', siteId));

export async function siteParts(db: Kysely<Database>, siteId: string): Promise<SiteParts> {
  const [sections, groups, siteSpaces] = await Promise.all([sectionsOf(db, siteId), groupsOf(db, siteId), siteSpacesOf(db, siteId)]);
  return { sections: sections.sort(byPosition), groups: groups.sort(byPosition), siteSpaces: siteSpaces.sort(byPosition) };
}

export function findSection(db: Kysely<Database>, siteId: string, id: string): Promise<SectionRow | undefined> {
  return db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
}

export function findGroup(db: Kysely<Database>, siteId: string, id: string): Promise<GroupRow | undefined> {
  return db.selectFrom('site_section_groups').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
}

export function findSiteSpace(db: Kysely<Database>, siteId: string, id: string): Promise<SiteSpaceRow | undefined> {
  return db.selectFrom('site_spaces').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
}

export type StructureTable = 'site_sections' | 'site_section_groups' | 'site_spaces';

/** Writes positions 0, 1, 2 ... in the given order (a site holds tens of items, not thousands). */
export async function writePositions(trx: Kysely<Database>, items: readonly { table: StructureTable; id: string }[]): Promise<void> {
  for (const [index, item] of items.entries()) {
    await trx.updateTable(item.table).set({ position: index }).where('id', '=', item.id).execute();
  }
}
