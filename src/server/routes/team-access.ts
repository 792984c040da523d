import type { Kysely } from 'kysely';
import { DocsyncError } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import type { MemberRow } from '../store/organizations.js';
import { findTeam, type TeamRow } from '../store/teams.js';
import { findTeamMember } from '../store/team-members.js';

/**
 * Who may do what with a team (docs/api.md, "Roles"):
 * - `view` (the team and its members): members with a role, and the team's own members;
 * - `manageMembers`: organization admins and the team's owners;
 * - `update` (rename, delete): organization admins.
 * A non-member of the organization gets 404, as does an unknown team.
 */
export async function teamAccess(
  db: Kysely<Database>,
  orgId: string,
  teamId: string,
  userId: string,
  action: 'view' | 'manageMembers' | 'update',
): Promise<{ caller: MemberRow; team: TeamRow }> {
  const caller = await memberRole(db, orgId, userId);
  if (!caller) throw new DocsyncError('not_found', `organization ${orgId} not found`);
  const team = await findTeam(db, orgId, teamId);
  if (!team) throw new DocsyncError('not_found', `team ${teamId} not found in organization ${orgId}`);
  if (caller.role === 'admin') return { caller, team };
  const own = await findTeamMember(db, teamId, userId);
  if (action === 'view') {
    if (!own) requireOrgRole(caller, 'org.listTeams', orgId);
  } else if (action === 'manageMembers') {
    if (own?.role !== 'owner') {
      throw new DocsyncError('forbidden', `only organization admins and owners of team ${teamId} change its members`);
    }
  } else {
    requireOrgRole(caller, 'org.manageTeams', orgId);
  }
  return { caller, team };
}
