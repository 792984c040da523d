import type { Kysely } from 'kysely';
import type { TeamMemberRole } from '../../model/index.js';
import type { Database } from './schema.js';
import { afterKey } from './keyset.js';
import type { SortKey } from '../util/cursor.js';
import { inTransaction } from './transaction.js';

/** A team's members with their organization membership and user, in the order they joined. */
export function listTeamMembers(db: Kysely<Database>, orgId: string, teamId: string, after: SortKey | undefined, n: number) {
  let query = db
    .selectFrom('team_members')
    .innerJoin('members', (j) => j.onRef('members.user_id', '=', 'team_members.user_id').on('members.org_id', '=', orgId))
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .selectAll('members')
    .select([
      'users.email',
      'users.display_name',
      'users.photo_url',
      'users.created_at',
      'team_members.role as team_role',
      'team_members.added_at',
    ])
    .where('team_members.team_id', '=', teamId);
  if (after) query = query.where((eb) => afterKey(eb, 'team_members.added_at', 'team_members.user_id', after));
  return query.orderBy('team_members.added_at').orderBy('team_members.user_id').limit(n).execute();
}

export function findTeamMember(db: Kysely<Database>, teamId: string, userId: string) {
  return db.selectFrom('team_members').selectAll().where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
}

export interface TeamMemberChanges {
  /** Users to add, or whose role to set: role undefined keeps an existing member's role
   * (a new one becomes `member`). */
  upsert: { userId: string; role: TeamMemberRole | undefined }[];
  remove: string[];
}

/** Applies additions, role changes and removals in one transaction. */
export async function changeTeamMembers(db: Kysely<Database>, teamId: string, changes: TeamMemberChanges, now: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    for (const { userId, role } of changes.upsert) {
      const existing = await findTeamMember(trx, teamId, userId);
      if (existing) {
        if (role !== undefined && role !== existing.role) {
          await trx.updateTable('team_members').set({ role }).where('team_id', '=', teamId).where('user_id', '=', userId).execute();
        }
      } else {
        await trx
          .insertInto('team_members')
          .values({ team_id: teamId, user_id: userId, role: role ?? 'member', added_at: now })
          .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
          .execute();
      }
    }
    if (changes.remove.length > 0) {
      await trx.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', 'in', changes.remove).execute();
    }
  });
}
