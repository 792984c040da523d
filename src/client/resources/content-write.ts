import type { ChangeRequest, ContentChange, ContentChangeOutcome, RevisionFile, RevisionReusableContent } from '../../model/index.js';
import type { RefKind } from '../batch-refs.js';
import type { Request } from '../request.js';
import { seg } from './paths.js';

/** One batch's result, the same whichever of the two published answers the server gave. */
export interface ContentWriteResult {
  changeRequest: ChangeRequest;
  /** One outcome per touched page; undefined when the server ignored `compat=false` and answered the ChangeRequest alone. */
  changes: ContentChangeOutcome[] | undefined;
  insertedFiles: RevisionFile[];
  /** What the batch's `insert_reusable_content` changes made, in their order (a docsync extension; absent elsewhere). */
  insertedReusableContents?: RevisionReusableContent[];
}

type Answer =
  | ChangeRequest
  | {
      changeRequest: ChangeRequest;
      changes: ContentChangeOutcome[];
      insertedFiles?: RevisionFile[];
      insertedReusableContents?: RevisionReusableContent[];
    };

/** The published content batch endpoint. */
export function contentWriteResource(request: Request) {
  return {
    /**
     * `POST /v1/spaces/{id}/change-requests/{id}/content?compat=false`: at most 50 changes (split
     * them with `planBatches`), applied all or nothing as one revision. Not retried after a reset
     * or a 5xx, because the batch may have landed: the sync engine checks the change request's
     * head and its journal before sending it again. Pass `idempotent: true` only for a batch that
     * is safe to apply twice.
     */
    write: async (
      spaceId: string,
      changeRequest: string | number,
      changes: ContentChange[],
      options: { idempotent?: boolean } = {},
    ): Promise<ContentWriteResult> => {
      const answer = await request<Answer>({
        method: 'POST',
        path: `/v1/spaces/${seg(spaceId)}/change-requests/${seg(changeRequest)}/content`,
        query: { compat: false },
        body: { changes },
        idempotent: options.idempotent === true,
      });
      if ('changeRequest' in answer) {
        const contents = answer.insertedReusableContents;
        return {
          changeRequest: answer.changeRequest,
          changes: answer.changes,
          insertedFiles: answer.insertedFiles ?? [],
          ...(contents ? { insertedReusableContents: contents } : {}),
        };
      }
      return { changeRequest: answer, changes: undefined, insertedFiles: [] };
    },
  };
}

/**
 * The ids a batch created, by ref: `created_page` outcomes that echo a ref, and the batch's file
 * refs paired in order with `insertedFiles` (the API lists them in insertion order). Feed it to
 * `rewriteRefs` for later batches that still use these refs.
 */
export function createdRefs(batch: readonly ContentChange[], result: ContentWriteResult): Map<string, { kind: RefKind; id: string }> {
  const created = new Map<string, { kind: RefKind; id: string }>();
  for (const outcome of result.changes ?? []) {
    if (outcome.object === 'created_page' && outcome.ref !== undefined) created.set(outcome.ref, { kind: 'page', id: outcome.page.id });
  }
  const files = batch.flatMap((change) => (change.operation === 'insert_files' ? change.files : []));
  files.forEach((file, index) => {
    const inserted = result.insertedFiles[index];
    if (file.ref !== undefined && inserted !== undefined) created.set(file.ref, { kind: 'file', id: inserted.id });
  });
  return created;
}
