import type { Kysely } from 'kysely';
import type { TeamMemberRole } from '../../model/index.js';
import type { Database, TeamsTable } from './schema.js';
import { newId } from '../util/ids.js';
import { afterKey } from './keyset.js';
import type { SortKey } from '../util/cursor.js';
import { inTransaction } from './transaction.js';
import { removeGrantsOf } from './content-permissions.js';

export type TeamRow = TeamsTable;

export async function createTeam(
  db: Kysely<Database>,
  input: { orgId: string; title: string; members: readonly string[] },
  now: string,
): Promise<TeamRow> {
  const row: TeamRow = { id: newId(), org_id: input.orgId, title: input.title, created_at: now };
  await inTransaction(db, async (trx) => {
    await trx.insertInto('teams').values(row).execute();
    const unique = [...new Set(input.members)];
    if (unique.length > 0) {
      await trx
        .insertInto('team_members')
        .values(unique.map((user_id) => ({ team_id: row.id, user_id, role: 'member', added_at: now })))
        .execute();
    }
  });
  return row;
}

export function findTeam(db: Kysely<Database>, orgId: string, id: string): Promise<TeamRow | undefined> {
  return db.selectFrom('teams').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export interface TeamFilter {
  /** Only teams this user owns. */
  ownedBy?: string;
  /** Only teams this user is in. */
  memberId?: string;
}

/** Teams in creation order, strictly after `after`. */
export function listTeams(db: Kysely<Database>, orgId: string, filter: TeamFilter, after: SortKey | undefined, n: number) {
  let query = db.selectFrom('teams').selectAll('teams').where('teams.org_id', '=', orgId);
  const userId = filter.ownedBy ?? filter.memberId;
  if (userId !== undefined) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('team_members')
          .select('team_members.team_id')
          .whereRef('team_members.team_id', '=', 'teams.id')
          .where('team_members.user_id', '=', userId)
          .$if(filter.ownedBy !== undefined, (q) => q.where('team_members.role', '=', 'owner')),
      ),
    );
  }
  if (after) query = query.where((eb) => afterKey(eb, 'teams.created_at', 'teams.id', after));
  return query.orderBy('teams.created_at').orderBy('teams.id').limit(n).execute();
}

export async function renameTeam(db: Kysely<Database>, id: string, title: string): Promise<void> {
  await db.updateTable('teams').set({ title }).where('id', '=', id).execute();
}

/** Deletes a team with its memberships and the roles it was given on content. */
export async function deleteTeam(db: Kysely<Database>, orgId: string, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('team_members').where('team_id', '=', id).execute();
    await removeGrantsOf(trx, orgId, 'team', id);
    await trx.deleteFrom('teams').where('id', '=', id).execute();
  });
}

/** How many members each team has. */
export async function teamMemberCounts(db: Kysely<Database>, teamIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(teamIds.map((id) => [id, 0]));
  if (teamIds.length === 0) return counts;
  const rows = await db
    .selectFrom('team_members')
    .select(['team_id', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('team_id', 'in', teamIds)
    .groupBy('team_id')
    .execute();
  for (const row of rows) counts.set(row.team_id, Number(row.n));
  return counts;
}

/** The role of a user in each of `teamIds` they are in. */
export async function teamRolesOf(db: Kysely<Database>, userId: string, teamIds: readonly string[]): Promise<Map<string, TeamMemberRole>> {
  const roles = new Map<string, TeamMemberRole>();
  if (teamIds.length === 0) return roles;
  const rows = await db
    .selectFrom('team_members')
    .select(['team_id', 'role'])
    .where('user_id', '=', userId)
    .where('team_id', 'in', teamIds)
    .execute();
  for (const row of rows) roles.set(row.team_id, row.role as TeamMemberRole);
  return roles;
}

/** The ids of the organization's teams the user is in. */
export async function teamIdsOfUser(db: Kysely<Database>, orgId: string, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select('team_members.team_id')
    .where('teams.org_id', '=', orgId)
    .where('team_members.user_id', '=', userId)
    .orderBy('team_members.team_id')
    .execute();
  return rows.map((r) => r.team_id);
}
