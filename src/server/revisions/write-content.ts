import type { Kysely } from 'kysely';
import { DocsyncError, type ContentChange, type ContentTree } from '../../model/index.js';
import type { ApplySuccess } from '../../content/index.js';
import type { Database } from '../store/schema.js';
import { getBlobs, putBlob } from '../store/blobs.js';
import { findChangeRequest, type ChangeRequestRow } from '../store/change-requests.js';
import { createRevision, findRevision, findSpaceRevision, revisionTree, type RevisionRow } from '../store/revisions.js';
import { findSpace } from '../store/spaces.js';
import { inTransaction } from '../store/transaction.js';
import { HeadMoved, retryOnHeadMoved } from './retry-on-head-moved.js';
import { putFacts } from '../store/document-facts.js';
import { applyBatch, batchNeedsWorker } from '../parse/apply.js';
import { checkBatchDocuments, checkMadeDocuments } from '../parse/limits.js';
import type { FactsBySha } from '../parse/tasks.js';
import { changeRequestBase } from './change-request-base.js';
import { moveChangeRequestHead } from './heads.js';
import { requireUnlocked } from './merge-change-request.js';
import { checkFileItems, loadFiles, type UploadedFile } from './apply-batch.js';

/** How often a batch is re-applied on a head another writer moved before answering 409. */
export const WRITE_ATTEMPTS = 8;

export interface WriteContentInput {
  spaceId: string;
  changeRequestId: string;
  userId: string;
  changes: readonly ContentChange[];
  allowPrivateFetch: boolean;
}

export interface WrittenContent {
  changeRequest: ChangeRequestRow;
  revision: RevisionRow;
  result: ApplySuccess;
}

async function load(db: Kysely<Database>, spaceId: string, changeRequestId: string) {
  const space = await findSpace(db, spaceId);
  if (!space) throw new DocsyncError('not_found', `space ${spaceId} not found`);
  requireUnlocked(space, 'writing content');
  const cr = await findChangeRequest(db, spaceId, changeRequestId);
  if (!cr) throw new DocsyncError('not_found', `change request ${changeRequestId} not found in space ${spaceId}`);
  if (cr.status === 'merged' || cr.status === 'archived') {
    throw new DocsyncError('conflict', `change request #${cr.number} is ${cr.status}; its content can no longer change`);
  }
  return { space, cr };
}

/** The trees `revert_page` may go back to: the change request's base and any named revision of the space. */
async function revertTargets(db: Kysely<Database>, spaceId: string, cr: ChangeRequestRow, changes: readonly ContentChange[]) {
  const trees = new Map<string, ContentTree>();
  const reverts = changes.filter((c) => c.operation === 'revert_page');
  // Only revert_page reads them; any other batch loads no tree but the head.
  if (reverts.length === 0) return trees;
  const wanted = new Set([changeRequestBase(cr)]);
  for (const change of reverts) if (change.revision !== undefined) wanted.add(change.revision);
  for (const id of wanted) {
    const revision = await findSpaceRevision(db, spaceId, id);
    if (revision) trees.set(id, await revisionTree(db, revision));
  }
  return trees;
}

/** Documents a block-level revert reads (the page's, now and in the revision it goes back to), and those update-page compares. */
async function revertDocuments(
  db: Kysely<Database>,
  trees: ContentTree[],
  changes: readonly ContentChange[],
): Promise<Map<string, Buffer>> {
  const pages = new Set(changes.flatMap((c) => (c.operation === 'revert_page' && c.block !== undefined ? [c.page] : [])));
  // And the documents a new document replaces on a page that keeps its front matter as written
  // without the change giving it: the keys they kept in the stored markdown are compared (update-page.ts).
  const replaced = new Set(
    changes.flatMap((c) => (c.operation === 'update_page' && c.document !== undefined && c.frontMatter === undefined ? [c.page] : [])),
  );
  if (pages.size === 0 && replaced.size === 0) return new Map();
  const shas: string[] = [];
  const visit = (list: ContentTree['pages'], head: boolean) =>
    list.forEach((p) => {
      if (p.document !== undefined && (pages.has(p.id) || (head && replaced.has(p.id) && p.frontMatter !== undefined)))
        shas.push(p.document);
      visit(p.pages, head);
    });
  trees.forEach((t, i) => visit(t.pages, i === 0));
  return getBlobs(db, shas);
}

