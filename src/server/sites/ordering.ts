import type { Kysely } from 'kysely';
import { DocsyncError, badRequest } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { writePositions, type SiteParts, type StructureTable } from '../store/site-structure.js';
import { rootItems, siteSpacesIn } from './structure.js';

/*
 * Moves inside a site's structure. Three kinds of container keep their own order: the root of a
 * site with sections (sections outside groups and groups, in one order), each group (its
 * sections), and each section or the root of a site without sections (its site spaces). A move
 * places an item before or after a sibling of its destination, or at the end without one, and
 * rewrites that container's positions.
 */

export interface StructureRef {
  table: StructureTable;
  id: string;
}

/** Where to put an item: next to `target` (an item of the destination), or last. */
export interface Placement {
  target?: StructureRef;
  side: 'before' | 'after';
}

function placed(siblings: StructureRef[], item: StructureRef, placement: Placement, field: string): StructureRef[] {
  const rest = siblings.filter((s) => !(s.table === item.table && s.id === item.id));
  if (!placement.target) return [...rest, item];
  const { target } = placement;
  if (target.table === item.table && target.id === item.id) throw badRequest(`${field}: an item cannot be placed next to itself`);
  const index = rest.findIndex((s) => s.table === target.table && s.id === target.id);
  if (index < 0) throw badRequest(`${field}: ${target.id} is not a sibling at the destination`);
  rest.splice(placement.side === 'before' ? index : index + 1, 0, item);
  return rest;
}

const rootRefs = (parts: SiteParts): StructureRef[] =>
  rootItems(parts).map((item) => ({ table: item.kind === 'section' ? 'site_sections' : 'site_section_groups', id: item.row.id }));

const groupRefs = (parts: SiteParts, groupId: string): StructureRef[] =>
  parts.sections.filter((s) => s.group_id === groupId).map((s) => ({ table: 'site_sections', id: s.id }));

/**
 * A section next to another section (joining that section's group, or the root) or next to a
 * group (at the root); without a target, last at the root of the site, out of any group.
 */
export async function moveSection(
  trx: Kysely<Database>,
  parts: SiteParts,
  sectionId: string,
  placement: Placement,
  field: string,
): Promise<void> {
  const target = placement.target;
  let groupId: string | null = null;
  if (target?.table === 'site_sections') {
    const section = parts.sections.find((s) => s.id === target.id);
    if (!section) throw badRequest(`${field}: section ${target.id} not found in this site`);
    groupId = section.group_id;
  } else if (target?.table === 'site_section_groups') {
    if (!parts.groups.some((g) => g.id === target.id)) throw badRequest(`${field}: section group ${target.id} not found in this site`);
  } else if (target) {
    throw badRequest(`${field}: a section moves next to a section or a section group`);
  }
  const item: StructureRef = { table: 'site_sections', id: sectionId };
  const siblings = groupId === null ? rootRefs(parts) : groupRefs(parts, groupId);
  const order = placed(siblings, item, placement, field);
  await trx.updateTable('site_sections').set({ group_id: groupId }).where('id', '=', sectionId).execute();
  await writePositions(trx, order);
}

/** A section last in a group. */
export async function moveSectionIntoGroup(trx: Kysely<Database>, parts: SiteParts, sectionId: string, groupId: string): Promise<void> {
  const order = [...groupRefs(parts, groupId).filter((r) => r.id !== sectionId), { table: 'site_sections' as const, id: sectionId }];
  await trx.updateTable('site_sections').set({ group_id: groupId }).where('id', '=', sectionId).execute();
  await writePositions(trx, order);
}

/** A group among the root items (sections outside groups and other groups). */
export async function moveGroup(
  trx: Kysely<Database>,
  parts: SiteParts,
  groupId: string,
  placement: Placement,
  field: string,
): Promise<void> {
  const target = placement.target;
  if (target) {
    const atRoot = rootRefs(parts).some((r) => r.table === target.table && r.id === target.id);
    if (!atRoot) throw badRequest(`${field}: ${target.id} is not a section or group at the root of this site`);
  }
  await writePositions(trx, placed(rootRefs(parts), { table: 'site_section_groups', id: groupId }, placement, field));
}

/** A site space among the site spaces of its own section (or of the root). */
export async function moveSiteSpace(
  trx: Kysely<Database>,
  parts: SiteParts,
  siteSpaceId: string,
  placement: Placement,
  field: string,
): Promise<void> {
  const siteSpace = parts.siteSpaces.find((s) => s.id === siteSpaceId);
  if (!siteSpace) throw new DocsyncError('not_found', `site space ${siteSpaceId} not found`);
  if (placement.target && placement.target.table !== 'site_spaces') throw badRequest(`${field}: a site space moves next to a site space`);
  const siblings = siteSpacesIn(parts, siteSpace.section_id).map((s) => ({ table: 'site_spaces' as const, id: s.id }));
  await writePositions(trx, placed(siblings, { table: 'site_spaces', id: siteSpaceId }, placement, field));
}

/** `before` wins when a position names both sides. */
export function placementOf<P>(position: { before?: P; after?: P } | undefined, ref: (pointer: P) => StructureRef): Placement {
  if (position?.before !== undefined) return { target: ref(position.before), side: 'before' };
  if (position?.after !== undefined) return { target: ref(position.after), side: 'after' };
  return { side: 'after' };
}
