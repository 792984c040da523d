import type { Kysely } from 'kysely';
import type { Team } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { MemberRow } from '../store/organizations.js';
import { teamMemberCounts, teamRolesOf, type TeamRow } from '../store/teams.js';
import { teamSpaceCounts } from '../auth/reach.js';
import { teamView } from '../views/team.js';

/** Team objects for one answer, their counts and the caller's `permissions` read in bulk. */
export async function teamViews(db: Kysely<Database>, orgId: string, rows: readonly TeamRow[], caller: MemberRow): Promise<Team[]> {
  const ids = rows.map((r) => r.id);
  const [members, spaces, roles] = await Promise.all([
    teamMemberCounts(db, ids),
    teamSpaceCounts(db, orgId, ids),
    teamRolesOf(db, caller.user_id, ids),
  ]);
  return rows.map((row) =>
    teamView(row, {
      members: members.get(row.id) ?? 0,
      spaces: spaces.get(row.id) ?? 0,
      admin: caller.role === 'admin' || roles.get(row.id) === 'owner',
    }),
  );
}
