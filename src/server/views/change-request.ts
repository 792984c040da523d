import type { ChangeRequest, ChangeRequestStatus } from '../../model/index.js';
import { changeRequestBase } from '../revisions/change-request-base.js';
import type { ChangeRequestRow } from '../store/change-requests.js';
import type { UserRow } from '../store/users.js';
import { apiUrl, appUrl } from '../urls.js';
import { userView } from './user.js';

export interface ChangeRequestContext {
  creator: UserRow;
  mergedBy?: UserRow | undefined;
  /** The space's current head revision. */
  spaceHead: string;
}

/** Main moved since the change request last took it in. A merged change request is never outdated. */
export function isOutdated(row: ChangeRequestRow, spaceHead: string): boolean {
  return row.status !== 'merged' && changeRequestBase(row) !== spaceHead;
}

export function changeRequestView(row: ChangeRequestRow, context: ChangeRequestContext, base: string): ChangeRequest {
  const path = `/spaces/${row.space_id}/change-requests/${row.id}`;
  return {
    object: 'change-request',
    id: row.id,
    number: Number(row.number),
    status: row.status as ChangeRequestStatus,
    subject: row.subject,
    createdBy: userView(context.creator, base),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(context.mergedBy ? { mergedBy: userView(context.mergedBy, base) } : {}),
    ...(row.merged_at !== null ? { mergedAt: row.merged_at } : {}),
    space: row.space_id,
    revision: row.revision_id,
    revisionInitial: row.revision_initial,
    ...(row.revision_merged_ancestor !== null ? { revisionMergedAncestor: row.revision_merged_ancestor } : {}),
    ...(row.revision_merged !== null ? { revisionMerged: row.revision_merged } : {}),
    comments: Number(row.comments),
    outdated: isOutdated(row, context.spaceHead),
    urls: { app: appUrl(base, `/spaces/${row.space_id}/change-requests/${row.number}`), location: apiUrl(base, path) },
  };
}
