import type { Kysely } from 'kysely';
import type { Role } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { SpaceRow } from '../store/spaces.js';
import { grantsOfTeams } from '../store/content-permissions.js';
import { roleResolver } from './access.js';
import { inheritanceChain, type ChainNode } from './effective-role.js';

/** Every live space of the organization in creation order. */
function liveSpaces(db: Kysely<Database>, orgId: string): Promise<SpaceRow[]> {
  return db
    .selectFrom('spaces')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The spaces a user can see in an organization, each with the user's effective role there. */
export async function spacesOfUser(db: Kysely<Database>, orgId: string, userId: string): Promise<{ space: SpaceRow; role: Role }[]> {
  const resolve = roleResolver(db, userId);
  const reached: { space: SpaceRow; role: Role }[] = [];
  for (const space of await liveSpaces(db, orgId)) {
    const role = await resolve(space);
    if (role !== null) reached.push({ space, role });
  }
  return reached;
}

/**
 * How many live spaces each team reaches: those it was given a role on, and those that inherit
 * from a collection it was given a role on (`inheritanceChain`).
 */
export async function teamSpaceCounts(db: Kysely<Database>, orgId: string, teamIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(teamIds.map((id) => [id, 0]));
  const grants = await grantsOfTeams(db, orgId, teamIds);
  if (grants.length === 0) return counts;
  const teamsOn = new Map<string, Set<string>>();
  for (const g of grants) {
    const set = teamsOn.get(g.content_id) ?? new Set<string>();
    set.add(g.principal_id);
    teamsOn.set(g.content_id, set);
  }
  const collections = new Map<string, ChainNode>();
  for (const c of await db.selectFrom('collections').select(['id', 'parent_id', 'default_level']).where('org_id', '=', orgId).execute()) {
    collections.set(c.id, c);
  }
  for (const space of await liveSpaces(db, orgId)) {
    const chain = await inheritanceChain<ChainNode>(space, (id) => collections.get(id));
    const reaching = new Set(chain.flatMap((n) => [...(teamsOn.get(n.id) ?? [])]));
    for (const team of reaching) counts.set(team, (counts.get(team) ?? 0) + 1);
  }
  return counts;
}
