import type { Kysely } from 'kysely';
import { DocsyncError, badRequest, type TreeFile } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { putBlob, sha256 } from '../store/blobs.js';
import { findSpace } from '../store/spaces.js';
import { findChangeRequest } from '../store/change-requests.js';
import { createRevision, findRevision, revisionTree } from '../store/revisions.js';
import { inTransaction } from '../store/transaction.js';
import { HeadMoved, retryOnHeadMoved } from '../revisions/retry-on-head-moved.js';
import { moveChangeRequestHead, moveSpaceHead } from '../revisions/heads.js';
import { requireUnlocked } from '../revisions/merge-change-request.js';
import { newId } from '../util/ids.js';
import { putFacts } from '../store/document-facts.js';
import { runParse } from '../parse/pool.js';
import { checkDocumentSize, checkMadeDocuments } from '../parse/limits.js';
import { contentTypeOf } from './content-type.js';
import type { SourceContent } from './sources.js';

const ATTEMPTS = 5;

export interface ImportTarget {
  spaceId: string;
  /** The change request's id (already resolved from an id or number); absent for the space. */
  changeRequestId?: string;
}

export interface WrittenImport {
  revision: string;
  importedResources: number;
}

/**
 * Writes imported content as one new revision on the head of the space or change request: the
 * pages after the existing top-level pages, the files after the existing files. The tree is
 * built on the head read, and the head moves by compare-and-swap from that head in the same
 * transaction as the revision is stored; if another writer got there first, nothing of the
 * attempt is kept and the pages are appended to the new head instead.
 */
export async function writeImport(
  db: Kysely<Database>,
  target: ImportTarget,
  content: SourceContent,
  userId: string,
  now: () => string,
): Promise<WrittenImport> {
  const at = now();
  checkImportedSizes(content);
  const files: TreeFile[] = [];
  // Bytes are stored with the revision, in its transaction: a refused import leaves nothing behind.
  for (const asset of content.assets) {
    files.push({
      id: newId(),
      name: asset.name,
      contentType: contentTypeOf(asset.name),
      size: asset.bytes.length,
      blob: sha256(asset.bytes),
    });
  }
  return retryOnHeadMoved(
    ATTEMPTS,
    async () => {
      const head = await currentHead(db, target);
      const revision = await findRevision(db, head);
      if (!revision) throw new Error(`head revision ${head} is missing`);
      const { result: appended, facts } = await runParse(
        { kind: 'append', tree: await revisionTree(db, revision), pages: content.pages, files, includes: content.includes ?? [], now: at },
        'the imported content',
      );
      if (!appended.ok) throw badRequest(`body.url: ${appended.message}`);
      checkMadeDocuments(appended.value.documents.values(), 'a document of the import');
      const id = await inTransaction(db, async (trx) => {
        await currentHead(trx, target);
        for (const asset of content.assets) await putBlob(trx, asset.bytes);
        for (const markdown of appended.value.documents.values()) await putBlob(trx, markdown);
        await putFacts(trx, facts);
        const written = await createRevision(
          trx,
          {
            spaceId: target.spaceId,
            type: 'edits',
            parents: [head],
            tree: appended.value.tree,
            changeRequestId: target.changeRequestId ?? null,
            createdBy: userId,
          },
          at,
        );
        const moved = target.changeRequestId
          ? await moveChangeRequestHead(trx, target.changeRequestId, head, written.id, at)
          : await moveSpaceHead(trx, target.spaceId, head, written.id, at);
        if (!moved) throw new HeadMoved();
        return written.id;
      });
      return { revision: id, importedResources: appended.value.pages + files.length + appended.value.reusableContents };
    },
    () => new DocsyncError('conflict', `space ${target.spaceId}: the content kept changing during the import; try again`),
  );
}

/** The head to build on, after checking the target still accepts writes. */
async function currentHead(db: Kysely<Database>, target: ImportTarget): Promise<string> {
  const space = await findSpace(db, target.spaceId);
  if (!space) throw new DocsyncError('not_found', `space ${target.spaceId} not found`);
  requireUnlocked(space, 'importing content');
  if (target.changeRequestId === undefined) return space.revision_id;
  const cr = await findChangeRequest(db, target.spaceId, target.changeRequestId);
  if (!cr) throw new DocsyncError('not_found', `change request ${target.changeRequestId} not found in space ${target.spaceId}`);
  if (cr.status === 'merged' || cr.status === 'archived') {
    throw new DocsyncError('conflict', `change request #${cr.number} is ${cr.status}: it takes no more content`);
  }
  return cr.revision_id;
}

/** 413 when an imported page or include is over the per-document limit, naming its source. */
function checkImportedSizes(content: SourceContent): void {
  const visit = (pages: SourceContent['pages']) =>
    pages.forEach((page) => {
      if (page.markdown !== undefined) checkDocumentSize(page.markdown, page.source);
      visit(page.pages);
    });
  visit(content.pages);
  for (const include of content.includes ?? []) checkDocumentSize(include.markdown, include.source);
}
