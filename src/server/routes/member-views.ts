import type { Kysely } from 'kysely';
import type { Member } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { teamCounts, type MemberWithUser } from '../store/members.js';
import { spacesOfUser } from '../auth/reach.js';
import { memberView } from '../views/member.js';

/**
 * Member objects with their counts, for one answer: team counts in one query; space counts
 * from the effective role of each member (docs/api.md, "Effective role on content").
 */
export async function memberViews(db: Kysely<Database>, orgId: string, rows: readonly MemberWithUser[], base: string): Promise<Member[]> {
  const teams = await teamCounts(
    db,
    orgId,
    rows.map((r) => r.user_id),
  );
  const views: Member[] = [];
  for (const row of rows) {
    const spaces = row.disabled === 1 ? 0 : (await spacesOfUser(db, orgId, row.user_id)).length;
    views.push(memberView(row, { spaces, teams: teams.get(row.user_id) ?? 0, sites: 0 }, base));
  }
  return views;
}
