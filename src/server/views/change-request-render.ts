import type { Kysely } from 'kysely';
import type { ChangeRequest } from '../../model/index.js';
import type { ChangeRequestRow } from '../store/change-requests.js';
import type { Database } from '../store/schema.js';
import type { UserRow } from '../store/users.js';
import { changeRequestView } from './change-request.js';

/**
 * Change requests as the API shows them, reading each creator, merger and space head once. Any
 * route answering a ChangeRequest (the batch endpoint's compat answer included) goes through it.
 */
export async function renderChangeRequests(
  db: Kysely<Database>,
  rows: readonly ChangeRequestRow[],
  base: string,
): Promise<ChangeRequest[]> {
  if (rows.length === 0) return [];
  const userIds = [...new Set(rows.flatMap((r) => [r.created_by, ...(r.merged_by !== null ? [r.merged_by] : [])]))];
  const users = new Map<string, UserRow>();
  for (const u of await db.selectFrom('users').selectAll().where('id', 'in', userIds).execute()) users.set(u.id, u);
  // Read after the rows, so `outdated` is never computed against a head older than the row.
  const spaceIds = [...new Set(rows.map((r) => r.space_id))];
  const heads = new Map<string, string>();
  for (const s of await db.selectFrom('spaces').select(['id', 'revision_id']).where('id', 'in', spaceIds).execute())
    heads.set(s.id, s.revision_id);
  return rows.map((row) => {
    const creator = users.get(row.created_by);
    if (!creator) throw new Error(`user ${row.created_by} of change request ${row.id} is missing`);
    const mergedBy = row.merged_by !== null ? users.get(row.merged_by) : undefined;
    return changeRequestView(row, { creator, mergedBy, spaceHead: heads.get(row.space_id) ?? '' }, base);
  });
}

export async function renderChangeRequest(db: Kysely<Database>, row: ChangeRequestRow, base: string): Promise<ChangeRequest> {
  return (await renderChangeRequests(db, [row], base))[0]!;
}
