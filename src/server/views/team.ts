import type { Team } from '../../model/index.js';
import type { TeamRow } from '../store/teams.js';

export interface TeamFacts {
  members: number;
  spaces: number;
  /** The caller may manage the team: an organization admin or an owner of the team. */
  admin: boolean;
}

export function teamView(row: TeamRow, facts: TeamFacts): Team {
  return {
    object: 'team',
    id: row.id,
    title: row.title,
    members: facts.members,
    spaces: facts.spaces,
    createdAt: row.created_at,
    permissions: { admin: facts.admin, view: true },
  };
}