async function store(trx: Kysely<Database>, result: ApplySuccess, facts: FactsBySha, files: Map<string, UploadedFile>): Promise<void> {
  for (const text of result.documents.values()) await putBlob(trx, text);
  await putFacts(trx, facts);
  const used = new Set(result.insertedFiles.map((f) => f.blob));
  for (const file of files.values()) if (used.has(file.blob)) await putBlob(trx, file.bytes);
}

/**
 * Applies a batch to a change request as one new `edits` revision. The batch is applied to the
 * head with no lock held; the revision is stored and the head moved by compare-and-swap in one
 * transaction. When another writer moved the head meanwhile, the attempt is rolled back and the
 * batch applied again to the new head, so concurrent writers to one change request all land.
 * A rejected batch stores nothing.
 */
export async function writeContent(db: Kysely<Database>, input: WriteContentInput, now: () => string): Promise<WrittenContent> {
  await load(db, input.spaceId, input.changeRequestId);
  checkFileItems(input.changes);
  checkBatchDocuments(input.changes);
  const files = await loadFiles(input.changes, input.allowPrivateFetch);
  const onWorker = await batchNeedsWorker(input.changes);
  return retryOnHeadMoved(
    WRITE_ATTEMPTS,
    async () => {
      const { cr } = await load(db, input.spaceId, input.changeRequestId);
      const head = await findRevision(db, cr.revision_id);
      if (!head) throw new Error(`head revision ${cr.revision_id} of change request ${cr.id} is missing`);
      const tree = await revisionTree(db, head);
      const revisions = await revertTargets(db, input.spaceId, cr, input.changes);
      const blobs = await revertDocuments(db, [tree, ...revisions.values()], input.changes);
      const at = now();
      const documents = new Map([...blobs].map(([sha, bytes]) => [sha, bytes.toString('utf8')]));
      // Only what the worker needs of the files: their bytes stay here.
      const prepared = new Map([...files].map(([key, { blob, size, contentType }]) => [key, { blob, size, contentType }]));
      const { result, facts } = await applyBatch(
        {
          kind: 'apply',
          tree,
          changes: input.changes,
          now: at,
          revisions,
          defaultRevision: changeRequestBase(cr),
          files: prepared,
          documents,
        },
        onWorker,
      );
      if (!result.ok) throw new DocsyncError(result.status === 409 ? 'conflict' : 'invalid_request', result.message);
      checkMadeDocuments(result.documents.values(), 'a document of the batch');
      return inTransaction(db, async (trx) => {
        const fresh = await load(trx, input.spaceId, cr.id);
        if (fresh.cr.revision_id !== cr.revision_id) throw new HeadMoved();
        await store(trx, result, facts, files);
        const revision = await createRevision(
          trx,
          {
            spaceId: input.spaceId,
            type: 'edits',
            parents: [cr.revision_id],
            tree: result.tree,
            changeRequestId: cr.id,
            createdBy: input.userId,
          },
          at,
        );
        if (!(await moveChangeRequestHead(trx, cr.id, cr.revision_id, revision.id, at))) throw new HeadMoved();
        // Re-read under the row lock the move took: a merge or archive that won the race is seen here.
        const after = await load(trx, input.spaceId, cr.id);
        return { changeRequest: after.cr, revision, result };
      });
    },
    () => new DocsyncError('conflict', `change request ${input.changeRequestId} kept changing while the batch was applied; send it again`),
  );
}
