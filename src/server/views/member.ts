import { isRole, type Member } from '../../model/index.js';
import type { MemberWithUser } from '../store/members.js';
import { userView } from './user.js';

export interface MemberCounts {
  spaces: number;
  teams: number;
  sites: number;
}

export function memberView(row: MemberWithUser, counts: MemberCounts, base: string): Member {
  return {
    object: 'member',
    id: row.user_id,
    role: isRole(row.role) ? row.role : null,
    user: userView(
      { id: row.user_id, email: row.email, display_name: row.display_name, photo_url: row.photo_url, created_at: row.created_at },
      base,
    ),
    disabled: row.disabled === 1,
    joinedAt: row.joined_at,
    ...(row.last_seen_at !== null ? { lastSeenAt: row.last_seen_at } : {}),
    sso: row.sso === 1,
    spaces: counts.spaces,
    teams: counts.teams,
    sites: counts.sites,
  };
}
