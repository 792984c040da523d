import type { Kysely } from 'kysely';
import { DocsyncError, type Action, type ChangeRequest, type Role } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { UserRow } from '../store/users.js';
import { findSpace, type SpaceRow } from '../store/spaces.js';
import { findChangeRequest, type ChangeRequestRow } from '../store/change-requests.js';
import { findRevision, findSpaceRevision, revisionTree, type RevisionRow } from '../store/revisions.js';
import { contentRole, requireRole } from '../auth/access.js';
import { renderChangeRequest } from '../views/change-request-render.js';
import { appUrl } from '../urls.js';
import type { ContentScope } from './read-content.js';

export interface ScopedSpace {
  space: SpaceRow;
  role: Role;
}

/** The space, after checking the caller may `action` on it; 404 when it cannot see it. */
export async function loadReadableSpace(
  db: Kysely<Database>,
  caller: UserRow,
  spaceId: string,
  action: Action = 'space.view',
): Promise<ScopedSpace> {
  const space = await findSpace(db, spaceId);
  if (!space) throw new DocsyncError('not_found', `space ${spaceId} not found`);
  const role = await contentRole(db, caller.id, space);
  requireRole(role, action, `space ${spaceId}`);
  return { space, role: role as Role };
}

async function scopeOf(
  db: Kysely<Database>,
  space: SpaceRow,
  revision: RevisionRow | undefined,
  base: string,
  appPath: string,
): Promise<ContentScope> {
  // A head always names a stored revision; reaching this is a broken store, not bad input.
  if (!revision) throw new Error(`head revision of ${appPath} is missing`);
  return { space, spaceId: space.id, revision, tree: await revisionTree(db, revision), base, appURL: appUrl(base, appPath) };
}

/** The live content of a space (its head revision). */
export async function spaceScope(db: Kysely<Database>, space: SpaceRow, base: string): Promise<ContentScope> {
  return scopeOf(db, space, await findRevision(db, space.revision_id), base, `/spaces/${space.id}`);
}

export async function loadChangeRequest(db: Kysely<Database>, space: SpaceRow, idOrNumber: string): Promise<ChangeRequestRow> {
  const cr = await findChangeRequest(db, space.id, idOrNumber);
  if (!cr) throw new DocsyncError('not_found', `change request ${idOrNumber} not found in space ${space.id}`);
  return cr;
}

/** The content of a change request (its head revision). */
export async function changeRequestScope(db: Kysely<Database>, space: SpaceRow, cr: ChangeRequestRow, base: string): Promise<ContentScope> {
  return scopeOf(db, space, await findRevision(db, cr.revision_id), base, `/spaces/${space.id}/change-requests/${cr.number}`);
}

/** A named revision of the space; a revision of another space is not found. */
export async function revisionScope(db: Kysely<Database>, space: SpaceRow, revisionId: string, base: string): Promise<ContentScope> {
  const revision = await findSpaceRevision(db, space.id, revisionId);
  if (!revision) throw new DocsyncError('not_found', `revision ${revisionId} not found in space ${space.id}`);
  return scopeOf(db, space, revision, base, `/spaces/${space.id}/revisions/${revision.id}`);
}

/** The change request a `merge` revision merged, as the published Revision's `mergedFrom`. */
export async function mergedFrom(
  db: Kysely<Database>,
  space: SpaceRow,
  revision: RevisionRow,
  base: string,
): Promise<ChangeRequest | undefined> {
  if (revision.merged_from === null) return undefined;
  const cr = await findChangeRequest(db, space.id, revision.merged_from);
  return cr ? renderChangeRequest(db, cr, base) : undefined;
}
