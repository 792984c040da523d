import type { Kysely } from 'kysely';
import type { MemberSort, Role } from '../../model/index.js';
import type { Database } from './schema.js';
import type { SortKey } from '../util/cursor.js';
import { inTransaction } from './transaction.js';
import { removeGrantsOf } from './content-permissions.js';
import type { Dialect } from './db.js';

export interface MemberListFilter {
  sort: MemberSort;
  order: 'asc' | 'desc';
  /** A role, or null for guests; undefined for every member. */
  role?: Role | null;
}

const SORT_COLUMN = {
  joinedAt: 'members.joined_at',
  lastSeenAt: 'members.last_seen_at',
  name: 'users.display_name',
} as const;

function memberQuery(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .selectAll('members')
    .select(['users.email', 'users.display_name', 'users.photo_url', 'users.created_at'])
    .where('members.org_id', '=', orgId);
}
export type MemberWithUser = Awaited<ReturnType<ReturnType<typeof memberQuery>['executeTakeFirstOrThrow']>>;

/** The sort value of a member row in a list sorted by `sort`. */
export function memberSortValue(row: MemberWithUser, sort: MemberSort): string {
  if (sort === 'joinedAt') return row.joined_at;
  if (sort === 'lastSeenAt') return row.last_seen_at ?? '';
  return row.display_name;
}

/**
 * Members in `filter.sort` order (then user id), strictly after `after` in that order. Sorting
 * by `lastSeenAt` leaves out members never seen.
 */
export function listMembers(db: Kysely<Database>, orgId: string, filter: MemberListFilter, after: SortKey | undefined, n: number) {
  const column = SORT_COLUMN[filter.sort];
  const direction = filter.order;
  const cmp = direction === 'asc' ? '>' : '<';
  let query = memberQuery(db, orgId);
  if (filter.role === null) query = query.where('members.role', 'is', null);
  else if (filter.role !== undefined) query = query.where('members.role', '=', filter.role);
  if (filter.sort === 'lastSeenAt') query = query.where('members.last_seen_at', 'is not', null);
  if (after) {
    query = query.where((eb) =>
      eb.or([eb(column, cmp, String(after[0])), eb.and([eb(column, '=', String(after[0])), eb('members.user_id', cmp, after[1])])]),
    );
  }
  return query.orderBy(column, direction).orderBy('members.user_id', direction).limit(n).execute();
}

export function findMemberWithUser(db: Kysely<Database>, orgId: string, userId: string): Promise<MemberWithUser | undefined> {
  return memberQuery(db, orgId).where('members.user_id', '=', userId).executeTakeFirst();
}

/** How many teams of the organization each of `userIds` is in. */
export async function teamCounts(db: Kysely<Database>, orgId: string, userIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (userIds.length === 0) return counts;
  const rows = await db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['team_members.user_id', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('teams.org_id', '=', orgId)
    .where('team_members.user_id', 'in', userIds)
    .groupBy('team_members.user_id')
    .execute();
  for (const row of rows) counts.set(row.user_id, Number(row.n));
  return counts;
}

/**
 * Serialises changes to an organization's admins: on PostgreSQL two requests demoting the last
 * two admins would otherwise each see the other still admin. SQLite runs one write transaction
 * at a time already.
 */
async function lockOrganization(trx: Kysely<Database>, orgId: string, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await trx.selectFrom('organizations').select('id').where('id', '=', orgId).forUpdate().execute();
}

async function otherAdmins(trx: Kysely<Database>, orgId: string, userId: string): Promise<number> {
  const row = await trx
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('org_id', '=', orgId)
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .where('user_id', '!=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type MemberChange = 'changed' | 'not_found' | 'last_admin';

/** Sets a member's role; refuses to leave the organization without an admin. */
export function setMemberRole(
  db: Kysely<Database>,
  dialect: Dialect,
  orgId: string,
  userId: string,
  role: Role | null,
): Promise<MemberChange> {
  return inTransaction(db, async (trx) => {
    await lockOrganization(trx, orgId, dialect);
    const member = await trx
      .selectFrom('members')
      .select('role')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!member) return 'not_found';
    if (member.role === 'admin' && role !== 'admin' && (await otherAdmins(trx, orgId, userId)) === 0) return 'last_admin';
    await trx.updateTable('members').set({ role }).where('org_id', '=', orgId).where('user_id', '=', userId).execute();
    return 'changed';
  });
}

/**
 * Removes a member with their team memberships and the roles given to them on content, so
 * access ends with this transaction and the counts stay true; the user and their tokens stay.
 */
export function removeMember(db: Kysely<Database>, dialect: Dialect, orgId: string, userId: string): Promise<MemberChange> {
  return inTransaction(db, async (trx) => {
    await lockOrganization(trx, orgId, dialect);
    const member = await trx
      .selectFrom('members')
      .select('role')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!member) return 'not_found';
    if (member.role === 'admin' && (await otherAdmins(trx, orgId, userId)) === 0) return 'last_admin';
    await trx
      .deleteFrom('team_members')
      .where('user_id', '=', userId)
      .where('team_id', 'in', trx.selectFrom('teams').select('id').where('org_id', '=', orgId))
      .execute();
    await removeGrantsOf(trx, orgId, 'user', userId);
    await trx.deleteFrom('members').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
    return 'changed';
  });
}

export async function setMemberSso(db: Kysely<Database>, orgId: string, userId: string): Promise<void> {
  await db.updateTable('members').set({ sso: 1 }).where('org_id', '=', orgId).where('user_id', '=', userId).execute();
}

export async function touchMember(db: Kysely<Database>, orgId: string, userId: string, now: string): Promise<void> {
  await db.updateTable('members').set({ last_seen_at: now }).where('org_id', '=', orgId).where('user_id', '=', userId).execute();
}

/** Case-insensitive substring match on display name or e-mail, the same on both dialects. */
export function matchesSearch(row: Pick<MemberWithUser, 'display_name' | 'email'>, search: string): boolean {
  const needle = search.toLowerCase();
  return row.display_name.toLowerCase().includes(needle) || row.email.toLowerCase().includes(needle);
}
