import type { Kysely } from 'kysely';
import { badRequest } from '../../model/index.js';
import { slugify, slugProblem, uniqueSlug } from '../../content/index.js';
import type { Database } from '../store/schema.js';
import { findSpace, type SpaceRow } from '../store/spaces.js';
import type { SiteSpaceRow } from '../store/site-structure.js';
import { newId } from '../util/ids.js';

/** A live space of the site's organization, or a 400 naming `field`. */
export async function spaceForSite(db: Kysely<Database>, orgId: string, spaceId: string, field: string): Promise<SpaceRow> {
  const space = await findSpace(db, spaceId);
  if (!space || space.org_id !== orgId) throw badRequest(`${field}: space ${spaceId} not found in organization ${orgId}`);
  return space;
}

/** Section and site space paths are one URL segment each: a slug (1 to 100 characters). */
export function requirePath(path: string, field: string): void {
  const problem = slugProblem(path);
  if (problem) throw badRequest(`${field} ${problem}`);
}

/** Paths already used by the site spaces of one container (a section, or the root for null). */
export async function siteSpacePaths(
  db: Kysely<Database>,
  siteId: string,
  sectionId: string | null,
  except?: string,
): Promise<Set<string>> {
  let query = db.selectFrom('site_spaces').select(['id', 'path']).where('site_id', '=', siteId);
  query = sectionId === null ? query.where('section_id', 'is', null) : query.where('section_id', '=', sectionId);
  const rows = await query.execute();
  return new Set(rows.filter((r) => r.id !== except).map((r) => r.path));
}

async function nextPosition(db: Kysely<Database>, siteId: string, sectionId: string | null): Promise<number> {
  let query = db
    .selectFrom('site_spaces')
    .select((eb) => eb.fn.max('position').as('p'))
    .where('site_id', '=', siteId);
  query = sectionId === null ? query.where('section_id', 'is', null) : query.where('section_id', '=', sectionId);
  const row = await query.executeTakeFirst();
  return row?.p === null || row?.p === undefined ? 0 : Number(row.p) + 1;
}

/** A new site space last in its container, its path made from the space's title. */
export async function appendSiteSpace(
  trx: Kysely<Database>,
  siteId: string,
  sectionId: string | null,
  space: SpaceRow,
  now: string,
): Promise<SiteSpaceRow> {
  const taken = await siteSpacePaths(trx, siteId, sectionId);
  const row: SiteSpaceRow = {
    id: newId(),
    site_id: siteId,
    section_id: sectionId,
    space_id: space.id,
    path: uniqueSlug(slugify(space.title || 'space'), taken),
    condition: null,
    position: await nextPosition(trx, siteId, sectionId),
    created_at: now,
  };
  await trx.insertInto('site_spaces').values(row).execute();
  return row;
}
