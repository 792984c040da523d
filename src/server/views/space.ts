import { NO_DEFAULT_LEVEL } from '../store/schema.js';
import type { DefaultLevel, Role, Space } from '../../model/index.js';
import type { SpaceRow } from '../store/spaces.js';
import { spacePermissions } from '../auth/permissions.js';
import { apiUrl, appUrl } from '../urls.js';

export function defaultLevelView(stored: string): DefaultLevel {
  return stored === NO_DEFAULT_LEVEL ? null : (stored as DefaultLevel);
}

export function defaultLevelRow(level: DefaultLevel): string {
  return level === null ? NO_DEFAULT_LEVEL : level;
}

export function spaceView(row: SpaceRow, role: Role | null, base: string): Space {
  return {
    object: 'space',
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility as Space['visibility'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.deleted_at !== null ? { deletedAt: row.deleted_at } : {}),
    editMode: row.edit_mode as Space['editMode'],
    mergeRules: { type: 'inherit' },
    urls: { location: apiUrl(base, `/spaces/${row.id}`), app: appUrl(base, `/spaces/${row.id}`) },
    organization: row.org_id,
    ...(row.parent_id !== null ? { parent: row.parent_id } : {}),
    revision: row.revision_id,
    defaultLevel: defaultLevelView(row.default_level),
    comments: Number(row.comments),
    changeRequests: Number(row.change_requests),
    changeRequestsOpen: Number(row.change_requests_open),
    changeRequestsDraft: Number(row.change_requests_draft),
    permissions: spacePermissions(role),
  };
}
