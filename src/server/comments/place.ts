import type { Kysely } from 'kysely';
import type { Action, ContentTree, Role } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { SpaceRow } from '../store/spaces.js';
import type { ChangeRequestRow } from '../store/change-requests.js';
import type { UserRow } from '../store/users.js';
import type { CommentScope } from '../store/comments.js';
import { findRevision, revisionTree } from '../store/revisions.js';
import { loadChangeRequest, loadReadableSpace } from '../revisions/content-scope.js';

/** Where a comment request acts: a space's main content or one of its change requests. */
export interface CommentPlace {
  space: SpaceRow;
  role: Role;
  changeRequest: ChangeRequestRow | null;
  scope: CommentScope;
  /** The head revision comments are posted on now. */
  head: string;
  /** The head's content, read once per request when needed. */
  tree(): Promise<ContentTree>;
}

/** The place named by the path, after checking the caller may `action` on the space (404 when it cannot see it). */
export async function loadPlace(
  db: Kysely<Database>,
  caller: UserRow,
  params: { spaceId: string; changeRequestId?: string | undefined },
  action: Action,
): Promise<CommentPlace> {
  const { space, role } = await loadReadableSpace(db, caller, params.spaceId, action);
  const cr = params.changeRequestId === undefined ? null : await loadChangeRequest(db, space, params.changeRequestId);
  const head = cr === null ? space.revision_id : cr.revision_id;
  let tree: Promise<ContentTree> | undefined;
  return {
    space,
    role,
    changeRequest: cr,
    scope: { spaceId: space.id, changeRequestId: cr === null ? null : cr.id },
    head,
    tree: () => (tree ??= revisionTreeOf(db, head)),
  };
}

/** The content of a stored revision; a missing one is a broken store, not bad input. */
export async function revisionTreeOf(db: Kysely<Database>, revisionId: string): Promise<ContentTree> {
  const revision = await findRevision(db, revisionId);
  if (!revision) throw new Error(`revision ${revisionId} is missing`);
  return revisionTree(db, revision);
}
