import type { Kysely } from 'kysely';
import type { SiteSection, SiteSectionGroup, SiteSpace, SiteStructure, Space } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { SiteRow } from '../store/sites.js';
import { siteParts, type GroupRow, type SectionRow, type SiteParts, type SiteSpaceRow } from '../store/site-structure.js';
import { roleResolver } from '../auth/access.js';
import { spaceView } from '../views/space.js';
import { groupView, sectionView, siteSpaceView, siteUrls } from '../views/site.js';

/** One item at the root of a site with sections: a section outside any group, or a group. */
export type RootItem = { kind: 'section'; row: SectionRow } | { kind: 'group'; row: GroupRow };

/** The root of a site with sections, in order: sections outside groups and groups share one order. */
export function rootItems(parts: SiteParts): RootItem[] {
  const items: RootItem[] = [
    ...parts.sections.filter((s) => s.group_id === null).map((row) => ({ kind: 'section' as const, row })),
    ...parts.groups.map((row) => ({ kind: 'group' as const, row })),
  ];
  return items.sort((a, b) => Number(a.row.position) - Number(b.row.position) || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
}

/** Every section in the order a visitor sees them: root order, a group's sections in its place. */
export function sectionsInOrder(parts: SiteParts): SectionRow[] {
  return rootItems(parts).flatMap((item) =>
    item.kind === 'section' ? [item.row] : parts.sections.filter((s) => s.group_id === item.row.id),
  );
}

/** The site spaces of one container (a section, or the root for null), in order. */
export const siteSpacesIn = (parts: SiteParts, sectionId: string | null): SiteSpaceRow[] =>
  parts.siteSpaces.filter((s) => s.section_id === sectionId);

/**
 * The default of a container: the stored pointer when it still names one of `candidates`, else
 * the first of them, so a non-empty site or section always has exactly one default.
 */
export function effectiveDefault<T extends { id: string }>(pointer: string | null, candidates: readonly T[]): T | undefined {
  return candidates.find((c) => c.id === pointer) ?? candidates[0];
}

export interface SiteStructureViews {
  structure: SiteStructure;
  sections: Map<string, SiteSection>;
  groups: Map<string, SiteSectionGroup>;
  siteSpaces: Map<string, SiteSpace>;
  /** Site spaces in all sections, in structure order. */
  allSiteSpaces: SiteSpace[];
}

/**
 * Every section, group and site space of a site as the caller sees them, computed together so
 * that `default` flags and URLs agree everywhere (listings, single reads, the published site).
 */
export async function siteStructureViews(
  db: Kysely<Database>,
  site: SiteRow,
  callerId: string,
  base: string,
  shareKey?: string,
): Promise<SiteStructureViews> {
  const parts = await siteParts(db, site.id);
  const urls = siteUrls(base, site, shareKey);
  const spaceIds = [...new Set(parts.siteSpaces.map((s) => s.space_id))];
  const spaceRows = spaceIds.length === 0 ? [] : await db.selectFrom('spaces').selectAll().where('id', 'in', spaceIds).execute();
  const resolve = roleResolver(db, callerId);
  const spaces = new Map<string, Space>();
  for (const row of spaceRows) spaces.set(row.id, spaceView(row, await resolve(row), base));

  const siteSpaces = new Map<string, SiteSpace>();
  const allSiteSpaces: SiteSpace[] = [];
  const containerViews = (sectionId: string | null, pointer: string | null, parentUrl: string): SiteSpace[] => {
    const rows = siteSpacesIn(parts, sectionId).filter((r) => spaces.has(r.space_id));
    const def = effectiveDefault(pointer, rows);
    return rows.map((row) => {
      const view = siteSpaceView(row, spaces.get(row.space_id)!, row.id === def?.id, parentUrl, urls);
      siteSpaces.set(row.id, view);
      allSiteSpaces.push(view);
      return view;
    });
  };

  const sections = new Map<string, SiteSection>();
  const groups = new Map<string, SiteSectionGroup>();
  const ordered = sectionsInOrder(parts);
  if (ordered.length === 0) {
    const root = containerViews(null, site.default_site_space_id, urls.published);
    return { structure: { type: 'siteSpaces', structure: root }, sections, groups, siteSpaces, allSiteSpaces };
  }
  const defaultSection = effectiveDefault(site.default_section_id, ordered);
  for (const row of ordered) {
    const isDefault = row.id === defaultSection?.id;
    const sectionUrl = isDefault ? urls.published : `${urls.published}/${encodeURIComponent(row.path)}`;
    sections.set(row.id, sectionView(row, isDefault, containerViews(row.id, row.default_site_space_id, sectionUrl), urls));
  }
  const structure = rootItems(parts).map((item) => {
    if (item.kind === 'section') return sections.get(item.row.id)!;
    const group = groupView(
      item.row,
      parts.sections.filter((s) => s.group_id === item.row.id).map((s) => sections.get(s.id)!),
    );
    groups.set(item.row.id, group);
    return group;
  });
  return { structure: { type: 'sections', structure }, sections, groups, siteSpaces, allSiteSpaces };
}
