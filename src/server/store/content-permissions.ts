import type { Kysely } from 'kysely';
import { isRole, type Role } from '../../model/index.js';
import type { ContentPermissionsTable, Database } from './schema.js';
import { afterKey } from './keyset.js';
import type { SortKey } from '../util/cursor.js';

export type ContentKind = 'space' | 'collection';
export type PrincipalKind = 'user' | 'team';
export type ContentPermissionRow = ContentPermissionsTable;

/**
 * Every role given in organization `orgId` to the user or to one of the user's teams, by
 * content id (a content may hold several: the user's own and each team's).
 */
export async function grantsOfUser(db: Kysely<Database>, orgId: string, userId: string): Promise<Map<string, Role[]>> {
  const rows = await db
    .selectFrom('content_permissions')
    .select(['content_id', 'role'])
    .where('org_id', '=', orgId)
    .where((eb) =>
      eb.or([
        eb.and([eb('principal_kind', '=', 'user'), eb('principal_id', '=', userId)]),
        eb.and([
          eb('principal_kind', '=', 'team'),
          eb(
            'principal_id',
            'in',
            eb
              .selectFrom('team_members')
              .innerJoin('teams', 'teams.id', 'team_members.team_id')
              .select('team_members.team_id')
              .where('team_members.user_id', '=', userId)
              .where('teams.org_id', '=', orgId),
          ),
        ]),
      ]),
    )
    .execute();
  const byContent = new Map<string, Role[]>();
  for (const row of rows) {
    if (!isRole(row.role)) continue;
    const list = byContent.get(row.content_id) ?? [];
    list.push(row.role);
    byContent.set(row.content_id, list);
  }
  return byContent;
}

/** Gives `role` to a user or a team on a space or collection, replacing the one it had. */
export async function setGrant(
  db: Kysely<Database>,
  input: { orgId: string; contentId: string; contentKind: ContentKind; principalKind: PrincipalKind; principalId: string; role: Role },
  now: string,
): Promise<void> {
  await db
    .insertInto('content_permissions')
    .values({
      org_id: input.orgId,
      content_id: input.contentId,
      content_kind: input.contentKind,
      principal_kind: input.principalKind,
      principal_id: input.principalId,
      role: input.role,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['content_id', 'principal_kind', 'principal_id']).doUpdateSet({ role: input.role }))
    .execute();
}

/** Removes a grant; true when there was one. */
export async function removeGrant(
  db: Kysely<Database>,
  contentId: string,
  principalKind: PrincipalKind,
  principalId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('content_permissions')
    .where('content_id', '=', contentId)
    .where('principal_kind', '=', principalKind)
    .where('principal_id', '=', principalId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every grant to a principal, wherever it is (deleting a team or a member removes them). */
export async function removeGrantsOf(
  db: Kysely<Database>,
  orgId: string,
  principalKind: PrincipalKind,
  principalId: string,
): Promise<void> {
  await db
    .deleteFrom('content_permissions')
    .where('org_id', '=', orgId)
    .where('principal_kind', '=', principalKind)
    .where('principal_id', '=', principalId)
    .execute();
}

/** The grants on one content to one kind of principal, in the order they were given. */
export function listGrants(db: Kysely<Database>, contentId: string, principalKind: PrincipalKind, after: SortKey | undefined, n: number) {
  let query = db
    .selectFrom('content_permissions')
    .selectAll()
    .where('content_id', '=', contentId)
    .where('principal_kind', '=', principalKind);
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'principal_id', after));
  return query.orderBy('created_at').orderBy('principal_id').limit(n).execute();
}

/** Grants to any of `teamIds`, for counting the spaces each team reaches. */
export function grantsOfTeams(db: Kysely<Database>, orgId: string, teamIds: readonly string[]) {
  if (teamIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('content_permissions')
    .select(['content_id', 'principal_id'])
    .where('org_id', '=', orgId)
    .where('principal_kind', '=', 'team')
    .where('principal_id', 'in', teamIds)
    .execute();
}
