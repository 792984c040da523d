import { applyChanges } from '../../content/index.js';
import type { ChangeDocument, ContentChange } from '../../model/index.js';
import { sha256 } from '../store/blobs.js';
import { newId } from '../util/ids.js';
import { runParse } from './pool.js';
import { factsOf, type ParseResult, type ParseTask } from './tasks.js';

/**
 * Parse time of a batch's documents, measured on a worker, under which the batch is applied on
 * the event loop: applying parses each document about four times, so the loop is held for at
 * most about 0.2 s. Above it the batch is applied on a worker, which costs copying the tree
 * there and back (some 50 ms each way for 5,000 pages): worth it only for documents that are.
 */
export const MAIN_THREAD_PARSE_MS = 50;

function submittedDocuments(changes: readonly ContentChange[]): ChangeDocument[] {
  return changes.flatMap((change) => {
    const document = (change as { document?: ChangeDocument }).document;
    return document === undefined ? [] : [document];
  });
}

/**
 * Whether a batch must be applied on a worker: its documents took long to parse (or could not
 * be parsed), or it reverts blocks (which parses stored documents, of any past cost). The
 * measure itself runs within the parse budget, so a hopeless document is refused here (422).
 */
export async function batchNeedsWorker(changes: readonly ContentChange[]): Promise<boolean> {
  if (changes.some((c) => c.operation === 'revert_page' && c.block !== undefined)) return true;
  const documents = submittedDocuments(changes);
  if (documents.length === 0) return false;
  const { ms, failed } = await runParse({ kind: 'measure', documents }, 'the batch');
  return failed || ms > MAIN_THREAD_PARSE_MS;
}

type ApplyTask = Extract<ParseTask, { kind: 'apply' }>;

/** Applies a batch and derives its documents' facts, on a worker or, for cheap batches, here. */
export async function applyBatch(task: ApplyTask, onWorker: boolean): Promise<Extract<ParseResult, { kind: 'apply' }>> {
  if (onWorker) return runParse(task, 'the batch');
  const result = applyChanges(task.tree, task.changes, {
    newId,
    now: task.now,
    hash: sha256,
    revisions: task.revisions,
    defaultRevision: task.defaultRevision,
    files: task.files,
    readDocument: (sha) => task.documents.get(sha),
  });
  return { kind: 'apply', result, facts: result.ok ? factsOf(result.documents) : [] };
}
