import type { ContentTree, TreePage } from '../../src/model/index.js';
import { putBlob } from '../../src/server/store/blobs.js';
import { createRevision, findRevision, revisionTree } from '../../src/server/store/revisions.js';
import { moveChangeRequestHead, moveSpaceHead } from '../../src/server/revisions/heads.js';
import type { TestServer } from './server.js';

/**
 * Writes content straight into the store, for tests of endpoints that read or merge content
 * without going through the batch endpoint. Returns the new revision id.
 */
export async function writeTree(s: TestServer, target: { spaceId: string; changeRequestId?: string }, tree: ContentTree): Promise<string> {
  const db = s.server.db.kysely;
  const now = s.clock.now().toISOString();
  const head = target.changeRequestId
    ? (await db.selectFrom('change_requests').select('revision_id').where('id', '=', target.changeRequestId).executeTakeFirstOrThrow())
        .revision_id
    : (await db.selectFrom('spaces').select('revision_id').where('id', '=', target.spaceId).executeTakeFirstOrThrow()).revision_id;
  const revision = await createRevision(
    db,
    { spaceId: target.spaceId, type: 'edits', parents: [head], tree, changeRequestId: target.changeRequestId ?? null },
    now,
  );
  const moved = target.changeRequestId
    ? await moveChangeRequestHead(db, target.changeRequestId, head, revision.id, now)
    : await moveSpaceHead(db, target.spaceId, head, revision.id, now);
  if (!moved) throw new Error('head moved while the test was writing');
  return revision.id;
}

/** Stores markdown as a blob and returns its id, for `TreePage.document`. */
export function storeMarkdown(s: TestServer, markdown: string): Promise<string> {
  return putBlob(s.server.db.kysely, markdown);
}

/** The current tree of a space (main) or of a change request. */
export async function readTree(s: TestServer, target: { spaceId: string; changeRequestId?: string }): Promise<ContentTree> {
  const db = s.server.db.kysely;
  const head = target.changeRequestId
    ? (await db.selectFrom('change_requests').select('revision_id').where('id', '=', target.changeRequestId).executeTakeFirstOrThrow())
        .revision_id
    : (await db.selectFrom('spaces').select('revision_id').where('id', '=', target.spaceId).executeTakeFirstOrThrow()).revision_id;
  const revision = await findRevision(db, head);
  if (!revision) throw new Error(`revision ${head} missing`);
  return revisionTree(db, revision);
}

export function docPage(id: string, title: string, extra: Partial<TreePage> = {}): TreePage {
  return { id, type: 'document', title, slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'), pages: [], ...extra };
}
